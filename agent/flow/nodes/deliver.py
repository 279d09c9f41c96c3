"""Deliver node: end the turn honestly — what was done, what was not, the preview, the real usage.

It runs for every turn that started, whatever happened before (the graph sends failed, cancelled
and interrupted turns here too), and must be safe to re-run after a crash: the answer is stored
once per turn and a re-published preview replaces the conversation's previous one.

The "done / not done" lines are written by the server from the actions the tools reported, not by
the model, so the summary cannot claim a change that did not happen.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from agent.flow.contracts import AssistantDelta, PreviewReady, TurnDone, UsageEvent
from agent.flow.deps import Deps
from agent.flow.nodes import END, Step
from agent.flow.state import Action, Outcome, TurnState


def run(state: TurnState, deps: Deps) -> Step:
    """Summarise, publish the preview, store the answer, emit ``usage`` and ``turn.done``."""
    outcome = state.outcome or Outcome("completed")
    answer, preview_id = state.answer, state.preview_id
    if state.dropped:
        dropped = _dropped(state.dropped)
        deps.emit(AssistantDelta(text=dropped))
        answer += dropped
    if outcome.status != "interrupted" and state.actions:
        summary = _summary(state.actions)
        deps.emit(AssistantDelta(text=summary))
        answer += summary
        preview_id = _preview(state, deps) or preview_id
    usage = deps.meter.total
    message_id = None
    if answer:
        message_id = deps.services.assistant_message_save(
            content=answer, reasoning=state.reasoning, prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens, outcome=outcome.status)
    if usage.calls:
        deps.emit(UsageEvent(prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens,
                             total_tokens=usage.total_tokens, calls=usage.calls, estimated=usage.estimated))
    deps.emit(TurnDone(outcome=outcome.status, message_id=message_id))
    return Step(END, state.updated(outcome=outcome, usage=usage, answer=answer, preview_id=preview_id))


def _summary(actions: tuple[Action, ...]) -> str:
    done = [action.summary for action in actions if action.status == "done"]
    not_done = [action.summary for action in actions if action.status != "done"]
    lines = ["", ""]
    if done:
        lines += [_("Done:"), *(f"- {item}" for item in done)]
    if not_done:
        lines += [_("Not done:"), *(f"- {item}" for item in not_done)]
    return "\n".join(lines)


def _dropped(sentences: tuple[str, ...]) -> str:
    """The earlier changes the board no longer takes (``TurnState.dropped``), said whatever the turn did."""
    return "\n".join(["", "", _("Your schedule changed since, so earlier changes were dropped:"),
                      *(f"- {sentence}" for sentence in sentences)])


def _preview(state: TurnState, deps: Deps) -> int | None:
    if state.working is None or not any(action.status == "done" for action in state.actions):
        return None
    published = deps.services.preview_publish(state.working)
    if published is None:
        return None
    preview_id, summary = published
    deps.emit(PreviewReady(preview_id=preview_id, summary=summary))
    return preview_id
