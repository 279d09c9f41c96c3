"""Read and write the student's own rules: all or nothing, every refusal coded and worded.

The checks that need no database (sections inside the day, weekdays, overlaps) are the pure
``protected_problems``; this module adds what needs rows: the day's number of sections, clock
times mapped to sections with the student's section times, and course meetings a protected time
would cover (refused naming the course: a protected time is for free time, not a class).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import time
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.student_rules import (
    ALL_DAYS,
    BUFFER_RANGE,
    CAP_RANGE,
    MAX_PROTECTED,
    ProtectedTime,
    RuleProblem,
    protected_problems,
    sections_around,
    sections_for_times,
)
from schedule.messages import DAY_LABELS
from schedule.models import CalendarSettings, ScheduleEvent, parse_clock
from schedule.student_rules.models import StudyRules
from smartmate.platform.exceptions import AppError

MAX_NAME = 20


class StudyRulesError(AppError):
    code = "invalid_rules"
    status = 400


# A refused protected time's fields as she typed them, kept in the session for the next render of the
# settings card (the view writes them, the card's tag reads them once).
TYPED_KEY = "study_rules_typed"
TYPED_FIELDS = ("name", "days", "by", "first", "last", "start", "end")

@dataclass(frozen=True)
class ProtectedInput:
    """A protected time as typed: a name, weekdays, and sections (``first``..``last``) or clock times."""

    name: str
    days: tuple[int, ...]
    first: int | None = None
    last: int | None = None
    start: str | None = None  # "11:40"
    end: str | None = None  # "13:30"


def study_rules_get(*, user: User) -> StudyRules:
    """The student's rules (an unsaved row with no rule when they never set any)."""
    return StudyRules.objects.filter(user=user).first() or StudyRules(user=user)


@transaction.atomic
def study_rules_update(*, user: User, daily_cap: int | None, buffer_sections: int, latest_section: int | None,
                       protected: Sequence[ProtectedInput]) -> StudyRules:
    """Replace the student's rules (pins stay); refused whole with a coded error, nothing written."""
    calendar = CalendarSettings.objects.for_user(user)
    _check_numbers(daily_cap, buffer_sections, latest_section, calendar.section_count)
    if len(protected) > MAX_PROTECTED:
        raise _problem_error(RuleProblem("too_many_protected", {"max": MAX_PROTECTED}))
    entries = [_protected_from(p, calendar) for p in protected]
    problems = protected_problems([core for core, _row in entries], calendar.section_count)
    if problems:
        raise _problem_error(problems[0])
    _check_courses(user, [core for core, _row in entries])
    rules, _created = StudyRules.objects.select_for_update().get_or_create(user=user)
    rules.daily_cap, rules.buffer_sections, rules.latest_section = daily_cap, buffer_sections, latest_section
    rules.protected_times = [row for _core, row in entries]
    rules.save()
    return rules


def _check_numbers(cap: int | None, buffer: int, latest: int | None, sections: int) -> None:
    if cap is not None and not CAP_RANGE[0] <= cap <= CAP_RANGE[1]:
        raise StudyRulesError(_("A daily cap is 1 to 12 study blocks; leave it empty for no cap."), code="invalid_cap",
                              detail={"field": "daily_cap", "value": cap})
    if not BUFFER_RANGE[0] <= buffer <= BUFFER_RANGE[1]:
        raise StudyRulesError(_("A buffer is 0 to 4 free sections."), code="invalid_buffer",
                              detail={"field": "buffer_sections", "value": buffer})
    if latest is not None and not 2 <= latest <= sections:
        raise StudyRulesError(_("The latest section is one of your day's sections, 2 to {sections}.").format(
            sections=sections), code="invalid_latest_section", detail={"field": "latest_section", "value": latest})


def _protected_from(typed: ProtectedInput, calendar: CalendarSettings) -> tuple[ProtectedTime, dict[str, Any]]:
    """The pure protected time and the row stored for it (times kept for display)."""
    name = typed.name.strip()
    if not name or len(name) > MAX_NAME:
        raise StudyRulesError(_("Give each protected time a name of 1 to 20 characters."), code="protected_name",
                              detail={"name": typed.name})
    row: dict[str, Any] = {"name": name, "days": sorted(set(typed.days))}
    if typed.start is not None or typed.end is not None:
        first, last = _sections_of_times(typed, calendar)
        row.update(start=typed.start, end=typed.end)
    elif typed.first is not None:
        first, last = typed.first, typed.last if typed.last is not None else typed.first
    else:
        raise StudyRulesError(_("“{name}”: give its sections or its start and end times.").format(name=name),
                              code="protected_sections", detail={"name": name})
    row.update(first=first, last=last)
    days = frozenset(typed.days)
    return ProtectedTime(name=name, first=first, last=last, days=days), row


def _sections_of_times(typed: ProtectedInput, calendar: CalendarSettings) -> tuple[int, int]:
    try:
        start, end = parse_clock(typed.start or ""), parse_clock(typed.end or "")
    except ValidationError:  # parse_clock's own message names the field's text; this one names the time
        raise StudyRulesError(_("“{name}”: times look like 11:40.").format(name=typed.name),
                              code="protected_time_range", detail={"name": typed.name}) from None
    times = _section_times(calendar)
    found = sections_for_times(times, start, end) if start < end else None
    if found is not None:
        return found
    detail = {"name": typed.name, "start": typed.start, "end": typed.end}
    around = sections_around(times, start, end) if start < end else None
    if around is not None:  # lunch on a grid whose morning ends before it: nothing to keep free
        raise StudyRulesError(_("“{name}”: {start}-{end} lies between your sections {before} and {after}, where no "
                                "study block is ever placed; nothing needs protecting.").format(
            name=typed.name, start=typed.start, end=typed.end, before=around[0], after=around[1]),
            code="protected_time_range", detail={**detail, "between": list(around)})
    raise StudyRulesError(_("“{name}”: {start}-{end} covers none of your sections.").format(
        name=typed.name, start=typed.start, end=typed.end), code="protected_time_range", detail=detail)


def _section_times(calendar: CalendarSettings) -> list[tuple[time, time]]:
    return [(parse_clock(a), parse_clock(b)) for a, b in calendar.section_times]


def _problem_error(problem: RuleProblem) -> StudyRulesError:
    data = problem.data
    messages: Mapping[str, str] = {
        "too_many_protected": _("Up to {max} protected times."),
        "protected_sections": _("“{name}”: its sections must lie within your day's {sections} sections."),
        "protected_days": _("“{name}”: choose at least one weekday."),
        "protected_overlap": _("“{name}” and “{other}” overlap; merge them or choose other sections or days."),
    }
    return StudyRulesError(messages[problem.code].format(**data), code=problem.code, detail=data)


def _check_courses(user: User, protected: Sequence[ProtectedTime]) -> None:
    """Refuse a protected time that covers a course meeting, naming the course and when."""
    for entry in protected:
        meeting = (ScheduleEvent.objects.filter(user=user, kind=ScheduleEvent.Kind.COURSE, day__in=sorted(entry.days),
                                                start_section__lte=entry.last, end_section__gte=entry.first)
                   .order_by("week", "day", "start_section").first())
        if meeting is not None:
            raise StudyRulesError(
                _("“{name}” covers your course “{course}” (week {week}, {weekday}, sections {first}-{last}); "
                  "choose other sections or weekdays.").format(
                    name=entry.name, course=meeting.title, week=meeting.week, weekday=DAY_LABELS[meeting.day - 1],
                    first=meeting.start_section, last=meeting.end_section),
                code="protected_covers_course",
                detail={"name": entry.name, "course": meeting.title, "event_id": meeting.pk, "week": meeting.week,
                        "day": meeting.day, "start_section": meeting.start_section,
                        "end_section": meeting.end_section})


def protected_days_text(days: Sequence[int]) -> str:
    """Weekdays as the settings page lists them: every day, or Monday, Wednesday."""
    if set(days) == ALL_DAYS:
        return _("every day")
    return _(", ").join(str(DAY_LABELS[d - 1]) for d in sorted(days))
