"""What an import produces: parsed courses, their weekly occurrences, and the problems found.

An import is all-or-nothing: if ``ParseReport.problems`` is not empty the caller writes nothing.
Every problem has a stable ``code`` (the Django side translates by code, using ``params``), an
English ``message``, the 1-based ``row`` it concerns (CSV: the line, header = row 1; JSON: the
index in ``courses``; iCalendar: the VEVENT's position) and the ``field`` if one is to blame.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, time
from typing import Any

from schedule.core.importers.notices import ImportNotice
from schedule.core.time_model import DAY_NAMES, SlotKey
from schedule.core.weekspec import format_weeks

# English templates of the problems the importers raise themselves, keyed by code. Week-spec
# problems (empty_weeks, invalid_weeks, reversed_weeks, no_weeks, week_out_of_range) take their
# message from schedule.core.weekspec.
PROBLEM_MESSAGES: Mapping[str, str] = {
    "file_too_large": "The file is {size} bytes; imports are limited to {limit} bytes.",
    "empty_file": "The file is empty.",
    "undecodable": "The file is not readable text; save it as UTF-8 (or GBK) and try again.",
    "unknown_format": "Unknown timetable format {format!r}; use csv, ics or json.",
    "no_courses": "The file contains no courses.",
    "missing_column": 'The header has no "{header}" column ({column}).',
    "missing_value": "{field} is empty.",
    "too_long": "{field} is longer than {limit} characters.",
    "invalid_value": "{field} has an unreadable value {value!r}.",
    "invalid_day": "{value!r} is not a day of the week; use 1-7 (1 = Monday) or 周一..周日.",
    "invalid_section": "{field} {value!r} is not a section number.",
    "unknown_section": "Section {value} is outside the section template (sections 1..{count}).",
    "reversed_sections": "The course starts at section {start} but ends at section {end}.",
    "clash": "Clashes with row {other_row} ({other_name}) on {day_name}, {sections}, "
    "weeks {weeks}.",
    "clash_with_existing": "{name} clashes with {occupant} on {day_name}, {sections}, "
    "weeks {weeks}.",
    "invalid_json": "The file is not valid JSON: {error}.",
    "json_too_deep": "The file nests lists and objects too deeply to be a timetable.",
    "unknown_json_format": 'Expected a JSON object with "format": "{expected}" and a '
    '"courses" list.',
    "invalid_ics": "The file is not a valid iCalendar file: {error}.",
    "no_events": "The calendar contains no events.",
    "all_day_event": "{name} is an all-day event; only events at section times can be imported.",
    "missing_end": "{name} has neither an end (DTEND) nor a duration.",
    "spans_days": "{name} runs past midnight; an event must start and end on the same day.",
    "not_aligned": "{name} ({start}-{end}) does not align with sections: it must start and end "
    "within {tolerance} minutes of a section's start and end.",
    "unsupported_recurrence": "{name} repeats in a way that cannot be imported ({rule}); only "
    "weekly repetition is supported.",
    "outside_semester": "{name} has a date outside the semester ({first} .. {last}): {date}.",
    "invalid_time": "{field} {value!r} is not a time of day; write it as 8:00 or 14:30.",
    "reversed_times": "The course starts at {start} but ends at {end}.",
    "grid_cell_unreadable": "The cell under {column} cannot be read as courses: {value!r}; write it as "
    "\"course teacher(1-16 room)\".",
    "grid_export_unreadable": "This looks like a grid timetable exported from the academic affairs system, "
    "but none of its cells can be read; export it as WakeUp CSV or iCalendar (.ics) instead.",
    "unknown_csv_shape": "This CSV is not a timetable SmartMate can read. It reads WakeUp CSV "
    "(课程名称,星期,开始节数,结束节数,老师,地点,周数, or 开始周,结束周,单双周 instead of 周数), "
    "clock-time CSV (课程名,星期几,开始时间,结束时间) and grid exports with 星期一…星期日 columns.",
}


# English templates of why an event of a file was left out of an import that goes ahead without it.
SKIP_MESSAGES: Mapping[str, str] = {
    "no_name": "An event has no name (SUMMARY).",
    "all_day": "{name} is an all-day event ({date}); all-day events are holidays or notes, not classes.",
    "damaged": "{name} has an unreadable {field} ({value!r}).",
    "missing_end": "{name} has neither an end (DTEND) nor a duration.",
    "spans_days": "{name} runs past midnight or ends before it starts.",
    "not_weekly": "{name} repeats in a way other than weekly ({rule}).",
    "outside_semester": "{name} ({date}) has no meeting inside the semester ({first} .. {last}).",
    "outside_sections": "{name} ({start}-{end}) lies outside every section of the day.",
}


@dataclass(frozen=True, slots=True)
class SkippedEvent:
    """An event of the file that an import leaves out, and why; the import may go ahead without it."""

    code: str
    row: int
    line: int | None
    name: str
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict, hash=False, compare=False)

    @property
    def message(self) -> str:
        return SKIP_MESSAGES[self.code].format(name=self.name, **self.params)


def skipped(code: str, row: int, line: int | None, name: str, **params: Any) -> SkippedEvent:
    """Return the skip record for a catalogued code (the message is checked to fill in now)."""
    found = SkippedEvent(code, row, line, name or "?", params)
    found.message  # noqa: B018 - a missing parameter fails here, not when a page words it
    return found


@dataclass(frozen=True, slots=True)
class FrameProposal:
    """The semester and section times a file implies where they differ from the student's.

    ``start_monday``/``weeks`` are None when the student's semester fits; ``sections`` is None when
    the student's section times fit. ``section_uses`` counts the file's meetings in each proposed
    section (0: a section of the student's day the file does not use, kept). A file whose times change
    on a date (winter hours) also proposes ``later_sections`` from ``later_from`` on.
    """

    start_monday: date | None = None
    weeks: int | None = None
    sections: tuple[tuple[time, time], ...] | None = None
    section_uses: tuple[int, ...] = ()
    # The school's second grid (winter or summer hours), in force from ``later_from`` on.
    later_sections: tuple[tuple[time, time], ...] | None = None
    later_section_uses: tuple[int, ...] = ()
    later_from: date | None = None

    @property
    def changes_anything(self) -> bool:
        return self.start_monday is not None or self.sections is not None


@dataclass(frozen=True, slots=True)
class ImportProblem:
    """One reason the import cannot be written, with where it was found."""

    row: int | None
    field: str | None
    code: str
    message: str
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict, hash=False)  # not the ``field`` above


def problem(
    code: str, row: int | None, field_name: str | None = None, **params: Any
) -> ImportProblem:
    """Return the problem for a catalogued code, with its English message filled in."""
    message = PROBLEM_MESSAGES[code].format(field=field_name, **params)
    return ImportProblem(row, field_name, code, message, params)


class ImportRejected(Exception):
    """Raised inside the importers when the whole file is unusable; carries the problems."""

    def __init__(self, *problems: ImportProblem) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class ImportedCourse:
    """One course arrangement: a name, a weekday, a span of sections and the weeks it meets."""

    row: int
    name: str
    day: int
    start_section: int
    end_section: int
    weeks: tuple[int, ...]
    teacher: str = ""
    location: str = ""
    is_filler: bool = False
    note: str = ""
    # The course's own times when they are not its sections' (WakeUp lets a course keep its own times):
    # it holds the sections it overlaps and shows at these times.
    clock: tuple[time, time] | None = None
    # Meetings at the same time as another course's (weeks where the file has both): shown beside that
    # course, holding no sections.
    beside: bool = False
    # What the importer adjusted to read this arrangement (snapped times, clipped weeks...); not
    # part of the course's identity.
    notices: tuple[ImportNotice, ...] = dataclasses.field(default=(), compare=False, hash=False)

    @property
    def weeks_text(self) -> str:
        """Return the weeks in compact notation, e.g. '1-15单'."""
        return format_weeks(self.weeks)

    @property
    def day_name(self) -> str:
        """Return the English name of the weekday."""
        return DAY_NAMES[self.day - 1]

    @property
    def sections(self) -> range:
        """Return the sections the course covers on its day."""
        return range(self.start_section, self.end_section + 1)

    def occurrences(self) -> tuple[Occurrence, ...]:
        """Return one occurrence per week, in week order."""
        return tuple(Occurrence(self, week) for week in self.weeks)

    def slot_keys(self) -> tuple[SlotKey, ...]:
        """Return every atomic slot the course holds, in slot order."""
        return tuple(key for occurrence in self.occurrences() for key in occurrence.slot_keys())


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One meeting of a course: the course in one week (one contiguous block on one day)."""

    course: ImportedCourse
    week: int

    @property
    def day(self) -> int:
        """Return the weekday of the meeting."""
        return self.course.day

    def slot_keys(self) -> tuple[SlotKey, ...]:
        """Return the atomic slots this meeting holds, first section first (none when shown beside another)."""
        if self.course.beside:
            return ()
        return tuple(SlotKey(self.week, self.course.day, s) for s in self.course.sections)

    def sort_key(self) -> tuple[int, int, int, int]:
        """Order meetings by time, then by source row."""
        return (self.week, self.course.day, self.course.start_section, self.course.row)


@dataclass(frozen=True, slots=True)
class ParseReport:
    """The outcome of reading one file: the courses and, if any, the problems that block writing."""

    courses: tuple[ImportedCourse, ...] = ()
    problems: tuple[ImportProblem, ...] = ()
    skipped: tuple[SkippedEvent, ...] = ()
    proposal: FrameProposal | None = None
    # What was repaired to read the file at all: (code, first lines, count).
    repairs: tuple[tuple[str, tuple[int, ...], int], ...] = ()

    @property
    def notices(self) -> tuple[ImportNotice, ...]:
        """Return every adjustment made while reading, once each, by row."""
        seen = {notice: None for course in self.courses for notice in course.notices}
        return tuple(sorted(seen, key=lambda notice: notice.row))

    @property
    def ok(self) -> bool:
        """Tell whether the import may be written (no problems)."""
        return not self.problems

    def occurrences(self) -> tuple[Occurrence, ...]:
        """Return every meeting of every course, in time order."""
        meetings = [o for course in self.courses for o in course.occurrences()]
        return tuple(sorted(meetings, key=Occurrence.sort_key))

    def slot_keys(self) -> tuple[SlotKey, ...]:
        """Return every atomic slot the import would hold, in slot order."""
        return tuple(sorted(key for course in self.courses for key in course.slot_keys()))
