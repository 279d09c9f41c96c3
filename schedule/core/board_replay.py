"""Replay one board's pending edits onto a newer board of the same student.

A conversation's working schedule is a board whose differences from the database are its edits
(suggested blocks, moved blocks). When the database changes under it (a plan applied on the
planning page, a drag, a new event), those edits are replayed onto the board loaded afresh, where
the ids are the same (``board.boards.board_load`` with ``previous``). An edit that no
longer fits is dropped, with why: the database already did it or undid what it was about
(``Overtaken``), or the new board refuses it (a ``BoardError``, the same refusal a drag would get).

Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from schedule.core.board import Board, Entry
from schedule.core.board_edits import Move, OrderRule, Place, batch
from schedule.core.board_errors import BoardError


class Overtaken(StrEnum):
    """Why an edit is moot on the newer board, before any rule is asked."""

    GONE = "gone"  # its item, note or block is no longer on the board (deleted, done, out of the window)
    PLACED_MEANWHILE = "placed_meanwhile"  # a suggestion whose item or note got a block in the database
    MOVED_MEANWHILE = "moved_meanwhile"  # a moved block the student moved (or took off) herself since


@dataclass(frozen=True)
class Dropped:
    """An edit of the older board that the newer one does not take: the entry as the edit left it, and why."""

    entry: Entry  # on the older board, at the place the edit gave it
    why: Overtaken | BoardError


@dataclass(frozen=True)
class Replay:
    """The newer board with the edits that still fit, and the ones dropped (in the older board's id order)."""

    board: Board
    dropped: tuple[Dropped, ...]


def pending_edits(board: Board) -> tuple[Entry, ...]:
    """The board's own edits: its suggested and moved entries, by id."""
    return tuple(entry for entry in board.entries if entry.suggested or entry.moved)


def replay(board: Board, older: Board) -> Replay:
    """Put ``older``'s edits on ``board`` wherever the core still allows them; say why each other one is dropped.

    Class order is not checked again (``OrderRule.ALLOW``): the student accepted it when the edit was made.
    The edits run as one batch, so blocks that traded places trade again; a refused edit is taken
    out and the rest tried again, so one edit that no longer fits costs no other.
    """
    dropped: list[Dropped] = []
    edits: list[tuple[Entry, Place | Move]] = []
    for old in pending_edits(older):
        edit = _edit_for(old, board.get(old.id))
        if isinstance(edit, Overtaken):
            dropped.append(Dropped(old, edit))
        else:
            edits.append((old, edit))
    while edits:
        try:
            new = batch(board, [edit for _old, edit in edits], order=OrderRule.ALLOW)
        except BoardError as error:
            index = error.edit_index if error.edit_index is not None else 0
            dropped.append(Dropped(edits.pop(index)[0], error))
            continue
        return Replay(new, _by_id(dropped))
    return Replay(board, _by_id(dropped))


def _edit_for(old: Entry, new: Entry | None) -> Place | Move | Overtaken:
    """The edit that puts ``new`` where ``old`` was, or why there is none to make."""
    assert old.place is not None, "only placed entries carry an edit"
    if new is None:
        return Overtaken.GONE
    if old.suggested:
        return Place(new.id, old.place.spot) if new.place is None else Overtaken.PLACED_MEANWHILE
    if new.origin is None:
        return Overtaken.GONE  # its block was deleted: the item waits again
    if new.origin != old.origin:
        return Overtaken.MOVED_MEANWHILE
    return Move(new.id, old.place.spot)


def _by_id(dropped: Sequence[Dropped]) -> tuple[Dropped, ...]:
    return tuple(sorted(dropped, key=lambda d: d.entry.id))
