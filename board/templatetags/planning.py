"""The planning panel of a study plan's page: feasibility before planning, and the plan button."""

from __future__ import annotations

from django import template

from board.planning import PlanningError, task_class_feasibility

register = template.Library()


@register.inclusion_tag("board/_planning_panel.html", takes_context=True)
def planning_panel(context, task_class) -> dict:
    """Show "16 blocks requested, 41 usable slots in the window, slack 25" and a plan button."""
    user = context["request"].user
    figures, problem = None, ""
    try:
        figures = task_class_feasibility(user=user, task_class_id=task_class.pk)
    except PlanningError as exc:
        problem = exc.message
    return {"task_class": task_class, "figures": figures, "problem": problem,
            "csrf_token": context.get("csrf_token"), "request": context["request"]}
