"""A past semester, frozen: what it held, as typed records, and the rows that bring it back.

A semester that has ended never changes again, so it is kept as one versioned JSON document: the
readable part (courses, every block with its date, plans, exams, the school calendar, notes that did
not come along) answers the read-only pages and the assistant without touching the live tables, and
``restore`` keeps the rows exactly as they were, so undoing the start of the next semester puts every
row back under its own id. Pure: no Django; the schedule app adapts rows to these records.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

ARCHIVE_FORMAT = "smartmate-semester"
ARCHIVE_VERSION = 1

AUTUMN, SPRING = "autumn", "spring"
# A school-calendar range this long is a vacation (寒假, 暑假), not a holiday inside the term.
VACATION_DAYS = 14
# The next term starts at least this long after the last one ends (an exam week, a vacation) ...
SHORTEST_BREAK = timedelta(days=14)
# ... on the first Monday from one of these days: spring terms in late February, autumn terms in September.
TERM_ANCHORS = ((2, 24), (9, 1))


class ArchiveFormatError(ValueError):
    """A stored document this code cannot read (another format, a newer version)."""


@functools.cache
def _fields_of(cls: type) -> tuple[tuple[dataclasses.Field[Any], Any], ...]:
    """A record's fields with their resolved types (resolving is slow: once per class)."""
    hints = typing.get_type_hints(cls)
    return tuple((record_field, hints[record_field.name]) for record_field in dataclasses.fields(cls))


def _from_json(cls: type, data: dict[str, Any]) -> Any:
    """Build a record from its JSON: dates from ISO text, nested records from their dicts."""
    values: dict[str, Any] = {}
    for record_field, hint in _fields_of(cls):
        value = data.get(record_field.name)
        if value is None:
            values[record_field.name] = None
        elif hint in (date, date | None):
            values[record_field.name] = date.fromisoformat(value)
        elif typing.get_origin(hint) is tuple and dataclasses.is_dataclass(typing.get_args(hint)[0]):
            values[record_field.name] = tuple(_from_json(typing.get_args(hint)[0], item) for item in value)
        elif typing.get_origin(hint) is tuple:
            values[record_field.name] = tuple(value)
        else:
            values[record_field.name] = value
    return cls(**values)


def record_to_json(record: Any) -> dict[str, Any]:
    """The record as JSON types: dates as ISO text, tuples as lists."""
    def plain(value: Any) -> Any:
        if isinstance(value, date):
            return value.isoformat()
        if dataclasses.is_dataclass(value):
            return record_to_json(value)
        if isinstance(value, (tuple, list)):
            return [plain(item) for item in value]
        return value

    return {record_field.name: plain(getattr(record, record_field.name)) for record_field in dataclasses.fields(record)}


@dataclass(frozen=True)
class ArchivedCourse:
    name: str
    teacher: str
    location: str
    is_filler: bool


@dataclass(frozen=True)
class ArchivedEvent:
    """One block on the board: a course meeting, a study block (own or inside a filler course), a note, an own event.

    ``status`` is a study block's outcome (``done``, ``missed``, ``placed``), empty for the rest;
    ``plan`` names its study plan; ``starts_at``/``ends_at`` are ISO instants with their offset.
    """

    kind: str
    title: str
    week: int
    day: int
    first: int
    last: int
    on: date
    starts_at: str
    ends_at: str
    location: str = ""
    teacher: str = ""
    course: str = ""
    plan: str = ""
    status: str = ""
    embedded: bool = False


@dataclass(frozen=True)
class ArchivedItem:
    order: int
    content: str
    sections: int
    status: str


@dataclass(frozen=True)
class ArchivedPlan:
    name: str
    strategy: str
    first_day: date
    last_day: date
    items: tuple[ArchivedItem, ...] = ()


@dataclass(frozen=True)
class ArchivedExam:
    title: str
    on: date
    start_time: str | None = None
    end_time: str | None = None
    place: str = ""
    course: str = ""


@dataclass(frozen=True)
class ArchivedCalendarDay:
    kind: str
    name: str
    first_day: date
    last_day: date
    runs_week: int | None = None
    runs_day: int | None = None


@dataclass(frozen=True)
class ArchivedNote:
    """A quick note left behind (unfinished, not brought along)."""

    title: str
    quadrant: int
    deadline: str | None = None


@dataclass(frozen=True)
class SemesterArchive:
    """Everything one past semester held; ``restore`` is the live rows as they were (opaque here)."""

    season: str
    year: int
    first_monday: date
    weeks: int
    time_zone: str
    section_times: tuple[tuple[str, str], ...]
    courses: tuple[ArchivedCourse, ...] = ()
    events: tuple[ArchivedEvent, ...] = ()
    plans: tuple[ArchivedPlan, ...] = ()
    exams: tuple[ArchivedExam, ...] = ()
    calendar_days: tuple[ArchivedCalendarDay, ...] = ()
    notes: tuple[ArchivedNote, ...] = ()
    rules: dict[str, Any] = field(default_factory=dict)
    restore: tuple[dict[str, Any], ...] = ()

    @property
    def last_day(self) -> date:
        return self.first_monday + timedelta(weeks=self.weeks, days=-1)

    def to_json(self) -> dict[str, Any]:
        document = record_to_json(self)
        document["section_times"] = [list(pair) for pair in self.section_times]
        return {"format": ARCHIVE_FORMAT, "version": ARCHIVE_VERSION, **document}

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> SemesterArchive:
        if document.get("format") != ARCHIVE_FORMAT or document.get("version") != ARCHIVE_VERSION:
            raise ArchiveFormatError(f"not a {ARCHIVE_FORMAT} v{ARCHIVE_VERSION} document: "
                                     f"{document.get('format')!r} v{document.get('version')!r}")
        archive: SemesterArchive = _from_json(cls, document)
        return dataclasses.replace(archive, section_times=tuple(tuple(pair) for pair in document["section_times"]),
                                   rules=dict(document.get("rules") or {}))


def season_of(first_monday: date) -> tuple[int, str]:
    """The academic year's calendar year and season a semester starting on ``first_monday`` belongs to.

    An autumn term starts in August or September (a January start is a late autumn term's tail);
    everything from February to July is a spring term.
    """
    if first_monday.month >= 8:
        return first_monday.year, AUTUMN
    if first_monday.month == 1:
        return first_monday.year - 1, AUTUMN
    return first_monday.year, SPRING


def next_semester_start(previous_last_day: date, ranges: typing.Iterable[tuple[date, date]] = ()) -> date:
    """Guess the Monday of week 1 of the term after one ending on ``previous_last_day``.

    A vacation on the school calendar (a range of at least two weeks reaching past the term's end)
    ends the day before the next term; without one, the usual next start (late February, early
    September) after a break.
    """
    vacations = [last for first, last in ranges
                 if (last - first).days + 1 >= VACATION_DAYS and last > previous_last_day]
    if vacations:
        return _monday_on_or_after(min(vacations) + timedelta(days=1))
    earliest = previous_last_day + SHORTEST_BREAK
    anchors = (date(year, month, day) for year in (earliest.year, earliest.year + 1) for month, day in TERM_ANCHORS)
    return min(_monday_on_or_after(anchor) for anchor in anchors if _monday_on_or_after(anchor) > earliest)


def _monday_on_or_after(day: date) -> date:
    return day + timedelta(days=(7 - day.weekday()) % 7)


@dataclass(frozen=True)
class BlockCount:
    """Study blocks of one plan or course: how many were done, missed, still placed."""

    name: str
    done: int = 0
    missed: int = 0
    placed: int = 0

    @property
    def total(self) -> int:
        return self.done + self.missed + self.placed


@dataclass(frozen=True)
class WeekLoad:
    week: int
    course_sections: int
    study_sections: int
    done_blocks: int
    missed_blocks: int


@dataclass(frozen=True)
class Workload:
    """A past semester's figures: each week's sections of courses and study, and outcomes per plan."""

    weeks: tuple[WeekLoad, ...]
    plans: tuple[BlockCount, ...]
    course_sections: int
    study_sections: int
    done_blocks: int
    missed_blocks: int


def _sections(event: ArchivedEvent) -> int:
    return event.last - event.first + 1


def workload_of(archive: SemesterArchive) -> Workload:
    """Sum the archive's blocks by week and by plan (ordered by week, then plan name)."""
    weeks = []
    for week in range(1, archive.weeks + 1):
        held = [event for event in archive.events if event.week == week]
        weeks.append(WeekLoad(
            week=week,
            course_sections=sum(_sections(e) for e in held if e.kind == "course"),
            study_sections=sum(_sections(e) for e in held if e.kind == "task_item"),
            done_blocks=sum(1 for e in held if e.kind == "task_item" and e.status == "done"),
            missed_blocks=sum(1 for e in held if e.kind == "task_item" and e.status == "missed")))
    return Workload(
        weeks=tuple(weeks), plans=study_blocks_by_plan(archive),
        course_sections=sum(w.course_sections for w in weeks), study_sections=sum(w.study_sections for w in weeks),
        done_blocks=sum(w.done_blocks for w in weeks), missed_blocks=sum(w.missed_blocks for w in weeks))


def study_blocks_by_plan(archive: SemesterArchive, keyword: str = "") -> tuple[BlockCount, ...]:
    """Count study blocks per plan, keeping plans whose name, block titles or host course contain ``keyword``."""
    wanted = keyword.strip().casefold()
    outcomes: dict[str, Counter[str]] = {}
    for event in archive.events:
        if event.kind != "task_item":
            continue
        name = event.plan or event.title
        if wanted and not any(wanted in text.casefold() for text in (name, event.title, event.course)):
            continue
        outcomes.setdefault(name, Counter())[event.status or "placed"] += 1
    return tuple(BlockCount(name=name, done=counts["done"], missed=counts["missed"], placed=counts["placed"])
                 for name, counts in sorted(outcomes.items()))


def week_events(archive: SemesterArchive, week: int) -> tuple[ArchivedEvent, ...]:
    """The blocks of one week, by day and first section."""
    return tuple(sorted((e for e in archive.events if e.week == week), key=lambda e: (e.day, e.first, e.kind)))
