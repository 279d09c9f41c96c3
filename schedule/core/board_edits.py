"""Edits of a board: each returns a new board or raises one ``BoardError``; the input never changes.

    new = move(board, entry_id, Spot(day, 5))
    new = batch(board, [Move(3, Spot(day, 1)), Place(7, Spot(day, 3))])   # all or nothing

Every edit is one path: check the entries it names (known, not locked, not pinned, pending or
placed as the edit needs), turn it into targets, lift every target entry off the board together, put each down
in turn against the board so far (``board_rules.check_spot``, so a batch's second edit sees its
first), then check class order. Lifting together is what lets two blocks trade places.

Class order (``OrderRule``): KEEP refuses an edit that puts a later item before an earlier one;
ALLOW lets it (the student agreed); RENUMBER keeps the places but gives the class's suggested
blocks to its items in time order, as the week board's drag does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from schedule.core.board import Board, Entry, Position, Spot
from schedule.core.board_errors import (
    BoardError,
    DifferentLengths,
    DuplicateEntry,
    EntryLocked,
    EntryPinned,
    NotAHost,
    NotPending,
    NotPlaced,
    NotRemovable,
    SameEntry,
    UnknownEntry,
)
from schedule.core.board_rules import check_length, check_spot, day_study_blocks, in_the_way, order_violation


class OrderRule(StrEnum):
    KEEP = "keep"
    ALLOW = "allow"
    RENUMBER = "renumber"


@dataclass(frozen=True, slots=True)
class Place:
    """Give a pending entry a place (inside a filler course when the spot is one and that is allowed)."""

    entry: int
    spot: Spot


@dataclass(frozen=True, slots=True)
class Move:
    """Move a placed, unlocked entry."""

    entry: int
    spot: Spot


@dataclass(frozen=True, slots=True)
class Swap:
    """Two placed, unlocked entries of the same length trade places."""

    a: int
    b: int


@dataclass(frozen=True, slots=True)
class Unplace:
    """Take a suggestion off the board; it waits again. Blocks in the database only move."""

    entry: int


@dataclass(frozen=True, slots=True)
class Embed:
    """Put a study block (pending or placed) inside the filler course ``host``, at ``spot`` or its start."""

    entry: int
    host: int
    spot: Spot | None = None


@dataclass(frozen=True, slots=True)
class Resize:
    """Change an unlocked entry's length; a placed one keeps its start and must still fit."""

    entry: int
    length: int


Edit = Place | Move | Swap | Unplace | Embed | Resize


@dataclass(frozen=True, slots=True)
class _Target:
    length: int
    spot: Spot | None  # None: off the board
    into: int | None = None


# --- The edits ---------------------------------------------------------------------------------------

def place(board: Board, entry: int, spot: Spot, *, order: OrderRule = OrderRule.KEEP) -> Board:
    return apply(board, Place(entry, spot), order=order)


def move(board: Board, entry: int, spot: Spot, *, order: OrderRule = OrderRule.KEEP) -> Board:
    return apply(board, Move(entry, spot), order=order)


def swap(board: Board, a: int, b: int, *, order: OrderRule = OrderRule.KEEP) -> Board:
    return apply(board, Swap(a, b), order=order)


def unplace(board: Board, entry: int) -> Board:
    return apply(board, Unplace(entry))


def embed(board: Board, entry: int, host: int, spot: Spot | None = None, *,
          order: OrderRule = OrderRule.KEEP) -> Board:
    return apply(board, Embed(entry, host, spot), order=order)


def resize(board: Board, entry: int, length: int) -> Board:
    return apply(board, Resize(entry, length))


def apply(board: Board, edit: Edit, *, order: OrderRule = OrderRule.KEEP) -> Board:
    """Run one edit."""
    return _run(board, [edit], order=order, in_batch=False)


def batch(board: Board, edits: Sequence[Edit], *, order: OrderRule = OrderRule.KEEP) -> Board:
    """Run several edits as one: every entry is lifted first, then put down in the edits' order.

    All or nothing; a refusal carries ``edit_index``, the edit it came from.
    """
    return _run(board, edits, order=order, in_batch=True)


def _run(board: Board, edits: Sequence[Edit], *, order: OrderRule, in_batch: bool) -> Board:
    targets: dict[int, _Target] = {}
    owner: dict[int, int] = {}
    for index, edit in enumerate(edits):
        try:
            found = _targets(board, edit)
            for entry_id in found:
                if entry_id in targets:
                    raise DuplicateEntry(entry=entry_id)
        except BoardError as error:
            _tagged(error, index if in_batch else None)
            raise
        targets.update(found)
        owner.update(dict.fromkeys(found, index))
    new = _relocate(board, targets, owner if in_batch else {})
    if order is OrderRule.RENUMBER:
        new = _renumbered(new, targets)
    if order is not OrderRule.ALLOW:
        broken = order_violation(board, new, _moved(board, new, targets))
        if broken is not None:
            raise _tagged(broken, owner.get(broken.later, owner.get(broken.entry)) if in_batch else None)
    return new


def _tagged(error: BoardError, index: int | None) -> BoardError:
    error.edit_index = index
    return error


# --- From an edit to its targets (checks on the entries themselves) ---------------------------------

def _entry(board: Board, entry_id: object) -> Entry:
    entry = board.get(entry_id)
    if entry is None:
        raise UnknownEntry(entry=entry_id)
    return entry


def _unlocked(board: Board, entry_id: object) -> Entry:
    entry = _entry(board, entry_id)
    if board.is_locked(entry):
        raise EntryLocked(entry=entry.id)
    return entry


def _unpinned(board: Board, entry_id: object) -> Entry:
    entry = _unlocked(board, entry_id)
    if entry.pinned and entry.place is not None:
        raise EntryPinned(entry=entry.id)
    return entry


def _placed(board: Board, entry_id: object) -> Entry:
    entry = _unpinned(board, entry_id)
    if entry.place is None:
        raise NotPlaced(entry=entry.id)
    return entry


def _targets(board: Board, edit: Edit) -> dict[int, _Target]:
    if isinstance(edit, Place):
        entry = _entry(board, edit.entry)
        if entry.place is not None:
            raise NotPending(entry=entry.id)
        return {entry.id: _Target(entry.length, edit.spot)}
    if isinstance(edit, Move):
        entry = _placed(board, edit.entry)
        return {entry.id: _Target(entry.length, edit.spot)}
    if isinstance(edit, Swap):
        return _swap_targets(board, edit)
    if isinstance(edit, Unplace):
        entry = _placed(board, edit.entry)
        if entry.in_database:
            raise NotRemovable(entry=entry.id)
        return {entry.id: _Target(entry.length, None)}
    if isinstance(edit, Embed):
        return _embed_targets(board, edit)
    if isinstance(edit, Resize):
        entry = _unpinned(board, edit.entry)
        check_length(board, entry, edit.length)
        return {entry.id: _Target(edit.length, entry.place.spot if entry.place else None)}
    raise TypeError(f"not a board edit: {edit!r}")


def _swap_targets(board: Board, edit: Swap) -> dict[int, _Target]:
    if edit.a == edit.b:
        raise SameEntry(entry=edit.a)
    a, b = _placed(board, edit.a), _placed(board, edit.b)
    if a.length != b.length:
        raise DifferentLengths(entry=a.id, other=b.id, length=a.length, other_length=b.length)
    return {a.id: _Target(a.length, b.at.spot), b.id: _Target(b.length, a.at.spot)}


def _embed_targets(board: Board, edit: Embed) -> dict[int, _Target]:
    entry = _entry(board, edit.entry)
    if entry.place is not None:
        entry = _placed(board, edit.entry)
    host = _entry(board, edit.host)
    if not host.filler or host.place is None:
        day = edit.spot.day if edit.spot else host.place.day if host.place else board.window.first
        raise NotAHost(entry=entry.id, day=day, sections=(), host=host.id)
    return {entry.id: _Target(entry.length, edit.spot or host.place.spot, into=host.id)}


# --- Lift, put down, renumber ----------------------------------------------------------------------

def _relocate(board: Board, targets: Mapping[int, _Target], owner: Mapping[int, int]) -> Board:
    """Lift every target entry, then put each down against the board so far."""
    landed: dict[int, Entry] = {}
    for entry_id, target in targets.items():
        found = board.get(entry_id)
        assert found is not None, entry_id  # every target was found on the board
        entry = replace(found, length=target.length)
        if target.spot is None:
            landed[entry_id] = replace(entry, place=None)
            continue
        try:
            landed[entry_id] = _put_down(board, entry, target.spot, target, targets, landed)
        except BoardError as error:
            _tagged(error, owner.get(entry_id))
            raise
    return board.with_entries_unchecked(landed)


def _put_down(board: Board, entry: Entry, spot: Spot, target: _Target, lifted: Mapping[int, _Target],
              landed: Mapping[int, Entry]) -> Entry:
    day, start = spot.day, spot.start
    end = start + target.length - 1
    blocking = in_the_way(board, day, start, end, ignore=lifted, extra=landed.values())
    # The day's study blocks matter only to a cap or a buffer: skip gathering them otherwise.
    day_blocks = (day_study_blocks(board, day, ignore=lifted, extra=landed.values())
                  if board.rules.counts_neighbours else None)
    host = check_spot(board, entry, day, start, target.length, blocking, into=target.into, day_blocks=day_blocks)
    return replace(entry, place=Position(day, start, end, host))


def _renumbered(board: Board, targets: Mapping[int, _Target]) -> Board:
    """Give each touched class's suggested blocks to its items in time order (places stay, items trade)."""
    classes = {e.study_class for e in (board.get(i) for i in targets) if e is not None and e.ordered}
    trades: dict[int, _Target] = {}
    for class_id in sorted(classes):
        # A suggestion left in the past stays where it is: no item is handed a place gone by.
        blocks = [e for e in board.class_members(class_id)
                  if e.suggested and not board.clock.has_begun(e.at.day, e.at.start)]
        places = sorted((e.at for e in blocks), key=lambda p: (p.day, p.start))
        for entry, where in zip(blocks, places):
            if entry.place != where:
                trades[entry.id] = _Target(entry.length, where.spot, into=where.host)
    return _relocate(board, trades, {}) if trades else board


def _moved(before: Board, after: Board, targets: Mapping[int, _Target]) -> list[int]:
    touched = set(targets)
    for class_id in {e.study_class for e in (after.get(i) for i in targets) if e is not None and e.ordered}:
        touched.update(e.id for e in after.class_members(class_id) if e.place != before.place_of(e.id))
    return sorted(touched)
