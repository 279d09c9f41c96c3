"""Template filters of exams: the exams of one weekday of a week board."""

from __future__ import annotations

from django import template

from schedule.exams.models import Exam

register = template.Library()


@register.filter
def exams_of(by_day: dict[int, list[Exam]] | None, day: int) -> list[Exam]:
    """The exams of weekday ``day`` (1 = Monday), from ``schedule.exams.selectors.week_exams``."""
    return (by_day or {}).get(day, [])
