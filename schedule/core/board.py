"""The board: an immutable picture of a student's schedule over a window of days, for editing.

A ``Board`` holds what sits on each day of its window (courses, filler courses that may host a
study block, the student's own events, study blocks, quick-note blocks), the items still waiting
for a place, the task classes' rules, and the clock the past is measured by. It is the one input
of every "may this block go here?" question: the edits in ``board_edits`` return a new board or
raise one coded ``board_errors.BoardError``; ``board_suggest`` names places that would work;
``board_codec`` turns a board into JSON and back.

Identity. Each entry has a board id (``Entry.id``), the only id a caller outside the database
sees (the assistant's model reads it); ``event_id`` / ``item_id`` / ``task_id`` say what it is in
the database. ``origin`` is where an entry sits in the database (None: a suggestion or a pending
item, nothing written yet); ``place`` is where it sits on this board (None: pending). So the
status is derived: pending (no place), suggested (a place, no origin), existing (an origin;
moved when place differs from origin).

Locks are derived too: courses and the student's own events never move, and nothing already in
the database that has begun (by the board's clock) moves either.

Pure: no Django, no clock of its own (``clock_at`` turns a moment into a ``Clock``), no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from enum import StrEnum
from types import MappingProxyType
from typing import Any, cast

from schedule.core.student_rules import StudentRules
from schedule.core.time_model import SectionTemplate, Semester


class Kind(StrEnum):
    """What an entry is; the values are the database's event kinds."""

    COURSE = "course"
    CUSTOM = "custom"
    STUDY = "task_item"
    NOTE = "quick_note"


FIXED_KINDS = frozenset({Kind.COURSE, Kind.CUSTOM})


class InvalidBoardError(ValueError):
    """The data a board was built from is inconsistent: a bug or a corrupt document, not a refusal."""

    def __init__(self, problem: str, **detail: Any) -> None:
        super().__init__(problem, detail)
        self.problem = problem
        self.detail = detail


@dataclass(frozen=True, slots=True)
class Spot:
    """A requested start: a day and the section a block begins in."""

    day: date
    start: int


@dataclass(frozen=True, slots=True)
class Position:
    """Where an entry sits: a day, sections ``start..end``, and the filler course hosting it, if any."""

    day: date
    start: int
    end: int
    host: int | None = None

    @property
    def length(self) -> int:
        return self.end - self.start + 1

    @property
    def spot(self) -> Spot:
        return Spot(self.day, self.start)

    def overlaps(self, day: date, start: int, end: int) -> bool:
        return self.day == day and self.start <= end and start <= self.end

    def contains(self, start: int, end: int) -> bool:
        return self.start <= start and end <= self.end


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing on the board (placed or pending); see the module docstring for ids and status."""

    id: int
    kind: Kind
    length: int
    name: str = ""
    place: Position | None = None
    origin: Position | None = None
    filler: bool = False  # a filler course: one study block may sit in each of its sections
    class_id: int | None = None
    order: int | None = None
    event_id: int | None = None
    item_id: int | None = None
    task_id: int | None = None
    deadline: datetime | None = None
    pinned: bool = False  # the student pinned this block: no edit moves or removes it

    @property
    def placed(self) -> bool:
        return self.place is not None

    @property
    def in_database(self) -> bool:
        return self.origin is not None

    @property
    def moved(self) -> bool:
        """In the database, and somewhere else on this board."""
        return self.origin is not None and self.place != self.origin

    @property
    def suggested(self) -> bool:
        return self.origin is None and self.place is not None

    @property
    def status(self) -> str:
        """``pending``, ``suggested`` or ``existing`` (see ``moved`` for an existing entry moved)."""
        if self.place is None:
            return "pending"
        return "suggested" if self.origin is None else "existing"

    @property
    def ordered(self) -> bool:
        """A study block with a class and an item order, so class order applies to it."""
        return self.kind is Kind.STUDY and self.class_id is not None and self.order is not None

    # Narrowing accessors: for code that already knows the entry's shape (an entry from ``on_day``
    # is placed, a class member is ordered). They return the field without its None, and raise
    # InvalidBoardError when the knowledge was wrong, which is a bug, never a student's refusal.

    @property
    def at(self) -> Position:
        """Where a placed entry sits."""
        if self.place is None:
            raise InvalidBoardError("not_placed", entry=self.id)
        return self.place

    @property
    def study_class(self) -> int:
        """The task class of a study block that has one."""
        if self.class_id is None:
            raise InvalidBoardError("no_class", entry=self.id)
        return self.class_id

    @property
    def study_order(self) -> int:
        """The item order of an ordered study block (see ``ordered``)."""
        if self.order is None:
            raise InvalidBoardError("no_order", entry=self.id)
        return self.order


@dataclass(frozen=True, slots=True)
class DateWindow:
    """The days ``first..last``, both included."""

    first: date
    last: date

    def __contains__(self, day: object) -> bool:
        return isinstance(day, date) and self.first <= day <= self.last

    def days(self) -> tuple[date, ...]:
        return tuple(self.first + timedelta(days=n) for n in range((self.last - self.first).days + 1))


@dataclass(frozen=True, slots=True)
class ClassRules:
    """What a task class allows its blocks: its dates, excluded weekdays and pairs, filler courses."""

    id: int
    window: DateWindow
    name: str = ""
    strategy: str = "steady"
    excluded_days: frozenset[int] = frozenset()  # ISO weekdays, 1 = Monday
    excluded_pairs: frozenset[int] = frozenset()  # pair k = sections 2k-1 and 2k
    allow_filler: bool = True


@dataclass(frozen=True, slots=True)
class Clock:
    """Today, and how many of today's sections have begun (sections 1..started are the past)."""

    today: date
    started: int = 0

    def has_begun(self, day: date, start: int) -> bool:
        return day < self.today or (day == self.today and start <= self.started)


@dataclass(frozen=True, slots=True)
class Calendar:
    """The semester and the section template: weeks and days to dates, sections to times."""

    semester: Semester
    template: SectionTemplate

    @property
    def sections(self) -> int:
        return self.template.count

    def week_day(self, day: date) -> tuple[int, int]:
        """Return (week, weekday 1..7) of a date inside the semester."""
        return self.semester.week_day_of(day)

    def date_of(self, week: int, weekday: int) -> date:
        return self.semester.date_of(week, weekday)


def clock_at(calendar: Calendar, now: datetime) -> Clock:
    """Return the clock at an aware moment: a section counts as begun from its first minute."""
    local = now.astimezone(calendar.semester.zone)
    wall = local.time().replace(tzinfo=None)
    started = sum(1 for section in calendar.template.in_force(local.date()).sections if section.start <= wall)
    return Clock(today=local.date(), started=started)


@dataclass(frozen=True, repr=False)
class Board:
    """Everything on a window of days; build it once, then edit it with ``board_edits``."""

    calendar: Calendar
    window: DateWindow
    clock: Clock
    entries: tuple[Entry, ...] = ()
    classes: tuple[ClassRules, ...] = ()
    planned_class_ids: tuple[int, ...] = ()  # the classes being planned: their pending items are loaded
    next_id: int = 0  # the id add_pending gives next; 0 means one past the highest id
    rules: StudentRules = StudentRules()  # the student's own rules (cap, buffer, protected times, latest)
    # Indexes, derived from the fields above (and carried from board to board by the edits).
    _by_id: Mapping[int, Entry] = field(init=False, repr=False, compare=False)
    _by_day: Mapping[date, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    _by_class: Mapping[int, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    _rules: Mapping[int, ClassRules] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        entries = tuple(sorted(self.entries, key=lambda e: e.id))
        object.__setattr__(self, "entries", entries)
        object.__setattr__(self, "classes", tuple(sorted(self.classes, key=lambda c: c.id)))
        object.__setattr__(self, "planned_class_ids", tuple(self.planned_class_ids))
        highest = entries[-1].id if entries else 0
        object.__setattr__(self, "next_id", self.next_id or highest + 1)
        by_id = {e.id: e for e in entries}
        object.__setattr__(self, "_by_id", by_id)
        object.__setattr__(self, "_by_day", _day_index(by_id, entries))
        object.__setattr__(self, "_by_class", _class_index(entries))
        object.__setattr__(self, "_rules", MappingProxyType({c.id: c for c in self.classes}))
        _validate(self)

    def __repr__(self) -> str:
        return (f"Board({self.window.first}..{self.window.last}, today={self.clock.today}/{self.clock.started}, "
                f"entries={len(self.entries)}, classes={[c.id for c in self.classes]})")

    # --- Reading -------------------------------------------------------------------------------

    def get(self, entry_id: object) -> Entry | None:
        """The entry with this id; None for anything else (an id from outside may be any value)."""
        try:  # any hashable equal to an id finds its entry (3.0 is 3), as a dict lookup does
            return self._by_id.get(cast(int, entry_id))
        except TypeError:  # unhashable
            return None

    def find(self, *, item_id: int | None = None, task_id: int | None = None,
             event_id: int | None = None) -> Entry | None:
        """The entry of a database row: a study item, a quick-note task, or an event (first given wins)."""
        key, value = next(((k, v) for k, v in (("item_id", item_id), ("task_id", task_id),
                                                ("event_id", event_id)) if v is not None), ("", None))
        if value is None:
            return None
        return next((e for e in self.entries if getattr(e, key) == value), None)

    def rules_of(self, entry: Entry) -> ClassRules | None:
        """The rules of the entry's class, for study blocks only."""
        if entry.kind is not Kind.STUDY or entry.class_id is None:
            return None
        return self._rules.get(entry.class_id)

    def place_of(self, entry_id: int) -> Position | None:
        """Where the entry with this id sits; None when it is pending or not on this board."""
        found = self._by_id.get(entry_id)
        return found.place if found is not None else None

    def class_rules(self, class_id: int) -> ClassRules | None:
        return self._rules.get(class_id)

    def on_day(self, day: date) -> tuple[Entry, ...]:
        """The day's placed entries by first section, a host before its guests."""
        return tuple(self._by_id[i] for i in self._by_day.get(day, ()))

    def overlapping(self, day: date, start: int, end: int, ignore: Iterable[int] = ()) -> list[Entry]:
        """The day's entries holding any of sections ``start..end``, hosts before guests."""
        skip = set(ignore)
        return [e for e in self.on_day(day)
                if e.id not in skip and e.at.start <= end and start <= e.at.end]

    def class_members(self, class_id: int) -> tuple[Entry, ...]:
        """The study blocks of a class (placed or pending) in item order."""
        return tuple(self._by_id[i] for i in self._by_class.get(class_id, ()))

    def guests_of(self, host_id: int) -> tuple[Entry, ...]:
        host = self._by_id.get(host_id)
        if host is None or host.place is None:
            return ()
        return tuple(e for e in self.on_day(host.place.day) if e.at.host == host_id)

    def pending(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.place is None)

    def days(self) -> tuple[date, ...]:
        return self.window.days()

    def is_locked(self, entry: Entry) -> bool:
        """Courses and the student's own events, and anything in the database that has begun."""
        if entry.kind in FIXED_KINDS or entry.filler:
            return True
        return entry.origin is not None and self.clock.has_begun(entry.origin.day, entry.origin.start)

    # --- Deriving (used by the edits; the board itself never changes) ---------------------------

    def with_entries_unchecked(self, changed: Mapping[int, Entry], *, next_id: int | None = None) -> Board:
        """Return a board with these entries replaced or added, keeping the indexes up to date.

        Checks no rule: only the edits (``board_edits``), which check every rule first, and
        ``add_pending`` call it. Carrying the indexes over is what makes an edit cost O(changes)
        in Python rather than rebuilding the whole board.
        """
        by_id = dict(self._by_id)
        days: set[date] = set()
        for entry_id, entry in changed.items():
            old = by_id.get(entry_id)
            if old is not None and old.place is not None:
                days.add(old.place.day)
            if entry.place is not None:
                days.add(entry.place.day)
            by_id[entry_id] = entry
        new_ids = [i for i in changed if i not in self._by_id]
        if new_ids and min(new_ids) < max(self._by_id, default=0):
            by_id = dict(sorted(by_id.items()))
        by_day = dict(self._by_day)
        for day in days:
            by_day[day] = _day_ids(by_id, {*by_day.get(day, ()), *changed}, day)
            if not by_day[day]:
                del by_day[day]
        board = object.__new__(Board)
        values = {"calendar": self.calendar, "window": self.window, "clock": self.clock,
                  "entries": tuple(by_id.values()), "classes": self.classes,
                  "planned_class_ids": self.planned_class_ids, "rules": self.rules,
                  "next_id": max(next_id or self.next_id, max(changed, default=0) + 1),
                  "_by_id": by_id, "_by_day": by_day,
                  "_by_class": _class_index(by_id.values()) if new_ids else self._by_class,
                  "_rules": self._rules}
        for name, value in values.items():
            object.__setattr__(board, name, value)
        return board


def _sort_key(entry: Entry) -> tuple[int, bool, int]:
    return entry.at.start, entry.at.host is not None, entry.id


def _day_ids(by_id: Mapping[int, Entry], candidates: Iterable[int], day: date) -> tuple[int, ...]:
    here = [e for e in (by_id[i] for i in candidates) if e.place is not None and e.place.day == day]
    return tuple(e.id for e in sorted(here, key=_sort_key))


def _day_index(by_id: Mapping[int, Entry], entries: Iterable[Entry]) -> dict[date, tuple[int, ...]]:
    grouped: dict[date, list[int]] = {}
    for entry in entries:
        if entry.place is not None:
            grouped.setdefault(entry.place.day, []).append(entry.id)
    return {day: _day_ids(by_id, ids, day) for day, ids in sorted(grouped.items())}


def _class_index(entries: Iterable[Entry]) -> dict[int, tuple[int, ...]]:
    grouped: dict[int, list[Entry]] = {}
    for entry in entries:
        if entry.ordered:
            grouped.setdefault(entry.study_class, []).append(entry)
    return {cid: tuple(e.id for e in sorted(found, key=lambda e: (e.order, e.id))) for cid, found in grouped.items()}


# --- Validation --------------------------------------------------------------------------------

def _validate(board: Board) -> None:
    semester = board.calendar.semester
    if board.window.first > board.window.last:
        raise InvalidBoardError("window_reversed", first=board.window.first, last=board.window.last)
    if not (semester.contains(board.window.first) and semester.contains(board.window.last)):
        raise InvalidBoardError("window_outside_semester", first=board.window.first, last=board.window.last)
    if len(board._by_id) != len(board.entries):
        raise InvalidBoardError("duplicate_id")
    if board.entries and (board.entries[0].id < 1 or board.next_id <= board.entries[-1].id):
        raise InvalidBoardError("bad_ids", first=board.entries[0].id, next_id=board.next_id)
    if len(board._rules) != len(board.classes) or not set(board.planned_class_ids) <= set(board._rules):
        raise InvalidBoardError("bad_classes")
    for entry in board.entries:
        _validate_entry(board, entry)


def _validate_entry(board: Board, entry: Entry) -> None:
    count = board.calendar.sections
    if not 1 <= entry.length <= count:
        raise InvalidBoardError("bad_length", entry=entry.id, length=entry.length)
    for where in (entry.place, entry.origin):
        if where is not None and not 1 <= where.start <= where.end <= count:
            raise InvalidBoardError("bad_sections", entry=entry.id, start=where.start, end=where.end)
    if entry.place is not None and entry.place.length != entry.length:
        raise InvalidBoardError("length_mismatch", entry=entry.id)
    if entry.filler and entry.kind is not Kind.COURSE:
        raise InvalidBoardError("filler_not_a_course", entry=entry.id)
    if entry.class_id is not None and entry.class_id not in board._rules:
        raise InvalidBoardError("unknown_class", entry=entry.id, class_id=entry.class_id)
    for where in (entry.place, entry.origin):
        if where is not None and where.host is not None:
            _validate_guest(board, entry, where)


def _validate_guest(board: Board, entry: Entry, where: Position) -> None:
    host = board.get(where.host)
    if entry.kind is not Kind.STUDY or host is None or not host.filler:
        raise InvalidBoardError("bad_host", entry=entry.id, host=where.host)
    if where is entry.place and not (host.place and host.place.day == where.day
                                     and host.place.contains(where.start, where.end)):
        raise InvalidBoardError("guest_outside_host", entry=entry.id, host=where.host)


# --- Small derivations the edges use ------------------------------------------------------------

def with_clock(board: Board, clock: Clock) -> Board:
    """The same board measured by another clock (a stored board read again later)."""
    return replace(board, clock=clock)


def add_pending(board: Board, entry: Entry) -> tuple[Board, int]:
    """Add an item waiting for a place (its id is ignored: it gets the board's next id)."""
    if entry.place is not None or entry.origin is not None:
        raise InvalidBoardError("not_pending", entry=entry.id)
    if entry.class_id is not None and board.class_rules(entry.class_id) is None:
        raise InvalidBoardError("unknown_class", class_id=entry.class_id)
    if not 1 <= entry.length <= board.calendar.sections:
        raise InvalidBoardError("bad_length", length=entry.length)
    new_id = board.next_id
    return board.with_entries_unchecked({new_id: replace(entry, id=new_id)}, next_id=new_id + 1), new_id


@dataclass(frozen=True)
class BoardChanges:
    """What a board changes in the database: the content of a preview."""

    placements: tuple[Entry, ...]  # study blocks given a place (suggested)
    notes: tuple[Entry, ...]  # quick notes given a place (suggested)
    moves: tuple[Entry, ...]  # blocks already in the database, now somewhere else (origin -> place)
    unplaced: tuple[Entry, ...]  # study blocks of the planned classes still waiting

    def __bool__(self) -> bool:
        return bool(self.placements or self.notes or self.moves)


def board_changes(board: Board) -> BoardChanges:
    """Split the board's differences from the database into placements, notes and moves."""
    by_time = sorted((e for e in board.entries if e.place is not None),
                     key=lambda e: (e.at.day, e.at.start))
    planned = set(board.planned_class_ids)
    return BoardChanges(
        placements=tuple(e for e in by_time if e.suggested and e.kind is Kind.STUDY),
        notes=tuple(e for e in by_time if e.suggested and e.kind is Kind.NOTE),
        moves=tuple(e for e in by_time if e.moved),
        unplaced=tuple(e for e in board.entries if e.place is None and e.kind is Kind.STUDY
                       and e.class_id in planned),
    )


def occupied_sections(board: Board) -> Iterator[tuple[date, int, Entry]]:
    """Every (day, section, holder) of the board, hosts and guests alike, in time order."""
    for day in sorted(board._by_day):
        for entry in board.on_day(day):
            for section in range(entry.at.start, entry.at.end + 1):
                yield day, section, entry
