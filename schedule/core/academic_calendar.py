"""The academic calendar, resolved: which dates suspend their courses and which run another day's.

Pure Python (no Django). A student's calendar days are holidays (a date or a range: courses
suspended), make-up days (调休: a date runs the courses of week N, weekday D, "按第 3 周周五上课")
and exam weeks (a date range, shown on the board). ``calendar_resolve`` turns the semester and
those days into one ``ResolvedCalendar``: for each affected date whether its own courses are
suspended, which (week, weekday) it runs instead, and what to label it. ``calendar_problems``
checks a set of days and names every problem with a code.

A make-up date runs the other day's courses *instead of* its own: its own courses (rare, as make-up
days are mostly weekends) are suspended like a holiday's. The day it runs is most often a holiday
itself, as schools announce 调休 ("10 月 11 日（周日）补 10 月 7 日的课"): the holiday's courses are
set aside there and run on the make-up date. Days outside the semester are ignored when
resolving (a semester moved after the days were entered), and refused when entered.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from enum import StrEnum

from schedule.core.time_model import DAYS_PER_WEEK, Semester


class DayKind(StrEnum):
    HOLIDAY = "holiday"
    MAKEUP = "makeup"
    EXAM = "exam"


class ProblemCode(StrEnum):
    EMPTY_NAME = "empty_name"
    RANGE_REVERSED = "range_reversed"
    OUTSIDE_SEMESTER = "date_outside_semester"
    HOLIDAY_OVERLAP = "holiday_overlap"
    MAKEUP_RANGE = "makeup_single_date"
    MAKEUP_WEEK_OUTSIDE = "makeup_week_outside"
    MAKEUP_DAY_INVALID = "makeup_day_invalid"
    MAKEUP_ON_HOLIDAY = "makeup_on_holiday"
    MAKEUP_TARGET_MAKEUP = "makeup_target_makeup"
    MAKEUP_DUPLICATE = "makeup_duplicate"


MAX_NAME_LENGTH = 60


@dataclass(frozen=True, slots=True)
class CalendarDay:
    """One entry of the calendar: a holiday or exam range, or a make-up date running (week, weekday)."""

    kind: DayKind
    name: str
    first: date
    last: date
    runs_week: int | None = None
    runs_day: int | None = None
    id: int | None = None  # the row's id, so problems can point at it

    def dates(self) -> Iterable[date]:
        """Every date of the entry, first to last."""
        for offset in range((self.last - self.first).days + 1):
            yield self.first + timedelta(days=offset)


@dataclass(frozen=True, slots=True)
class CalendarProblem:
    """Why a set of calendar days cannot stand; ``detail`` names the dates, weeks or entries."""

    code: ProblemCode
    name: str
    detail: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class DayLabel:
    """What a date's header says: the kind, the entry's name and, for a make-up day, what it runs."""

    kind: DayKind
    name: str
    runs_week: int | None = None
    runs_day: int | None = None


@dataclass(frozen=True, slots=True)
class ResolvedDay:
    """One date the calendar changes: suspended courses, another day's courses, or only a label."""

    on: date
    week: int
    day: int
    suspended: bool = False  # this date's own course meetings do not take place
    runs: tuple[int, int] | None = None  # (week, weekday) whose course meetings take place instead
    labels: tuple[DayLabel, ...] = ()


@dataclass(frozen=True, slots=True)
class ResolvedCalendar:
    """The semester with its calendar applied; dates it does not mention run as the timetable says."""

    semester: Semester
    follows: bool
    days: dict[date, ResolvedDay]

    def day(self, on: date) -> ResolvedDay | None:
        return self.days.get(on)

    def suspended_positions(self) -> frozenset[tuple[int, int]]:
        """Every (week, weekday) whose own course meetings are suspended."""
        return frozenset((d.week, d.day) for d in self.days.values() if d.suspended)

    def makeup_positions(self) -> dict[tuple[int, int], tuple[int, int]]:
        """(week, weekday) of each make-up date -> the (week, weekday) whose courses it runs."""
        return {(d.week, d.day): d.runs for d in self.days.values() if d.runs is not None}


class AcademicCalendarError(ValueError):
    """A set of calendar days with problems; ``problems`` lists them all, in entry order."""

    def __init__(self, problems: list[CalendarProblem]) -> None:
        super().__init__("; ".join(f"{p.code}: {p.name}" for p in problems))
        self.problems = problems


def calendar_problems(semester: Semester, days: Iterable[CalendarDay]) -> list[CalendarProblem]:
    """Return every problem of ``days`` against ``semester`` (empty when they can be resolved)."""
    entries = list(days)
    problems: list[CalendarProblem] = []
    for entry in entries:
        problems += _entry_problems(semester, entry)
    if problems:
        return problems  # overlaps and targets are only meaningful between well-formed entries
    holidays = sorted((e for e in entries if e.kind == DayKind.HOLIDAY), key=lambda e: (e.first, e.last))
    problems += _overlaps(holidays)
    problems += _makeup_problems(semester, entries, holidays)
    return problems


def calendar_check(semester: Semester, days: Iterable[CalendarDay]) -> None:
    """Raise AcademicCalendarError unless ``days`` have no problem."""
    problems = calendar_problems(semester, days)
    if problems:
        raise AcademicCalendarError(problems)


def _entry_problems(semester: Semester, entry: CalendarDay) -> list[CalendarProblem]:
    name = entry.name.strip()
    if not name:
        return [CalendarProblem(ProblemCode.EMPTY_NAME, name, {"id": entry.id})]
    if entry.first > entry.last:
        return [CalendarProblem(ProblemCode.RANGE_REVERSED, name,
                                {"first": entry.first.isoformat(), "last": entry.last.isoformat()})]
    problems = []
    if not (semester.contains(entry.first) and semester.contains(entry.last)):
        problems.append(CalendarProblem(ProblemCode.OUTSIDE_SEMESTER, name, {
            "first": entry.first.isoformat(), "last": entry.last.isoformat(),
            "semester_first": semester.start_monday.isoformat(), "semester_last": semester.last_day.isoformat()}))
    if entry.kind == DayKind.MAKEUP:
        problems += _makeup_shape(semester, entry, name)
    return problems


def _makeup_shape(semester: Semester, entry: CalendarDay, name: str) -> list[CalendarProblem]:
    problems = []
    if entry.first != entry.last:
        problems.append(CalendarProblem(ProblemCode.MAKEUP_RANGE, name, {"first": entry.first.isoformat()}))
    if entry.runs_week is None or not 1 <= entry.runs_week <= semester.weeks:
        problems.append(CalendarProblem(ProblemCode.MAKEUP_WEEK_OUTSIDE, name,
                                        {"week": entry.runs_week, "weeks": semester.weeks}))
    if entry.runs_day is None or not 1 <= entry.runs_day <= DAYS_PER_WEEK:
        problems.append(CalendarProblem(ProblemCode.MAKEUP_DAY_INVALID, name, {"day": entry.runs_day}))
    return problems


def _overlaps(holidays: list[CalendarDay]) -> list[CalendarProblem]:
    problems = []
    for earlier, later in zip(holidays, holidays[1:]):
        if later.first <= earlier.last:
            problems.append(CalendarProblem(ProblemCode.HOLIDAY_OVERLAP, later.name.strip(), {
                "other": earlier.name.strip(), "first": later.first.isoformat(), "other_last": earlier.last.isoformat()}))
    return problems


def _makeup_problems(semester: Semester, entries: list[CalendarDay],
                     holidays: list[CalendarDay]) -> list[CalendarProblem]:
    holiday_dates = {on for holiday in holidays for on in holiday.dates()}
    makeups = [e for e in entries if e.kind == DayKind.MAKEUP]
    makeup_dates = {e.first for e in makeups}
    problems = []
    seen: set[date] = set()
    for entry in makeups:
        name = entry.name.strip()
        assert entry.runs_week is not None and entry.runs_day is not None  # checked by _makeup_shape
        target = semester.date_of(entry.runs_week, entry.runs_day)
        if entry.first in seen:
            problems.append(CalendarProblem(ProblemCode.MAKEUP_DUPLICATE, name, {"date": entry.first.isoformat()}))
        seen.add(entry.first)
        if entry.first in holiday_dates:
            problems.append(CalendarProblem(ProblemCode.MAKEUP_ON_HOLIDAY, name, {"date": entry.first.isoformat()}))
        if target in makeup_dates:
            problems.append(CalendarProblem(ProblemCode.MAKEUP_TARGET_MAKEUP, name, {
                "week": entry.runs_week, "day": entry.runs_day, "date": target.isoformat()}))
    return problems


def calendar_resolve(semester: Semester, days: Iterable[CalendarDay], *, follows: bool = True) -> ResolvedCalendar:
    """Apply ``days`` to ``semester``; with ``follows`` off, the timetable runs as imported.

    Entries are checked when entered (``calendar_check``); resolving is tolerant, because the
    semester may move after they were entered: ranges are cut to the semester, and a make-up day
    whose target left the semester or is now a make-up date itself suspends its own courses but
    runs none (its label still says what was meant). A target on a holiday runs.
    """
    if not follows:
        return ResolvedCalendar(semester, False, {})
    entries = [d for d in days if d.first <= d.last]
    changes: dict[date, _Change] = {}
    for entry in sorted(entries, key=lambda e: (e.first, list(DayKind).index(e.kind))):
        for on in entry.dates():
            if semester.contains(on):
                changes.setdefault(on, _Change()).add(entry)
    makeup_dates = {on for on, change in changes.items() if change.runs is not None}
    resolved = {}
    for on, change in changes.items():
        week, day = semester.week_day_of(on)
        runs = change.runs if change.runs is not None and _runnable(semester, change.runs, makeup_dates) else None
        resolved[on] = ResolvedDay(on, week, day, change.suspended, runs, tuple(change.labels))
    return ResolvedCalendar(semester, True, resolved)


@dataclass(slots=True)
class _Change:
    suspended: bool = False
    runs: tuple[int, int] | None = None
    labels: list[DayLabel] = field(default_factory=list)

    def add(self, entry: CalendarDay) -> None:
        self.labels.append(DayLabel(entry.kind, entry.name.strip(), entry.runs_week, entry.runs_day))
        if entry.kind != DayKind.EXAM:
            self.suspended = True
        if entry.kind == DayKind.MAKEUP and entry.runs_week is not None and entry.runs_day is not None:
            self.runs = (entry.runs_week, entry.runs_day)


def _runnable(semester: Semester, runs: tuple[int, int], blocked: set[date]) -> bool:
    week, day = runs
    if not (1 <= week <= semester.weeks and 1 <= day <= DAYS_PER_WEEK):
        return False
    return semester.date_of(week, day) not in blocked


def week_range(semester: Semester, first_week: int, last_week: int) -> tuple[date, date]:
    """The Monday of ``first_week`` to the Sunday of ``last_week`` (exam weeks entered by number)."""
    return semester.monday_of(first_week), semester.date_of(last_week, DAYS_PER_WEEK)
