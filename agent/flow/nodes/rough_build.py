"""Rough-build node: run the planner (no model) for the plan's task classes into the working schedule.

The planner places every block it can in free time and embeddable courses; the execute node then
adjusts the result to the student's wishes with tools. What the planner did is reported as a
tool call and result, so the timeline shows it like any other step.
"""

from __future__ import annotations

import uuid

from django.utils.translation import gettext as _

from agent.flow.contracts import StatusEvent, ToolCallEvent, ToolResultEvent
from agent.flow.deps import Deps
from agent.flow.nodes import Step
from agent.flow.state import Action, TurnState


def run(state: TurnState, deps: Deps) -> Step:
    """Place the plan's classes into the working schedule as suggestions."""
    ids = list((state.plan.task_class_ids if state.plan is not None else ()) or state.options.task_class_ids)
    deps.emit(StatusEvent(code="rough_build", message=_("Placing the study blocks…")))
    call_id = f"rough-{uuid.uuid5(uuid.NAMESPACE_URL, state.turn_id).hex[:12]}"
    deps.emit(ToolCallEvent(call_id=call_id, name="rough_build", arguments={"task_class_ids": ids},
                            summary=_("Run the planner for the chosen task classes"), label=_("Run the planner")))
    working = state.working if state.working is not None else deps.services.working_load(ids)
    working, summary = deps.services.rough_build(ids, working)
    deps.emit(ToolResultEvent(call_id=call_id, name="rough_build", status="done", summary=summary,
                              label=_("Run the planner")))
    action = Action(tool="rough_build", status="done", summary=summary)
    # The optimise phase improves the suggestions (analysis, move, swap) before the execute rounds.
    return Step("optimise", state.updated(working=working, actions=(*state.actions, action), scratch=(), rounds=0))
