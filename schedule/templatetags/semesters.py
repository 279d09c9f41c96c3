"""The semester picker on the week board: this semester, and each past one read-only."""

from __future__ import annotations

from typing import Any

from django import template

from schedule.semesters.selectors import semester_current_get, semester_list

register = template.Library()


@register.inclusion_tag("schedule/_semester_picker.html", takes_context=True)
def semester_picker(context: dict[str, Any]) -> dict[str, Any]:
    """List the student's semesters for the board's header (one query; the documents left unread)."""
    user = context["request"].user
    return {"current": semester_current_get(user=user), "past": list(semester_list(user=user))}
