"""Confirm node: turn an opened confirmation (a plan or one write) into the card the student sees.

The card's content is built here, from the state, by the server: what the student accepts is
exactly what the execute node will run (``pending.data`` holds the tool name and arguments).
"""

from __future__ import annotations

import dataclasses

from django.utils.translation import gettext as _

from agent.flow.deps import Deps
from agent.flow.nodes import Step
from agent.flow.state import ConfirmCard, PlanConfirmation, ToolConfirmation, TurnState


def run(state: TurnState, deps: Deps) -> Step:
    """Write the card into the pending interaction and hand over to ``interrupt``."""
    pending = state.pending
    assert pending is not None, "the graph comes here with a confirmation open"
    data = pending.data
    if isinstance(data, PlanConfirmation):
        data = dataclasses.replace(data, card=_plan_card(data, pending.prompt, deps))
    elif isinstance(data, ToolConfirmation):
        data = dataclasses.replace(data, card=_tool_card(data, pending.prompt, deps))
    return Step("interrupt", state.updated(pending=dataclasses.replace(pending, data=data)))


def _plan_card(data: PlanConfirmation, prompt: str, deps: Deps) -> ConfirmCard:
    plan = data.plan.to_json()
    # The card names the task classes the plan will place: ids mean nothing to a student.
    names = deps.services.task_class_names(plan["task_class_ids"]) if plan["task_class_ids"] else []
    return ConfirmCard(title=_("Go ahead with this plan?"), summary=plan["goal"] or prompt,
                       details={"steps": plan["steps"], "rough_build": plan["rough_build"],
                                "task_class_ids": plan["task_class_ids"], "task_classes": names})


def _tool_card(data: ToolConfirmation, prompt: str, deps: Deps) -> ConfirmCard:
    details = {"tool": data.call.name, "arguments": data.call.arguments}
    if deps.services.tools.writes(data.call.name):
        return ConfirmCard(title=_("Make this change?"), summary=prompt, details=details)
    # A read that asked first (web_fetch of an address the model built): the card shows the whole
    # address, since its path or query may carry something from the conversation.
    url = str(data.call.arguments.get("url", ""))
    return ConfirmCard(title=_("Let the assistant open this address?"), summary=prompt,
                       details={**details, "url": url, "warning": _(
                           "The assistant built this address itself. Check that it does not carry anything "
                           "private from your conversation before you accept.")})
