"""Template filters of the school calendar: a week board day's notes ("国庆节 · 停课", "调休 · 周五的课")."""

from __future__ import annotations

from django import template

from schedule.calendar_labels import DayNote
from schedule.selectors import WeekBoard

register = template.Library()


@register.filter
def day_notes_of(board: WeekBoard, day: int) -> tuple[DayNote, ...]:
    """The notes of weekday ``day`` (1 = Monday) of the board's week."""
    notes = getattr(board, "day_notes", ())
    return notes[day - 1] if 1 <= day <= len(notes) else ()
