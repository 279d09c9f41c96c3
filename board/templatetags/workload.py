"""The workload view's template tags: the load strip of the week board and the study chart of the dashboard.

Each computes its figures with ``board.workload`` for the signed-in student and renders
its own partial, so the shared pages only include one tag.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from board.workload import study_chart, week_strip

register = template.Library()


@register.inclusion_tag("board/_workload_strip.html", takes_context=True)
def workload_strip(context: template.Context) -> dict[str, Any]:
    """The week board's per-day load: ``board`` (its dates) and the shown ``preview`` come from the page."""
    request, board, preview = context["request"], context["board"], context.get("preview")
    strip = week_strip(user=request.user, dates=board.dates, now=timezone.now(),
                       preview_id=getattr(preview, "id", None))
    return {"strip": strip}


@register.inclusion_tag("board/_workload_chart.html", takes_context=True)
def workload_chart(context: template.Context) -> dict[str, Any]:
    """The dashboard's study hours per week of the semester, stacked by class."""
    return {"chart": study_chart(user=context["request"].user, now=timezone.now())}
