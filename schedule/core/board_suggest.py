"""Where a block could go: the places nearest a refused one, and every opening of a window.

``suggest_places`` answers a refusal ("not there; these would work: ...") for the week board's
drag and the assistant's tools alike; it tries each candidate through the very edit that was
refused, so a suggestion is never one the edit would refuse. ``openings`` lists every place a
block of a given length and class could take, free time and filler courses, for searches.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date

from schedule.core.board import Board, Entry, Kind, Spot
from schedule.core.board_edits import Edit, Embed, Move, OrderRule, Place, batch
from schedule.core.board_errors import BoardError, OrderBroken, SpotError
from schedule.core.board_rules import (
    check_class,
    check_shape,
    check_spot,
    check_student_place,
    check_when,
    in_the_way,
)

DEFAULT_LIMIT = 3


@dataclass(frozen=True, slots=True)
class Opening:
    """A place a block fits: a day, sections ``start..end``, and its filler host (None: free time)."""

    day: date
    start: int
    end: int
    host: int | None = None


def probe(length: int, *, kind: Kind = Kind.STUDY, class_id: int | None = None) -> Entry:
    """A stand-in entry for searching: no id on the board, just a length, a kind and a class."""
    return Entry(id=0, kind=kind, length=length, class_id=class_id)


def openings(board: Board, subject: Entry, *, days: Iterable[date] | None = None) -> Iterator[Opening]:
    """Every place ``subject`` could start (rules 1-4; not order), day by day, first section first.

    A placed subject's own sections count as free.
    """
    length = subject.length
    for day in board.days() if days is None else days:
        for start in range(1, board.calendar.sections - length + 2, 2):
            end = start + length - 1
            try:
                host = check_spot(board, subject, day, start, length,
                                  in_the_way(board, day, start, end, ignore=(subject.id,)))
            except BoardError:
                continue
            yield Opening(day, start, end, host)


def suggest_places(board: Board, edit: Edit | Sequence[Edit], *, limit: int = DEFAULT_LIMIT,
                   order: OrderRule = OrderRule.KEEP) -> tuple[Spot, ...]:
    """Up to ``limit`` places near the one asked for where the (refused) edit would work.

    For a batch, the edit that was refused gets other places while the rest stays as asked.
    Swaps, removals and resizes have no place to suggest: the answer is empty.
    """
    edits = list(edit) if isinstance(edit, Sequence) else [edit]
    index = _culprit(board, edits, order)
    chosen = edits[index] if index is not None else None
    if index is None or not isinstance(chosen, (Place, Move, Embed)):
        return ()
    entry = board.get(chosen.entry)
    wanted = chosen.spot if chosen.spot is not None else _host_spot(board, chosen)
    if entry is None or wanted is None:
        return ()
    found: list[Spot] = []
    for spot in _nearby(board, entry, wanted):
        trial = [*edits[:index], _retarget(entry, spot), *edits[index + 1:]]
        try:
            batch(board, trial, order=order)
        except BoardError:
            continue
        found.append(spot)
        if len(found) == limit:
            break
    return tuple(found)


def _culprit(board: Board, edits: list[Edit], order: OrderRule) -> int | None:
    """The index of the edit to find other places for, or None when no place would help.

    A refusal about the entry itself (unknown, locked, not pending, ...) stays whatever the place.
    """
    alone = 0 if len(edits) == 1 else None
    try:
        batch(board, edits, order=order)
    except OrderBroken as error:
        named = {error.entry, error.later}
        return alone if alone is not None else next(
            (n for n, e in enumerate(edits) if getattr(e, "entry", None) in named), None)
    except SpotError as error:
        return alone if alone is not None else error.edit_index
    except BoardError:
        return None
    return alone


def _host_spot(board: Board, edit: Place | Move | Embed) -> Spot | None:
    host = board.get(getattr(edit, "host", None))
    return host.place.spot if host is not None and host.place is not None else None


def _retarget(entry: Entry, spot: Spot) -> Edit:
    # An embed that failed may do better outside its filler course: the suggestion is any place.
    return Place(entry.id, spot) if entry.place is None else Move(entry.id, spot)


def _nearby(board: Board, entry: Entry, wanted: Spot) -> Iterator[Spot]:
    """Candidate starts nearest ``wanted`` first (same day, then one day either side, ...), cheap rules first."""
    days = sorted(board.days(), key=lambda d: (abs((d - wanted.day).days), d < wanted.day))
    starts = sorted(range(1, board.calendar.sections - entry.length + 2, 2),
                    key=lambda s: (abs(s - wanted.start), s))
    current = entry.place.spot if entry.place is not None else None
    for day in days:
        for start in starts:
            spot = Spot(day, start)
            if spot in (wanted, current) or not _may_start(board, entry, spot):
                continue
            yield spot


def _may_start(board: Board, entry: Entry, spot: Spot) -> bool:
    try:
        check_shape(board, entry, spot.day, spot.start, entry.length)
        check_when(board, entry, spot.day, spot.start)
        check_class(board, entry, spot.day, spot.start, spot.start + entry.length - 1)
        check_student_place(board, entry, spot.day, spot.start, spot.start + entry.length - 1)
    except BoardError:
        return False
    return True
