"""What the school calendar says about a date, in the student's language: "国庆节 · 停课",
"调休 · 按周五上课" (the day header), "调休：按第 5 周周五上课" (the long form), an exam week's name."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from schedule.core.academic_calendar import DayKind, DayLabel, ResolvedDay
from schedule.messages import day_label


@dataclass(frozen=True)
class DayNote:
    """One label of a date: ``kind`` (holiday, makeup, exam) for styling, a short and a long text."""

    kind: str
    short: str
    long: str


def day_notes(resolved: ResolvedDay | None) -> tuple[DayNote, ...]:
    """The notes of one date (none for a date the calendar leaves alone)."""
    if resolved is None:
        return ()
    return tuple(label_note(label) for label in resolved.labels)


def label_note(label: DayLabel) -> DayNote:
    """The note of one calendar entry (also for the settings page's list, whether the switch is on or not)."""
    if label.kind == DayKind.HOLIDAY:
        text = _("%(name)s · no classes") % {"name": label.name}
        return DayNote(label.kind, text, text)
    if label.kind == DayKind.MAKEUP:
        weekday = day_label(label.runs_day or 0)
        return DayNote(label.kind, _("Make-up day · %(weekday)s classes") % {"weekday": weekday},
                       _("Make-up day: classes of week %(week)s, %(weekday)s") % {
                           "week": label.runs_week, "weekday": weekday})
    return DayNote(label.kind, label.name, _("Exams: %(name)s") % {"name": label.name})
