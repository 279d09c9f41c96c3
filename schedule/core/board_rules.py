"""Every rule of "may this entry sit here?", in the order they are checked, each raising its error.

1. shape     the length fits the day (1..sections); a block starts on the first section of a
             pair (1, 3, 5, ...) and ends by the day's last section;
2. when      the day is inside the board's planning window and has not gone by; today, a block
             may not start in a section that has begun;
3. class     a study block stays inside its class's dates, off its excluded weekdays and off its
             excluded pairs (every pair it touches counts);
   student   (study blocks, ``board.rules``) it touches no protected time and ends by the latest
             section;
4. occupancy nothing else holds any of its sections, except that a study block whose class allows
             it may sit inside one filler course that wholly contains it and holds no other
             block in those sections (one guest per host section); the occupant is named.
   day       (study blocks, ``board.rules``) its day keeps to the daily cap and to the buffer
             between study blocks, counting the blocks the edit leaves there;
5. order     (checked after the whole edit, see ``order_violation``) a later item of a class never
             sits before an earlier one, unless the caller allows reordering.

Locks, pins and the entry's state (pending / placed / in the database) are checked by the edits
before any of these, because they concern the entry, not the place. The student's rules apply to
the blocks an edit puts down; a day that already broke a rule (blocks placed before the rule was
set) is left as it is, as an order already broken is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date

from schedule.core.board import Board, Entry, Kind
from schedule.core.board_errors import (
    AfterLatestSection,
    BeyondLastSection,
    BufferTooSmall,
    DailyCapReached,
    ExcludedBlock,
    ExcludedDay,
    FillerNotAllowed,
    HostHasGuest,
    InThePast,
    InvalidLength,
    NotAHost,
    NotAPair,
    NotEmbeddable,
    NotInsideHost,
    OrderBroken,
    OutsideClassWindow,
    OutsideWindow,
    ProtectedTimeHit,
    SlotTaken,
)


def check_length(board: Board, entry: Entry, length: int) -> None:
    if not 1 <= length <= board.calendar.sections:
        raise InvalidLength(entry=entry.id, length=length, longest=board.calendar.sections)


def check_shape(board: Board, entry: Entry, day: date, start: int, length: int) -> None:
    """A block starts on the first section of a pair and ends by the day's last section."""
    check_length(board, entry, length)
    if start % 2 == 0:
        raise NotAPair(entry=entry.id, day=day, start=start)
    last = board.calendar.sections
    if start < 1 or start + length - 1 > last:
        raise BeyondLastSection(entry=entry.id, day=day, start=start, end=start + length - 1, last=last)


def check_when(board: Board, entry: Entry, day: date, start: int) -> None:
    """Inside the planning window, and not in the past (today's begun sections included)."""
    if day not in board.window:
        raise OutsideWindow(entry=entry.id, day=day, first=board.window.first, last=board.window.last)
    if board.clock.has_begun(day, start):
        raise InThePast(entry=entry.id, day=day, start=start)


def check_class(board: Board, entry: Entry, day: date, start: int, end: int) -> None:
    """A study block keeps to its class's dates, weekdays and pairs."""
    rules = board.rules_of(entry)
    if rules is None:
        return
    if day not in rules.window:
        raise OutsideClassWindow(entry=entry.id, day=day, class_id=rules.id, first=rules.window.first,
                                 last=rules.window.last)
    if day.isoweekday() in rules.excluded_days:
        raise ExcludedDay(entry=entry.id, day=day, class_id=rules.id, weekday=day.isoweekday())
    hit = tuple(s for s in range(start, end + 1) if (s + 1) // 2 in rules.excluded_pairs)
    if hit:
        raise ExcludedBlock(entry=entry.id, day=day, class_id=rules.id, sections=hit)


def check_student_place(board: Board, entry: Entry, day: date, start: int, end: int) -> None:
    """A study block keeps off the student's protected times and ends by their latest section."""
    rules = board.rules
    if entry.kind is not Kind.STUDY or not rules:
        return
    hit = rules.protected_hit(day, start, end)
    if hit is not None:
        protected, sections = hit
        raise ProtectedTimeHit(entry=entry.id, day=day, sections=sections, protected=protected.name)
    if rules.latest_section is not None and rules.too_late(end):
        raise AfterLatestSection(entry=entry.id, day=day, end=end, latest=rules.latest_section)


def day_study_blocks(board: Board, day: date, *, ignore: Iterable[int] = (), extra: Iterable[Entry] = ()) -> list[Entry]:
    """The study blocks on ``day`` as an edit sees it: the board's (less ``ignore``) and ``extra``."""
    skip = set(ignore)
    found = [e for e in board.on_day(day) if e.kind is Kind.STUDY and e.id not in skip]
    return found + [e for e in extra if e.kind is Kind.STUDY and e.place is not None and e.place.day == day]


def check_student_day(board: Board, entry: Entry, day: date, start: int, end: int,
                      day_blocks: Sequence[Entry] | None = None) -> None:
    """The daily cap and the buffer: ``day_blocks`` are the day's other study blocks (default: the board's)."""
    rules = board.rules
    if entry.kind is not Kind.STUDY or not rules.counts_neighbours:
        return
    others = [e for e in (day_study_blocks(board, day) if day_blocks is None else day_blocks) if e.id != entry.id]
    if rules.daily_cap is not None and rules.cap_reached(len(others)):
        raise DailyCapReached(entry=entry.id, day=day, cap=rules.daily_cap)
    spans = {(e.at.start, e.at.end): e for e in others}
    near = rules.too_close(start, end, spans)
    if near is not None:
        raise BufferTooSmall(entry=entry.id, day=day, other=spans[near].id, buffer=rules.buffer)


def host_for(board: Board, entry: Entry, day: date, start: int, end: int, in_the_way: Sequence[Entry],
             *, into: int | None = None) -> int | None:
    """Return None for free sections, or the id of the filler course the block sits in.

    ``in_the_way`` are the entries holding any of ``start..end`` (hosts before guests), as the
    caller sees the board at this point of its edit. ``into`` demands that host.
    """
    hosts = [e for e in in_the_way if e.filler]
    others = [e for e in in_the_way if not e.filler]
    host = hosts[0] if hosts else None
    if into is not None and (host is None or host.id != into):
        raise NotAHost(entry=entry.id, day=day, sections=tuple(range(start, end + 1)), host=into)
    if host is None:
        if others:
            raise _taken(entry, day, start, end, others[0])
        return None
    guests = [e for e in others if e.at.host == host.id]
    if len(others) > len(guests):
        raise _taken(entry, day, start, end, next(e for e in others if e not in guests))
    _check_embedding(board, entry, day, start, end, host)
    if guests:
        raise HostHasGuest(entry=entry.id, day=day, sections=_common(guests[0], start, end), host=host.id,
                           guest=guests[0].id)
    return host.id


def _check_embedding(board: Board, entry: Entry, day: date, start: int, end: int, host: Entry) -> None:
    # Who may embed comes before where: a quick note on a filler course hears that it cannot sit
    # in one at all, not that it sticks out of it.
    sections = _common(host, start, end)
    if entry.kind is not Kind.STUDY:
        raise NotEmbeddable(entry=entry.id, day=day, sections=sections, host=host.id)
    rules = board.rules_of(entry)
    if rules is not None and not rules.allow_filler:
        raise FillerNotAllowed(entry=entry.id, day=day, sections=sections, host=host.id, class_id=rules.id)
    if not host.at.contains(start, end):
        raise NotInsideHost(entry=entry.id, day=day, sections=sections, host=host.id)


def _common(other: Entry, start: int, end: int) -> tuple[int, ...]:
    place = other.at
    return tuple(range(max(start, place.start), min(end, place.end) + 1))


def _taken(entry: Entry, day: date, start: int, end: int, occupant: Entry) -> SlotTaken:
    return SlotTaken(entry=entry.id, day=day, sections=_common(occupant, start, end), occupant=occupant.id)


def in_the_way(board: Board, day: date, start: int, end: int, *, ignore: Iterable[int] = (),
               extra: Iterable[Entry] = ()) -> list[Entry]:
    """The entries holding any of ``start..end`` on ``day``: the board's (less ``ignore``) and ``extra``.

    Filler courses come first, then by first section: the order ``host_for`` reads them in.
    """
    found = board.overlapping(day, start, end, ignore=ignore)
    found += [e for e in extra if e.place is not None and e.place.overlaps(day, start, end)]
    return sorted(found, key=lambda e: (not e.filler, e.at.start, e.id))


def check_spot(board: Board, entry: Entry, day: date, start: int, length: int, in_the_way: Sequence[Entry],
               *, into: int | None = None, day_blocks: Sequence[Entry] | None = None) -> int | None:
    """Run rules 1-4 for ``entry`` starting at ``start`` on ``day``; return its host (None: free time).

    ``day_blocks`` are the day's study blocks as the caller's edit sees them (default: the board's).
    """
    check_shape(board, entry, day, start, length)
    check_when(board, entry, day, start)
    end = start + length - 1
    check_class(board, entry, day, start, end)
    check_student_place(board, entry, day, start, end)
    host = host_for(board, entry, day, start, end, in_the_way, into=into)
    check_student_day(board, entry, day, start, end, day_blocks)
    return host


# --- Order -----------------------------------------------------------------------------------------

def _inverted(a: Entry, b: Entry) -> bool:
    """Two placed blocks of one class whose places contradict their item order."""
    if a.place is None or b.place is None or a.order == b.order:
        return False
    first, second = (a, b) if a.study_order < b.study_order else (b, a)
    return (second.at.day, second.at.start) <= (first.at.day, first.at.start)


def order_violation(before: Board, after: Board, moved: Iterable[int]) -> OrderBroken | None:
    """The first pair of blocks that ``after`` puts out of order and ``before`` did not.

    Only pairs with a moved block can change, so only those are compared; an order that was
    already broken (by the student, in the database) is left alone.
    """
    found: set[tuple[int, int, int, int, int]] = set()
    for entry_id in moved:
        entry = after.get(entry_id)
        if entry is None or not entry.ordered or entry.place is None:
            continue
        for other in after.class_members(entry.study_class):
            if other.id == entry.id or not _inverted(entry, other):
                continue
            old_a, old_b = before.get(entry.id), before.get(other.id)
            if old_a is not None and old_b is not None and _inverted(old_a, old_b):
                continue
            earlier, later = (entry, other) if entry.study_order < other.study_order else (other, entry)
            found.add((earlier.study_order, later.study_order, earlier.id, later.id, entry.study_class))
    if not found:
        return None
    _, _, earlier_id, later_id, class_id = min(found)
    return OrderBroken(entry=earlier_id, later=later_id, class_id=class_id)
