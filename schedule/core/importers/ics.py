"""Read iCalendar timetables: weekly repeating and single VEVENTs mapped onto sections.

Each event must start within ``ALIGNMENT_TOLERANCE`` of a section's start and end within it of a
section's end, on one day; an event off the grid by less is moved onto its sections with a notice.
Weekly RRULEs (INTERVAL, COUNT, UNTIL, BYDAY), RDATE, EXDATE and moved or cancelled instances
(RECURRENCE-ID) are understood; a repetition that runs past the semester (endless or too long) is
stopped at its end and instances before its start are left out, each with a notice; a single event
outside the semester is a problem. Floating times are read in the semester's time zone; rows are
VEVENT positions.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import cast

from icalendar import Calendar, Event

from schedule.core.importers.budget import NO_LIMIT, WorkBudget
from schedule.core.importers.fields import MAX_NAME_LENGTH, MAX_TEXT_LENGTH
from schedule.core.importers.notices import (
    DatesOutsideSemester,
    ImportNotice,
    RepeatClipped,
    SnappedToSections,
)
from schedule.core.importers.report import ImportedCourse, ImportProblem, ImportRejected, problem
from schedule.core.time_model import DAYS_PER_WEEK, SectionTemplate, Semester

ALIGNMENT_TOLERANCE = timedelta(minutes=10)
_WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_SUPPORTED_RULE_PARTS = {"FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY", "WKST"}
_TEACHER_LINE = re.compile(r"^\s*(?:老师|教师|任课教师|teacher)\s*[:：]\s*(.+?)\s*$", re.I | re.M)


class _EventProblem(Exception):
    def __init__(self, found: ImportProblem) -> None:
        super().__init__(found.message)
        self.problem = found


@dataclass(frozen=True, slots=True)
class _Timing:
    """The local start and end of an event's first instance and its section span."""

    start: datetime
    end: datetime
    first: int
    last: int
    snapped: SnappedToSections | None = None


def parse_ics(
    text: str, semester: Semester, template: SectionTemplate, budget: WorkBudget = NO_LIMIT
) -> tuple[list[ImportedCourse], list[ImportProblem]]:
    """Return the courses of an iCalendar file and the problems of its events."""
    events = _events(text)
    moved = _moved_instances(events, semester)
    courses: list[ImportedCourse] = []
    problems: list[ImportProblem] = []
    for row, event in enumerate(events, start=1):
        budget.spend()
        if _is_cancelled(event):
            continue
        try:
            courses.extend(_courses_of(event, row, semester, template, moved))
        except _EventProblem as error:
            problems.append(error.problem)
        except (ValueError, TypeError, KeyError, OSError) as error:
            # icalendar raises on access to a property it could not parse (e.g. a broken EXDATE).
            problems.append(problem("invalid_ics", row, error=_short(error)))
    return courses, problems


def _events(text: str) -> list[Event]:
    try:
        calendar = Calendar.from_ical(text)
    # icalendar resolves TZIDs while parsing, so a bad TZID can surface as an OSError.
    except (ValueError, IndexError, KeyError, TypeError, OSError) as error:
        raise ImportRejected(problem("invalid_ics", None, error=_short(error))) from None
    if not isinstance(calendar, Calendar) or calendar.name != "VCALENDAR":
        raise ImportRejected(problem("invalid_ics", None, error="no VCALENDAR"))
    events = cast(list[Event], calendar.walk("VEVENT"))  # icalendar parses a VEVENT as an Event
    if not events:
        raise ImportRejected(problem("no_events", None))
    return events


def _short(error: Exception) -> str:
    return str(error).splitlines()[0][:200] if str(error) else type(error).__name__


def _text(event: Event, key: str) -> str:
    """Return a text property, the first one if a broken file repeats it."""
    value = event.get(key, "")
    return str(value[0] if isinstance(value, list) and value else value).strip()


def _is_cancelled(event: Event) -> bool:
    return _text(event, "STATUS").upper() == "CANCELLED"


def _moved_instances(events: list[Event], semester: Semester) -> set[tuple[str, date]]:
    """Return (UID, original date) of instances that a RECURRENCE-ID event replaces or cancels."""
    moved = set()
    for event in events:
        if "RECURRENCE-ID" not in event:
            continue
        try:
            original = event.decoded("RECURRENCE-ID")
        except (ValueError, TypeError, KeyError, OSError):
            continue  # the event itself reports the broken property when it is read
        if isinstance(original, date):
            moved.add((_text(event, "UID"), _local_date(original, semester)))
    return moved


def _courses_of(
    event: Event,
    row: int,
    semester: Semester,
    template: SectionTemplate,
    moved: set[tuple[str, date]],
) -> list[ImportedCourse]:
    name = _text(event, "SUMMARY")
    if not name:
        raise _EventProblem(problem("missing_value", row, "SUMMARY"))
    if len(name) > MAX_NAME_LENGTH:
        raise _EventProblem(problem("too_long", row, "SUMMARY", limit=MAX_NAME_LENGTH))
    timing = _timing(event, row, name, semester, template)
    dates, notices = _dates(event, row, name, timing, semester, moved)
    if timing.snapped is not None:
        notices.insert(0, timing.snapped)
    return _group_by_weekday(event, row, name, timing, dates, semester, tuple(notices))


def _timing(
    event: Event, row: int, name: str, semester: Semester, template: SectionTemplate
) -> _Timing:
    start = _decoded(event, "DTSTART", row, name)
    if not isinstance(start, datetime):
        raise _EventProblem(problem("all_day_event", row, "DTSTART", name=name))
    start = _localise(start, semester)
    if "DTEND" in event:
        end = _localise(_decoded(event, "DTEND", row, name), semester)
    elif "DURATION" in event and isinstance(event.decoded("DURATION"), timedelta):
        end = start + event.decoded("DURATION")
    else:
        raise _EventProblem(problem("missing_end", row, "DTEND", name=name))
    if end.date() != start.date():
        raise _EventProblem(problem("spans_days", row, "DTEND", name=name))
    first = template.section_starting_near(start.time(), ALIGNMENT_TOLERANCE)
    last = template.section_ending_near(end.time(), ALIGNMENT_TOLERANCE)
    if first is None or last is None or first > last:
        raise _EventProblem(
            problem(
                "not_aligned",
                row,
                "DTSTART",
                name=name,
                start=f"{start:%H:%M}",
                end=f"{end:%H:%M}",
                tolerance=int(ALIGNMENT_TOLERANCE.total_seconds() // 60),
            )
        )
    return _Timing(start, end, first, last, _snapped(row, name, start, end, template, first, last))


def _snapped(
    row: int,
    name: str,
    start: datetime,
    end: datetime,
    template: SectionTemplate,
    first: int,
    last: int,
) -> SnappedToSections | None:
    """Return the notice for an event moved onto its sections, None if it was on the grid."""
    section_start, section_end = template.section(first).start, template.section(last).end
    if start.time().replace(tzinfo=None) == section_start and end.time().replace(tzinfo=None) == section_end:
        return None
    return SnappedToSections(
        row, name, start.time(), end.time(), first, last, section_start, section_end
    )


def _decoded(event: Event, key: str, row: int, name: str) -> date:
    value = event.decoded(key) if key in event else None
    if value is None:
        raise _EventProblem(problem("missing_value", row, key))
    if not isinstance(value, date):
        raise _EventProblem(problem("invalid_value", row, key, value=str(value)))
    return value


def _localise(moment: date, semester: Semester) -> datetime:
    if not isinstance(moment, datetime):
        return datetime.combine(moment, datetime.min.time(), tzinfo=semester.zone)
    if moment.tzinfo is None:
        return moment.replace(tzinfo=semester.zone)
    return moment.astimezone(semester.zone)


def _local_date(moment: date, semester: Semester) -> date:
    return _localise(moment, semester).date() if isinstance(moment, datetime) else moment


def _dates(
    event: Event,
    row: int,
    name: str,
    timing: _Timing,
    semester: Semester,
    moved: set[tuple[str, date]],
) -> tuple[list[date], list[ImportNotice]]:
    """Return the in-semester dates of all instances and what was left out to get them.

    A repeating event keeps its instances inside the semester (a notice says what was dropped);
    a single event, or a repeating one with no instance inside, outside the semester is a problem.
    """
    excluded = _listed_dates(event, "EXDATE", semester)
    clipped = False
    if "RRULE" in event and "RECURRENCE-ID" not in event:
        uid = _text(event, "UID")
        excluded |= {day for moved_uid, day in moved if moved_uid == uid}
        candidates, clipped = _rule_dates(event, row, name, timing, semester)
    else:
        candidates = [timing.start.date()]
    wanted = (set(candidates) | _listed_dates(event, "RDATE", semester)) - excluded
    inside = sorted(day for day in wanted if semester.contains(day))
    outside = sorted(day for day in wanted if not semester.contains(day))
    repeating = clipped or len(wanted) > 1
    if outside and (not inside or not repeating):
        raise _EventProblem(
            problem(
                "outside_semester",
                row,
                "DTSTART",
                name=name,
                date=outside[0].isoformat(),
                first=semester.start_monday.isoformat(),
                last=semester.last_day.isoformat(),
            )
        )
    notices: list[ImportNotice] = []
    if clipped:
        notices.append(RepeatClipped(row, name, semester.last_day))
    if outside:
        notices.append(
            DatesOutsideSemester(row, name, len(outside), semester.start_monday, semester.last_day)
        )
    return inside, notices


def _listed_dates(event: Event, key: str, semester: Semester) -> set[date]:
    value = event.get(key)
    if value is None:
        return set()
    lists = value if isinstance(value, list) else [value]
    return {
        _local_date(item.dt, semester)
        for listed in lists
        for item in getattr(listed, "dts", [])
        if isinstance(item.dt, date)
    }


def _rule_dates(
    event: Event, row: int, name: str, timing: _Timing, semester: Semester
) -> tuple[list[date], bool]:
    """Return the dates of a weekly RRULE up to the semester's end, and whether it went on past it."""
    rule = event.get("RRULE")
    if isinstance(rule, list) or rule is None:
        raise _EventProblem(
            problem("unsupported_recurrence", row, "RRULE", name=name, rule="several RRULEs")
        )
    rule_text = rule.to_ical().decode()
    unsupported = set(rule) - _SUPPORTED_RULE_PARTS
    if rule.get("FREQ") != ["WEEKLY"] or unsupported:
        raise _EventProblem(
            problem("unsupported_recurrence", row, "RRULE", name=name, rule=rule_text)
        )
    weekdays = _rule_weekdays(rule, timing, row, name, rule_text)
    interval = int(rule.get("INTERVAL", [1])[0])
    count = int(rule["COUNT"][0]) if "COUNT" in rule else None
    until = rule["UNTIL"][0] if "UNTIL" in rule else None
    if interval < 1:
        raise _EventProblem(
            problem("unsupported_recurrence", row, "RRULE", name=name, rule=rule_text)
        )
    return _expand_weekly(timing.start, weekdays, interval, count, until, semester)


def _rule_weekdays(rule: dict, timing: _Timing, row: int, name: str, rule_text: str) -> list[int]:
    codes = [str(code).upper() for code in rule.get("BYDAY", [])]
    if any(code not in _WEEKDAYS for code in codes):
        raise _EventProblem(
            problem("unsupported_recurrence", row, "RRULE", name=name, rule=rule_text)
        )
    return sorted({_WEEKDAYS.index(code) for code in codes} or {timing.start.weekday()})


def _expand_weekly(
    start: datetime,
    weekdays: list[int],
    interval: int,
    count: int | None,
    until: date | None,
    semester: Semester,
) -> tuple[list[date], bool]:
    """Return instance dates in order up to the semester's end, and whether the rule went on.

    Stopping at the semester's end keeps an endless or huge rule (COUNT=100000) from running away.
    """
    monday = start.date() - timedelta(days=start.weekday())
    dates: list[date] = []
    while True:
        for weekday in weekdays:
            day = monday + timedelta(days=weekday)
            if day < start.date():
                continue
            if (count is not None and len(dates) >= count) or _after_until(
                start, day, until, semester
            ):
                return dates, False
            if day > semester.last_day:
                return dates, True
            dates.append(day)
        monday += timedelta(days=DAYS_PER_WEEK * interval)


def _after_until(start: datetime, day: date, until: date | None, semester: Semester) -> bool:
    if until is None:
        return False
    if isinstance(until, datetime):
        return datetime.combine(day, start.timetz()) > _localise(until, semester)
    return day > until


def _group_by_weekday(
    event: Event,
    row: int,
    name: str,
    timing: _Timing,
    dates: list[date],
    semester: Semester,
    notices: tuple[ImportNotice, ...],
) -> list[ImportedCourse]:
    weeks_by_day: dict[int, set[int]] = defaultdict(set)
    for day in dates:
        week, weekday = semester.week_day_of(day)
        weeks_by_day[weekday].add(week)
    location = _text(event, "LOCATION")[:MAX_TEXT_LENGTH]
    teacher = _teacher(_text(event, "DESCRIPTION"))
    return [
        ImportedCourse(
            row,
            name,
            weekday,
            timing.first,
            timing.last,
            tuple(sorted(weeks)),
            teacher,
            location,
            notices=notices,
        )
        for weekday, weeks in sorted(weeks_by_day.items())
    ]


def _teacher(description: str) -> str:
    match = _TEACHER_LINE.search(description)
    return match[1][:MAX_TEXT_LENGTH] if match else ""
