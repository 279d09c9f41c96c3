"""Deterministic rearrangements of a set of placed blocks: spread them evenly, or group them by class.

    result = spread_even(board, [5, 6, 7, 8])          # each block to a lighter day near its fair share
    result = min_context_switch(board, [5, 6, 7, 8])   # the same places, handed out class by class

Both plan moves and then run them as one ``batch`` of the editing core with the caller's order rule,
so the result is a board the core accepts, or a ``BoardError`` (nothing changed). The blocks must be
placed study blocks or quick notes that may move; a locked entry or an id that is not on the board
(another student's block never is) is refused before anything is planned.

``spread_even``: for each block in time order, pick an opening (free time or a filler course its
class allows) whose day is near the block's fair share of its class's days and lightly loaded; with
class order kept, a block stays after the class's earlier blocks and before its later ones.
``min_context_switch``: the blocks keep the set of places they hold; those places are handed out
again, largest class first, each block taking the earliest free place of its length (a pure
permutation, so only the order inside each day changes and classes come together).

Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta

from schedule.core.analysis import EmptyWindowError, analysis_window, switches_of
from schedule.core.board import Board, DateWindow, Entry, Kind, Position, Spot
from schedule.core.board_edits import Move, OrderRule, batch
from schedule.core.board_errors import BoardError, EntryLocked, NotPlaced, UnknownEntry
from schedule.core.board_rules import check_spot, in_the_way

MIN_BLOCKS = 2
LOAD_WEIGHT = 1.5  # one block already on a day costs as much as 1.5 days away from the fair share
STAY_BONUS = 0.75  # a block stays where it is unless a place is clearly better (fewer moves)

__all__ = ["EmptyWindowError", "NoRoomError", "Rearrangement", "TooFewBlocksError", "min_context_switch",
           "spread_even"]


class TooFewBlocksError(ValueError):
    """Fewer than two distinct blocks were named."""

    code = "too_few_blocks"


@dataclass(eq=False)
class NoRoomError(ValueError):
    """A block found no place left in the window (``length`` sections; ``needed`` blocks, ``found`` places)."""

    entry: int
    length: int
    needed: int
    found: int
    code = "no_room"

    def __post_init__(self) -> None:
        super().__init__(self.code)


@dataclass(frozen=True)
class Rearrangement:
    """The new board, the moves that made it, and the figure the rearrangement improves before and after."""

    board: Board
    moves: tuple[Move, ...]
    before: int  # spread_even: most blocks of the set on one day; min_context_switch: switches
    after: int


def checked_blocks(board: Board, entry_ids: Sequence[int]) -> list[Entry]:
    """The named entries in time order; raise the core's error for one that cannot move."""
    ids = list(dict.fromkeys(entry_ids))
    entries = []
    for entry_id in ids:
        entry = board.get(entry_id)
        if entry is None:
            raise UnknownEntry(entry_id)
        if board.is_locked(entry) or entry.kind not in (Kind.STUDY, Kind.NOTE):
            raise EntryLocked(entry.id)
        if entry.place is None:
            raise NotPlaced(entry.id)
        entries.append(entry)
    if len(entries) < MIN_BLOCKS:
        raise TooFewBlocksError(len(entries))
    return sorted(entries, key=_when)


# --- spread_even ---------------------------------------------------------------------------------------


def spread_even(board: Board, entry_ids: Sequence[int], *, first: date | None = None, last: date | None = None,
                order: OrderRule = OrderRule.KEEP) -> Rearrangement:
    """Move the blocks so each class's blocks spread over its days, avoiding days already loaded."""
    blocks = checked_blocks(board, entry_ids)
    window = analysis_window(board, first, last)
    # The blocks' own places count as free while new ones are chosen (the batch lifts them too).
    lifted = board.with_entries_unchecked({e.id: replace(e, place=None) for e in blocks})
    lifted_ids = {e.id for e in blocks}
    load = {day: _study_sections(lifted, day) for day in window.days()}
    fair = _fair_days(board, blocks, window)
    taken: dict[date, list[Entry]] = {}  # the blocks given a place so far, by day
    chosen: dict[int, Spot] = {}
    for entry in blocks:
        spot = _best_spot(lifted, entry, window, load, fair[entry.id], taken, _bounds(board, entry, chosen, lifted_ids, order))
        chosen[entry.id] = spot
        taken.setdefault(spot.day, []).append(
            replace(entry, place=Position(spot.day, spot.start, spot.start + entry.length - 1)))
        load[spot.day] += entry.length
    moves = tuple(Move(e.id, chosen[e.id]) for e in blocks if chosen[e.id] != e.at.spot)
    new = batch(board, list(moves), order=order) if moves else board
    return Rearrangement(new, moves, _most_per_day(board, blocks), _most_per_day(new, blocks))


def _fair_days(board: Board, blocks: Sequence[Entry], window: DateWindow) -> dict[int, float]:
    """Each block's fair-share day (as days after ``window.first``): its class's blocks spaced evenly."""
    fair: dict[int, float] = {}
    groups: dict[int, list[Entry]] = {}
    for entry in blocks:
        groups.setdefault(entry.class_id or -entry.id, []).append(entry)
    for members in groups.values():
        rules = board.rules_of(members[0])
        lo = max(window.first, rules.window.first) if rules else window.first
        hi = min(window.last, rules.window.last) if rules else window.last
        span = max(1, (hi - lo).days + 1)
        for rank, entry in enumerate(members):
            fair[entry.id] = (lo - window.first).days + (rank + 0.5) * span / len(members)
    return fair


# A moment on the board: a day and a section; order bounds are (after, before) pairs of them.
_Moment = tuple[date, int]
_Bounds = tuple[_Moment, _Moment]


def _bounds(board: Board, entry: Entry, chosen: dict[int, Spot], lifted: set[int],
            order: OrderRule) -> _Bounds:
    """(after, before): the times the block must start after and end before to keep its class order.

    The class's other blocks count where they stay (not in the set) or where they were just put;
    blocks of the set not handed a place yet do not count.
    """
    low: _Moment = (date.min, 0)
    high: _Moment = (date.max, 99)
    if order is not OrderRule.KEEP or not entry.ordered:
        return low, high
    for other in board.class_members(entry.study_class):
        where = _spot_end(other, chosen[other.id]) if other.id in chosen else other.place
        if other.id == entry.id or where is None or (other.id in lifted and other.id not in chosen):
            continue
        if (other.order, other.id) < (entry.order, entry.id):
            low = max(low, (where.day, where.end))
        else:
            high = min(high, (where.day, where.start))
    return low, high


def _spot_end(entry: Entry, spot: Spot | None) -> Position | None:
    return Position(spot.day, spot.start, spot.start + entry.length - 1) if spot is not None else None


def _best_spot(board: Board, entry: Entry, window: DateWindow, load: dict[date, int], fair: float,
               taken: dict[date, list[Entry]], bounds: _Bounds) -> Spot:
    """The cheapest place the core allows: days nearest the fair share first, stopping once no
    farther day can cost less (cost = days away + ``LOAD_WEIGHT`` per block already that day)."""
    low, high = bounds
    best = _staying(board, entry, window, load, fair, taken, bounds)
    for day, distance in _outward(window, fair):
        if best is not None and distance >= best[0]:
            break
        cost = distance + LOAD_WEIGHT * load[day] / max(1, entry.length)
        if (best is not None and (cost, day) >= best[:2]) or not low[0] <= day <= high[0]:
            continue
        start = _first_start(board, entry, day, taken.get(day, ()), low, high)
        if start is not None:
            best = (cost, day, start)
    if best is None:
        raise NoRoomError(entry.id, entry.length, 1, 0)
    return Spot(best[1], best[2])


def _staying(board: Board, entry: Entry, window: DateWindow, load: dict[date, int], fair: float,
             taken: dict[date, list[Entry]], bounds: _Bounds) -> tuple[float, date, int] | None:
    """The block's own place as a candidate, a little cheaper (``STAY_BONUS``) so a block already
    about right stays put; None when it may not stay (outside the days, its order, or taken)."""
    place = entry.place
    assert place is not None
    if place.day not in window or place.host is not None:
        return None
    start = _first_start(board, entry, place.day, taken.get(place.day, ()), *bounds, only=place.start)
    if start is None:
        return None
    cost = abs((place.day - window.first).days + 0.5 - fair) + LOAD_WEIGHT * load[place.day] / max(1, entry.length)
    return cost - STAY_BONUS, place.day, place.start


def _outward(window: DateWindow, fair: float) -> Iterator[tuple[date, float]]:
    """The window's days nearest the fair share first (earlier first on a tie), with their distance."""
    count = (window.last - window.first).days + 1
    after = min(count - 1, max(0, int(fair)))  # the day the fair share falls in
    before = after - 1
    while before >= 0 or after < count:
        gap_before = fair - (before + 0.5) if before >= 0 else float("inf")
        gap_after = abs(after + 0.5 - fair) if after < count else float("inf")
        if gap_before <= gap_after:
            yield window.first + timedelta(days=before), gap_before
            before -= 1
        else:
            yield window.first + timedelta(days=after), gap_after
            after += 1


def _first_start(board: Board, entry: Entry, day: date, taken: Sequence[Entry], low: _Moment,
                 high: _Moment, *, only: int | None = None) -> int | None:
    """The day's first start (a pair's first section) inside the order bounds that the core's rules
    1-5 allow, with the blocks already given a place (``taken``) counted as there."""
    starts = range(1, board.calendar.sections - entry.length + 2, 2) if only is None else (only,)
    for start in starts:
        end = start + entry.length - 1
        if (day, start) <= low or (day, end) >= high:
            continue
        try:
            check_spot(board, entry, day, start, entry.length,
                       in_the_way(board, day, start, end, ignore=(entry.id,), extra=taken))
        except BoardError:
            continue
        return start
    return None


def _study_sections(board: Board, day: date) -> int:
    return sum(e.length for e in board.on_day(day) if e.kind in (Kind.STUDY, Kind.NOTE))


def _most_per_day(board: Board, blocks: Sequence[Entry]) -> int:
    days: dict[date, int] = {}
    for entry in blocks:
        place = board.place_of(entry.id)
        if place is not None:
            days[place.day] = days.get(place.day, 0) + 1
    return max(days.values(), default=0)


# --- min_context_switch --------------------------------------------------------------------------------


def min_context_switch(board: Board, entry_ids: Sequence[int], *,
                       order: OrderRule = OrderRule.KEEP) -> Rearrangement:
    """Hand the blocks' own places out again class by class, so each class's blocks come together."""
    blocks = checked_blocks(board, entry_ids)
    places = sorted((_place(e) for e in blocks), key=lambda p: (p.day, p.start))
    used: set[int] = set()
    chosen: dict[int, Spot] = {}
    for entry in _grouped(blocks):
        index = next((i for i, p in enumerate(places) if i not in used and p.length == entry.length), None)
        if index is None:  # cannot happen: every block brought a place of its own length
            raise NoRoomError(entry.id, entry.length, len(blocks), len(places))
        used.add(index)
        chosen[entry.id] = places[index].spot
    moves = tuple(Move(e.id, chosen[e.id]) for e in blocks if chosen[e.id] != e.at.spot)
    new = batch(board, list(moves), order=order) if moves else board
    days = sorted({p.day for p in places})
    return Rearrangement(new, moves, _switches(board, days), _switches(new, days))


def _grouped(blocks: Sequence[Entry]) -> list[Entry]:
    """Blocks class by class (largest class first, then the class that comes first), each in time order."""
    groups: dict[int, list[Entry]] = {}
    for entry in blocks:  # already in time order
        groups.setdefault(entry.class_id or -entry.id, []).append(entry)
    ranked = sorted(groups.items(), key=lambda item: (-len(item[1]), _when(item[1][0]), item[0]))
    return [entry for _, members in ranked for entry in members]


def _switches(board: Board, days: Sequence[date]) -> int:
    return sum(switches_of([e.class_id or -e.id for e in board.on_day(day) if e.kind is Kind.STUDY])
               for day in days)


def _place(entry: Entry) -> Position:
    assert entry.place is not None
    return entry.place


def _when(entry: Entry) -> tuple[date, int, int]:
    assert entry.place is not None
    return entry.place.day, entry.place.start, entry.id
