"""Holidays from an iCalendar file: each all-day event becomes a holiday range (pure, no Django).

A public holiday calendar lists days off as all-day events ("国庆节", DTSTART 20261001, DTEND
20261008: the end is exclusive). Events whose name says they are working days ("补班", "上班")
are make-up days, but an .ics cannot say which weekday's courses they run: they are skipped and
counted, for the student to enter by hand. Anything else unreadable is a problem by code, and the
caller refuses the whole file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import cast

from icalendar import Calendar, Event

from schedule.core.academic_calendar import CalendarDay, DayKind

MAX_ICS_BYTES = 512 * 1024
MAX_ICS_EVENTS = 500
WORKDAY_MARKERS = ("补班", "上班", "调休上班", "workday")


@dataclass(frozen=True, slots=True)
class IcsProblem:
    code: str  # invalid_ics, no_events, not_all_day, too_many_events, file_too_large
    name: str = ""
    detail: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class HolidayFile:
    holidays: tuple[CalendarDay, ...]
    workdays_skipped: tuple[str, ...]  # "补班 2026-09-27"
    problems: tuple[IcsProblem, ...]


def holidays_from_ics(data: bytes) -> HolidayFile:
    """Read the holidays of an .ics file; ``problems`` is empty when every event could be read."""
    if len(data) > MAX_ICS_BYTES:
        return _failed(IcsProblem("file_too_large", detail={"size": len(data), "limit": MAX_ICS_BYTES}))
    try:
        calendar = Calendar.from_ical(data)
        events = cast(list[Event], calendar.walk("VEVENT"))
    except (ValueError, KeyError, IndexError, TypeError, OSError) as error:
        return _failed(IcsProblem("invalid_ics", detail={"error": str(error)[:120]}))
    if not events:
        return _failed(IcsProblem("no_events"))
    if len(events) > MAX_ICS_EVENTS:
        return _failed(IcsProblem("too_many_events", detail={"count": len(events), "limit": MAX_ICS_EVENTS}))
    holidays: list[CalendarDay] = []
    skipped: list[str] = []
    problems: list[IcsProblem] = []
    for event in events:
        read = _read(event)
        if isinstance(read, IcsProblem):
            problems.append(read)
        elif any(marker in read.name.lower() for marker in WORKDAY_MARKERS):
            skipped.append(f"{read.name} {read.first.isoformat()}")
        else:
            holidays.append(read)
    return HolidayFile(tuple(holidays), tuple(skipped), tuple(problems))


def _failed(problem: IcsProblem) -> HolidayFile:
    return HolidayFile((), (), (problem,))


def _read(event: Event) -> CalendarDay | IcsProblem:
    name = str(event.get("SUMMARY", "")).strip()[:60]
    try:
        start = event.decoded("DTSTART")
        end = event.decoded("DTEND") if event.get("DTEND") is not None else None
    except (ValueError, KeyError, TypeError, OSError) as error:
        return IcsProblem("invalid_ics", name, {"error": str(error)[:120]})
    if isinstance(start, datetime) or not isinstance(start, date) or isinstance(end, datetime):
        return IcsProblem("not_all_day", name)
    last = end - timedelta(days=1) if isinstance(end, date) and end > start else start
    return CalendarDay(DayKind.HOLIDAY, name, start, last)
