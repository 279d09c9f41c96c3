"""The student's own rules for study blocks: a daily cap, a buffer, protected times, a latest section.

The board carries one ``StudentRules`` (``Board.rules``; empty = no rule) and the editing core
checks it whenever a study block is put down (``board_rules``); the planner reads the same rules
from its instance (``schedule/core/planning``). Pins are not here: a pinned block is an entry
flag (``Entry.pinned``), because it belongs to one block, not to a place.

What each rule means (study blocks only; courses, the student's events and quick notes ignore them):

* ``daily_cap``     at most this many study blocks on one day (those already there count);
* ``buffer``        at least this many free sections between two study blocks of one day;
* ``protected``     named section ranges on chosen weekdays (lunch: sections 5-5, every day) that
                    no study block may touch;
* ``latest_section`` a study block ends by this section.

Pure: no Django, no board (the board imports this module), only numbers, dates and names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, time

CAP_RANGE = (1, 12)
BUFFER_RANGE = (0, 4)
MAX_PROTECTED = 12
ALL_DAYS = frozenset(range(1, 8))


@dataclass(frozen=True, slots=True)
class ProtectedTime:
    """Sections ``first..last`` kept free of study on the weekdays ``days`` (1 = Monday)."""

    name: str
    first: int
    last: int
    days: frozenset[int] = ALL_DAYS

    def hits(self, day: date, start: int, end: int) -> tuple[int, ...]:
        """The protected sections a block ``start..end`` on ``day`` would use (empty: none)."""
        if day.isoweekday() not in self.days:
            return ()
        return tuple(range(max(start, self.first), min(end, self.last) + 1))

    def overlaps(self, other: ProtectedTime) -> bool:
        """Two protected times sharing a weekday and a section."""
        return bool(self.days & other.days) and self.first <= other.last and other.first <= self.last


@dataclass(frozen=True, slots=True)
class StudentRules:
    """One student's rules; every field at its default means "no rule"."""

    daily_cap: int | None = None
    buffer: int = 0
    latest_section: int | None = None
    protected: tuple[ProtectedTime, ...] = ()

    def __bool__(self) -> bool:
        return self.daily_cap is not None or self.buffer > 0 or self.latest_section is not None or bool(self.protected)

    @property
    def counts_neighbours(self) -> bool:
        """Whether a placement depends on the other blocks of its day (cap or buffer)."""
        return self.daily_cap is not None or self.buffer > 0

    def protected_hit(self, day: date, start: int, end: int) -> tuple[ProtectedTime, tuple[int, ...]] | None:
        """The first protected time a block would touch, with the sections it touches."""
        for protected in self.protected:
            sections = protected.hits(day, start, end)
            if sections:
                return protected, sections
        return None

    def too_late(self, end: int) -> bool:
        return self.latest_section is not None and end > self.latest_section

    def cap_reached(self, blocks_on_day: int) -> bool:
        """Whether one more block on a day already holding ``blocks_on_day`` would break the cap."""
        return self.daily_cap is not None and blocks_on_day >= self.daily_cap

    def too_close(self, start: int, end: int, others: Iterable[tuple[int, int]]) -> tuple[int, int] | None:
        """The first other block (``(start, end)``) nearer than the buffer to ``start..end``, if any."""
        if self.buffer <= 0:
            return None
        for other in sorted(others):
            if gap_between((start, end), other) < self.buffer:
                return other
        return None


def gap_between(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Free sections between two section ranges of one day (negative when they overlap)."""
    first, second = sorted((a, b))
    return second[0] - first[1] - 1


def blocked_sections(rules: StudentRules, day: date, sections: int) -> frozenset[int]:
    """The sections of ``day`` no study block may use by place alone: protected, or after the latest."""
    blocked = {s for p in rules.protected for s in p.hits(day, 1, sections)}
    if rules.latest_section is not None:
        blocked.update(range(rules.latest_section + 1, sections + 1))
    return frozenset(blocked)


# --- Reading the rules a student typed (used by the services; no Django here) -----------------------

@dataclass(frozen=True, slots=True)
class RuleProblem:
    """Why a rule as typed cannot be kept: a code and its data (the edge words it)."""

    code: str
    data: dict[str, object]


def sections_for_times(section_times: Sequence[tuple[time, time]], start: time, end: time) -> tuple[int, int] | None:
    """The first and last section a clock range mostly covers (at least half of the section inside it).

    Lunch 11:40-13:30 on a grid whose morning ends at 11:55 covers 15 minutes of section 4: that section
    is not lunch, and protecting it would refuse the course held there. None: no section is mostly inside.
    """
    covered = [n for n, (s, e) in enumerate(section_times, start=1)
               if 2 * _overlap_minutes(s, e, start, end) >= _minutes(e) - _minutes(s)]
    return (covered[0], covered[-1]) if covered else None


def sections_around(section_times: Sequence[tuple[time, time]], start: time, end: time) -> tuple[int, int] | None:
    """The sections just before and after a range that lies between two of them (lunch between 4 and 5)."""
    before = [n for n, (_s, e) in enumerate(section_times, start=1) if e <= end]
    after = [n for n, (s, _e) in enumerate(section_times, start=1) if s >= start]
    return (before[-1], after[0]) if before and after and before[-1] + 1 == after[0] else None


def _minutes(at: time) -> int:
    return at.hour * 60 + at.minute


def _overlap_minutes(first: time, last: time, start: time, end: time) -> int:
    return max(0, min(_minutes(last), _minutes(end)) - max(_minutes(first), _minutes(start)))


def protected_problems(protected: Sequence[ProtectedTime], sections: int) -> list[RuleProblem]:
    """Sections outside the day, empty day sets, too many entries, and overlaps between entries."""
    problems: list[RuleProblem] = []
    if len(protected) > MAX_PROTECTED:
        problems.append(RuleProblem("too_many_protected", {"max": MAX_PROTECTED}))
    for index, entry in enumerate(protected):
        if not 1 <= entry.first <= entry.last <= sections:
            problems.append(RuleProblem("protected_sections", {"index": index, "name": entry.name,
                                                               "sections": sections}))
        if not entry.days or not entry.days <= ALL_DAYS:
            problems.append(RuleProblem("protected_days", {"index": index, "name": entry.name}))
    for index, entry in enumerate(protected):
        for other in protected[index + 1:]:
            if entry.overlaps(other):
                problems.append(RuleProblem("protected_overlap", {"name": entry.name, "other": other.name}))
    return problems
