"""Optimise node: after a rough build, improve its suggestions with analysis, move and swap only.

Each round analyses the working schedule (``schedule.core.analysis``, candidates limited to the
rough build's own suggestions, never a block already on the timetable), tries the decision's
candidates in turn and keeps the first that lowers the analysis score, carried out by the ``move``
or ``swap`` tool like any other edit. It stops when the analysis says nothing more is worth doing,
on stagnation (no candidate of a round lowers the score: the next round would see the same board),
or when the rounds run out (``OPTIMISE_ROUNDS``, and never past the execute node's round budget:
the rounds used here count there too).

No model call: the judge and the candidates are deterministic, so a crash re-runs the node to the
same result. The edits change only suggestions the student has not applied yet (they apply the
preview later, or not), inside the plan they accepted, so they need no card of their own; each
accepted round is shown on the timeline as the analysis and the edit it made.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.utils.translation import gettext as _

from agent.flow.contracts import StatusEvent, ToolCallEvent, ToolResultEvent
from agent.flow.deps import Deps
from agent.flow.nodes import Step
from agent.flow.nodes.execute import ROUND_BUDGET
from agent.flow.state import Action, TurnState
from agent.flow.working import Working
from agent.tools.support.base import ToolResult
from schedule.core.analysis import Analysis, Candidate, EmptyWindowError, analyze
from schedule.core.board import Board
from schedule.core.board_edits import OrderRule, apply
from schedule.core.board_errors import BoardError
from smartmate.llm import ChatMessage

OPTIMISE_TOOLS = ("analyze_health", "move", "swap")
OPTIMISE_ROUNDS = 6
ORDER = OrderRule.KEEP  # the tools keep class order unless the student allowed reordering


def run(state: TurnState, deps: Deps) -> Step:
    """Improve the rough build's suggestions until the analysis is content, stagnates, or rounds run out."""
    if state.working is None:
        return Step("execute", state)
    done: list[str] = []
    for _round in range(min(OPTIMISE_ROUNDS, ROUND_BUDGET - state.rounds)):
        report = _analysis(state.working.board)
        chosen = _improving(state.working.board, report) if report and report.decision.should_continue else None
        if chosen is None:
            break
        if not done:  # a round with nothing to change shows nothing: the timeline lists what happened
            deps.emit(StatusEvent(code="optimise", message=_("Improving the suggested plan…")))
        state = _carry_out(state, deps, chosen, len(done))
        done.append(state.actions[-1].summary)
    if done:
        note = "（系统）粗排后已自动优化建议的位置（仅限 analyze_health + move/swap）：" + "；".join(done)
        state = state.updated(scratch=(*state.scratch, ChatMessage.user(note)))
    return Step("execute", state)


def _analysis(board: Board) -> Analysis | None:
    try:
        return analyze(board, order=ORDER, only_suggested=True)
    except EmptyWindowError:
        return None


def _improving(board: Board, report: Analysis) -> Candidate | None:
    """The first candidate the core accepts whose board scores lower than this one."""
    for candidate in report.decision.candidates:
        try:
            after = apply(board, candidate.edit(), order=ORDER)
        except BoardError:
            continue
        better = _analysis(after)
        if better is not None and better.score < report.score:
            return candidate
    return None


def _carry_out(state: TurnState, deps: Deps, candidate: Candidate, index: int) -> TurnState:
    """Show the analysis that chose the edit, then run the edit through its tool."""
    working = state.working
    assert working is not None
    _tool(state, deps, "analyze_health", {"suggested_only": True}, working, index)
    name, args = _edit_call(candidate)
    result = _tool(state, deps, name, args, working, index)
    action = Action(tool=name, status=result.status, summary=result.summary)
    return state.updated(working=result.working or working, actions=(*state.actions, action),
                         rounds=state.rounds + 1)


def _edit_call(candidate: Candidate) -> tuple[str, dict[str, Any]]:
    if candidate.operation == "swap":
        return "swap", {"task_a": candidate.entry, "task_b": candidate.other}
    assert candidate.spot is not None
    return "move", {"task_id": candidate.entry, "date": candidate.spot.day.isoformat(),
                    "start_section": candidate.spot.start}


def _tool(state: TurnState, deps: Deps, name: str, args: dict[str, Any], working: Working, index: int) -> ToolResult:
    """Run one tool as the execute node would, with its timeline events; the call id is stable on a re-run."""
    tools = deps.services.tools
    call_id = f"opt-{uuid.uuid5(uuid.NAMESPACE_URL, f'{state.turn_id}/{index}/{name}').hex[:12]}"
    label = tools.label(name)
    deps.emit(ToolCallEvent(call_id=call_id, name=name, arguments=args,
                            summary=tools.confirmation(name, args, working), label=label))
    result = tools.run(name, args, call_id=call_id, working=working, options=state.options)
    deps.emit(ToolResultEvent(call_id=call_id, name=name, status=result.status, summary=result.summary,
                              result=result.data, label=label))
    return result
