"""Read iCalendar timetables into timed meetings, skipping (with a reason) what is not a weekly class.

Reading happens in two steps so the semester can be chosen between them. ``read_ics`` repairs the
text as calendar apps do (``ics_text``), then reads every VEVENT into an ``IcsEvent`` (its local
times, its weekly rule, its exceptions) or a ``SkippedEvent``: an all-day event, a damaged time,
a repetition other than weekly, an event without a name or an end. ``sample_dates`` (an event's
dates over a bounded span) is what semester inference looks at. ``expand_events`` then lists each event's dates
inside a semester; a rule is jumped to the semester's first week, never walked from its DTSTART
(a rule from year 1 costs no more than one from last week).

Floating times and TZIDs the file does not define are read in the semester's zone (``zone``);
rows are VEVENT positions and ``line`` the line of the file where the VEVENT begins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any, cast
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event
from icalendar.error import BrokenCalendarProperty

from schedule.core.importers.budget import NO_LIMIT, WorkBudget
from schedule.core.importers.ics_text import IcsRepair, repair_ics
from schedule.core.importers.metadata import CourseFacts, course_facts
from schedule.core.importers.notices import DatesOutsideSemester, ImportNotice, RepeatClipped
from schedule.core.importers.report import ImportRejected, SkippedEvent, problem, skipped
from schedule.core.time_model import DAYS_PER_WEEK, Semester

ALIGNMENT_TOLERANCE = timedelta(minutes=10)
_WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_RULE_PARTS = {"FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY", "WKST"}
# A bounded rule is counted instance by instance (to say how many fell outside the semester) only
# when it spans at most this long; past it, it is treated like an endless one.
_COUNTABLE_SPAN = timedelta(days=2 * 366)


@dataclass(frozen=True, slots=True)
class WeeklyRule:
    """A weekly repetition: every ``interval`` weeks on ``weekdays`` (0 = Monday), bounded or not."""

    interval: int
    weekdays: tuple[int, ...]
    count: int | None
    until: datetime | date | None

    @property
    def endless(self) -> bool:
        return self.count is None and self.until is None


@dataclass(frozen=True, slots=True)
class IcsEvent:
    """One timed VEVENT, in local wall time, before its dates are chosen."""

    row: int
    line: int
    uid: str
    facts: CourseFacts
    start: datetime
    end: datetime
    rule: WeeklyRule | None = None
    excluded: frozenset[date] = frozenset()
    added: frozenset[date] = frozenset()
    text: str = ""  # SUMMARY and DESCRIPTION as written: "第3周" words place the semester

    @property
    def first_date(self) -> date:
        return self.start.date()


@dataclass(frozen=True, slots=True)
class TimedMeetings:
    """An event's meetings: one time of day on a list of dates (local), with what was left out."""

    row: int
    line: int
    facts: CourseFacts
    start: time
    end: time
    dates: tuple[date, ...]
    notices: tuple[ImportNotice, ...] = ()


@dataclass(frozen=True, slots=True)
class IcsReading:
    """A whole file read: its timed events, what was skipped, and what was repaired to read it."""

    events: tuple[IcsEvent, ...]
    skipped: tuple[SkippedEvent, ...]
    repairs: tuple[IcsRepair, ...]


class _Skip(Exception):
    def __init__(self, found: SkippedEvent) -> None:
        super().__init__(found.code)
        self.skipped = found


def read_ics(text: str, zone: ZoneInfo, budget: WorkBudget = NO_LIMIT) -> IcsReading:
    """Read every VEVENT of ``text``; raise ImportRejected only when the file is no calendar at all."""
    repaired = repair_ics(text)
    if not repaired.has_calendar:
        raise ImportRejected(problem("invalid_ics", None, error="no VCALENDAR"))
    vevents = _vevents(repaired.text)
    lines = list(repaired.event_lines) + [0] * max(0, len(vevents) - len(repaired.event_lines))
    replaced = _replaced_instances(vevents, zone)
    events: list[IcsEvent] = []
    skips: list[SkippedEvent] = []
    for row, (vevent, line) in enumerate(zip(vevents, lines), start=1):
        budget.spend()
        if _text(vevent, "STATUS").upper() == "CANCELLED":
            continue  # a cancelled instance (or series) is no meeting; RECURRENCE-ID ones are in replaced
        try:
            events.append(_event(vevent, row, line, zone, replaced))
        except _Skip as skip:
            skips.append(skip.skipped)
    if not vevents:
        raise ImportRejected(problem("no_events", None))
    return IcsReading(tuple(events), tuple(skips), repaired.repairs)


def _vevents(text: str) -> list[Event]:
    try:
        calendar = Calendar.from_ical(text)
    # icalendar resolves TZIDs while parsing, so a bad TZID can surface as an OSError.
    except (ValueError, IndexError, KeyError, TypeError, OSError) as error:
        raise ImportRejected(problem("invalid_ics", None, error=_short(error))) from None
    if not isinstance(calendar, Calendar):
        raise ImportRejected(problem("invalid_ics", None, error="no VCALENDAR"))
    return cast(list[Event], calendar.walk("VEVENT"))


def _short(error: Exception) -> str:
    return str(error).splitlines()[0][:200] if str(error) else type(error).__name__


def _text(event: Event, key: str) -> str:
    """Return a text property, the first one if a broken file repeats it."""
    value = event.get(key, "")
    return str(value[0] if isinstance(value, list) and value else value).strip()


def _replaced_instances(vevents: list[Event], zone: ZoneInfo) -> set[tuple[str, date]]:
    """(UID, original date) of instances that a RECURRENCE-ID event moves or cancels."""
    replaced = set()
    for vevent in vevents:
        original = _value(vevent, "RECURRENCE-ID")
        if isinstance(original, date):
            replaced.add((_text(vevent, "UID"), _local(original, zone).date()))
    return replaced


def _value(vevent: Event, key: str) -> Any:
    """The decoded value of a property, None if absent; a damaged value comes back as its text."""
    prop = vevent.get(key)
    if prop is None:
        return None
    if isinstance(prop, list):
        prop = prop[0]
    try:
        return getattr(prop, "dt", prop)
    except BrokenCalendarProperty:
        return str(prop)  # what the file wrote, for the skip's message


# Properties whose damage changes when an event meets: such an event is skipped, never half-read.
_TIMING_PROPERTIES = ("DTSTART", "DTEND", "DURATION", "RRULE", "EXDATE", "RDATE", "RECURRENCE-ID")


def _event(vevent: Event, row: int, line: int, zone: ZoneInfo, replaced: set[tuple[str, date]]) -> IcsEvent:
    summary = _text(vevent, "SUMMARY")
    if not summary:
        raise _Skip(skipped("no_name", row, line, ""))
    facts = course_facts(summary, _text(vevent, "LOCATION"), _text(vevent, "DESCRIPTION"))
    name = facts.name
    for key, _error in getattr(vevent, "errors", ()):
        if key in _TIMING_PROPERTIES:
            raise _Skip(skipped("damaged", row, line, name, field=key, value=_raw(vevent, key)))
    start = _value(vevent, "DTSTART")
    if isinstance(start, date) and not isinstance(start, datetime):
        raise _Skip(skipped("all_day", row, line, name, date=start.isoformat()))
    if not isinstance(start, datetime):
        raise _Skip(skipped("damaged", row, line, name, field="DTSTART", value=str(start or "")))
    start = _local(start, zone)
    end = _end(vevent, start, row, line, name, zone)
    rule = _weekly_rule(vevent, start, row, line, name)
    uid = _text(vevent, "UID")
    excluded = _listed_dates(vevent, "EXDATE", zone)
    if rule is not None and "RECURRENCE-ID" not in vevent:
        excluded |= {day for replaced_uid, day in replaced if replaced_uid == uid}
    return IcsEvent(row, line, uid, facts, start, end, rule, frozenset(excluded),
                    frozenset(_listed_dates(vevent, "RDATE", zone)), f"{summary} {_text(vevent, 'DESCRIPTION')}")


def _raw(vevent: Event, key: str) -> str:
    prop = vevent.get(key)
    prop = prop[0] if isinstance(prop, list) and prop else prop
    return str(prop or "")[:40]


def _end(vevent: Event, start: datetime, row: int, line: int, name: str, zone: ZoneInfo) -> datetime:
    end_value = _value(vevent, "DTEND")
    duration = _value(vevent, "DURATION")
    if isinstance(end_value, datetime):
        end = _local(end_value, zone)
    elif end_value is None and isinstance(duration, timedelta):
        end = start + duration
    elif end_value is None and duration is None:
        raise _Skip(skipped("missing_end", row, line, name))
    else:
        field = "DTEND" if end_value is not None else "DURATION"
        raise _Skip(skipped("damaged", row, line, name, field=field, value=str(end_value or duration)))
    if end.date() != start.date() or end <= start:
        raise _Skip(skipped("spans_days", row, line, name))
    return end


def _local(moment: date, zone: ZoneInfo) -> datetime:
    if not isinstance(moment, datetime):
        return datetime.combine(moment, time.min, tzinfo=zone)
    if moment.tzinfo is None:
        return moment.replace(tzinfo=zone)
    return moment.astimezone(zone)


def _listed_dates(vevent: Event, key: str, zone: ZoneInfo) -> set[date]:
    value = vevent.get(key)
    if value is None:
        return set()
    lists = value if isinstance(value, list) else [value]
    return {
        _local(item.dt, zone).date()
        for listed in lists
        for item in getattr(listed, "dts", [])
        if isinstance(getattr(item, "dt", None), date)
    }


def _weekly_rule(vevent: Event, start: datetime, row: int, line: int, name: str) -> WeeklyRule | None:
    """The event's weekly rule; FREQ=DAILY every 7n days counts as weekly. Other rules skip the event."""
    if "RRULE" not in vevent or "RECURRENCE-ID" in vevent:
        return None
    rule = vevent.get("RRULE")
    if isinstance(rule, list) or not hasattr(rule, "to_ical"):
        raise _Skip(skipped("not_weekly", row, line, name, rule=str(rule)[:80]))
    rule_text = rule.to_ical().decode(errors="replace")[:80]
    try:
        return _rule_of(rule, start, rule_text)
    except (ValueError, TypeError, KeyError, IndexError):
        raise _Skip(skipped("not_weekly", row, line, name, rule=rule_text)) from None


def _rule_of(rule: Any, start: datetime, rule_text: str) -> WeeklyRule:
    frequency = rule.get("FREQ", [""])[0]
    interval = int(rule.get("INTERVAL", [1])[0])
    if frequency == "DAILY" and interval % DAYS_PER_WEEK == 0 and "BYDAY" not in rule:
        frequency, interval = "WEEKLY", interval // DAYS_PER_WEEK
    if frequency != "WEEKLY" or set(rule) - _RULE_PARTS or interval < 1:
        raise ValueError(rule_text)
    codes = [str(code).upper()[-2:] for code in rule.get("BYDAY", [])]
    if any(code not in _WEEKDAYS for code in codes):
        raise ValueError(rule_text)
    weekdays = tuple(sorted({_WEEKDAYS.index(code) for code in codes} or {start.weekday()}))
    count = int(rule["COUNT"][0]) if "COUNT" in rule else None
    if count is not None and count < 1:
        raise ValueError(rule_text)
    until = rule["UNTIL"][0] if "UNTIL" in rule else None
    if until is not None and not isinstance(until, date):
        raise ValueError(rule_text)
    return WeeklyRule(interval, weekdays, count, until)


# --- Dates inside a semester ---------------------------------------------------------------------

def expand_events(
    reading: IcsReading, semester: Semester, budget: WorkBudget = NO_LIMIT
) -> tuple[list[TimedMeetings], list[SkippedEvent]]:
    """Return each event's meetings inside the semester; an event with none there is skipped."""
    meetings: list[TimedMeetings] = []
    skips: list[SkippedEvent] = []
    for event in reading.events:
        budget.spend()
        inside, notices = _dates_inside(event, semester)
        if not inside:
            skips.append(skipped("outside_semester", event.row, event.line, event.facts.name,
                                 date=event.first_date.isoformat(), first=semester.start_monday.isoformat(),
                                 last=semester.last_day.isoformat()))
            continue
        meetings.append(TimedMeetings(event.row, event.line, event.facts, event.start.time().replace(tzinfo=None),
                                      event.end.time().replace(tzinfo=None), tuple(inside), tuple(notices)))
    return meetings, skips


def _dates_inside(event: IcsEvent, semester: Semester) -> tuple[list[date], list[ImportNotice]]:
    first, last = semester.start_monday, semester.last_day
    if event.rule is None:
        wanted = {event.first_date} | event.added
        outside = 0
    else:
        wanted = set(_rule_dates(event, first, last)) | event.added
        outside = _count_outside(event, first, last)
    wanted -= event.excluded
    inside = sorted(day for day in wanted if first <= day <= last)
    outside += sum(1 for day in wanted if not first <= day <= last)
    notices: list[ImportNotice] = []
    if event.rule is not None and event.rule.endless and inside:
        notices.append(RepeatClipped(event.row, event.facts.name, last))
    elif outside and inside:
        notices.append(DatesOutsideSemester(event.row, event.facts.name, outside, first, last))
    return inside, notices


def _count_outside(event: IcsEvent, first: date, last: date) -> int:
    """How many instances of a bounded rule fall outside first..last (0 for one too long to count)."""
    rule = event.rule
    if rule is None or rule.endless or not _ends_within(rule, event.first_date, _COUNTABLE_SPAN):
        return 0
    everything = set(_rule_dates(event, event.first_date, event.first_date + _COUNTABLE_SPAN)) - event.excluded
    return sum(1 for day in everything if not first <= day <= last)


def _ends_within(rule: WeeklyRule, start: date, span: timedelta) -> bool:
    """Whether a bounded rule's last instance comes at most ``span`` after ``start``."""
    if rule.count is not None:
        return math.ceil(rule.count / len(rule.weekdays)) * rule.interval * DAYS_PER_WEEK <= span.days
    until = rule.until.date() if isinstance(rule.until, datetime) else rule.until
    return until is not None and (until - start) <= span


def _rule_dates(event: IcsEvent, first: date, last: date) -> list[date]:
    """Instance dates of the event's weekly rule within first..last, jumping to ``first``'s week."""
    rule = event.rule
    assert rule is not None
    start = event.first_date
    origin = start - timedelta(days=start.weekday())  # the Monday of DTSTART's week
    period = DAYS_PER_WEEK * rule.interval
    skip_periods = max(0, (first - origin).days // period)
    before_start = sum(1 for weekday in rule.weekdays if weekday < start.weekday())
    produced = max(0, skip_periods * len(rule.weekdays) - before_start)
    dates: list[date] = []
    monday = origin + timedelta(days=skip_periods * period)
    while monday <= last:
        for weekday in rule.weekdays:
            day = monday + timedelta(days=weekday)
            if day < start:
                continue
            if (rule.count is not None and produced >= rule.count) or _after_until(event, day):
                return dates
            produced += 1
            if first <= day <= last:
                dates.append(day)
        monday += timedelta(days=period)
    return dates


def _after_until(event: IcsEvent, day: date) -> bool:
    until = event.rule.until if event.rule else None
    if until is None:
        return False
    if isinstance(until, datetime):
        instance = datetime.combine(day, event.start.timetz())
        bound = until if until.tzinfo is not None else until.replace(tzinfo=event.start.tzinfo)
        return instance > bound
    return day > until


SAMPLE_SPAN = timedelta(weeks=30)  # how far an event's dates are listed for semester inference


def sample_dates(event: IcsEvent) -> tuple[date, ...]:
    """The event's dates from its start up to SAMPLE_SPAN later (bounded work whatever the rule)."""
    if event.rule is None:
        return tuple(sorted({event.first_date, *event.added} - event.excluded))
    dates = set(_rule_dates(event, event.first_date, event.first_date + SAMPLE_SPAN)) | event.added
    return tuple(sorted(dates - event.excluded))
