"""Deliver node: end the turn honestly: keep the answer, report the real token usage, say it is done.

It runs for every turn that started, whatever happened before (the graph sends failed and
cancelled turns here too), and must be safe to re-run after a crash: the answer is stored once
per turn.
"""

from __future__ import annotations

from agent.contracts import TurnDone, UsageEvent
from agent.deps import Deps
from agent.nodes import END, Step
from agent.state import Outcome, TurnState


def run(state: TurnState, deps: Deps) -> Step:
    """Store the answer (if any), emit ``usage`` (if the model was called) and ``turn.done``."""
    outcome = state.outcome or Outcome("completed")
    usage = deps.meter.total
    message_id = None
    if state.answer:
        message_id = deps.services.assistant_message_save(
            content=state.answer, reasoning=state.reasoning, prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens)
    if usage.calls:
        deps.emit(UsageEvent(prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens,
                             total_tokens=usage.total_tokens, calls=usage.calls, estimated=usage.estimated))
    deps.emit(TurnDone(outcome=outcome.status, message_id=message_id))
    return Step(END, {"outcome": outcome, "usage": usage})
