"""A preview as a board and back: what the drag edits, and what a board stores as a preview.

A ``PlanPreview`` keeps rows (week, day, sections, host event): suggested study blocks
(``placements``), moves of blocks already on the timetable (``moves``) and quick-note blocks
(``task_placements``). ``preview_board`` lays them over the student's board, so the editing core
checks a drag against everything, the preview's other changes included; ``preview_content`` turns
a board's changes (``board_changes``) back into those rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from django.utils.translation import gettext as _

from accounts.models import User
from board.boards import board_load, calendar_get
from schedule.core.board import Board, Calendar, Entry, Position, board_changes
from schedule.core.change_records import BlockMove, BlockSpot, ItemPlacement, NotePlacement
from schedule.models import PlanPreview
from smartmate.platform.exceptions import ConflictError
from taskclasses.models import TaskClass

NOT_PLACED = ("not_placed", "not placed in this conversation")


def preview_board(*, user: User, preview: PlanPreview, now: datetime) -> Board:
    """Return the student's board with the preview's changes in place.

    The window spans the preview's classes and every day it touches. A block that changed in
    the database since the preview was made is a ConflictError: the preview is out of date.
    """
    calendar = calendar_get(user=user)
    records = PreviewRecords.of(preview)
    days = _preview_days(calendar, records) + _class_days(user, preview.task_class_ids)
    board = board_load(user=user, now=now, first=min(days, default=None), last=max(days, default=None),
                       class_ids=preview.task_class_ids, task_ids=[n.task_id for n in records.notes],
                       pending_notes=False, calendar=calendar)
    return _overlaid(board, records)


@dataclass(frozen=True)
class PreviewRecords:
    """A preview's rows, read once."""

    placements: list[ItemPlacement]
    notes: list[NotePlacement]
    moves: list[BlockMove]

    @classmethod
    def of(cls, preview: PlanPreview) -> PreviewRecords:
        return cls(preview.placement_records(), preview.note_placement_records(), preview.move_records())

    def spots(self) -> list[BlockSpot]:
        return [*(p.spot for p in self.placements), *(n.spot for n in self.notes),
                *(m.target for m in self.moves), *(m.origin for m in self.moves)]


def _preview_days(calendar: Calendar, records: PreviewRecords) -> list[date]:
    return [calendar.date_of(spot.week, spot.day) for spot in records.spots()]


def _class_days(user: User, class_ids: list[int]) -> list[date]:
    spans = TaskClass.objects.filter(user=user, pk__in=class_ids).values_list("start_date", "end_date")
    return [day for span in spans for day in span]


def _overlaid(board: Board, records: PreviewRecords) -> Board:
    changed: dict[int, Entry] = {}
    for placement in records.placements:
        entry = _waiting(board.find(item_id=placement.item_id))
        changed[entry.id] = _placed(board, entry, placement.spot)
    for note in records.notes:
        entry = _waiting(board.find(task_id=note.task_id))
        changed[entry.id] = _placed(board, entry, note.spot)
    for move in records.moves:
        moved = _moved_entry(board, move)
        if moved is None or moved.origin != _position(board, move.origin):
            raise _out_of_date()
        changed[moved.id] = _placed(board, moved, move.target)
    return replace(board, entries=tuple(changed.get(e.id, e) for e in board.entries))


def _moved_entry(board: Board, move: BlockMove) -> Entry | None:
    if move.item_id is not None:
        return board.find(item_id=move.item_id)
    if move.task_id is not None:
        return board.find(task_id=move.task_id)
    return board.find(event_id=move.event_id)


def _waiting(entry: Entry | None) -> Entry:
    if entry is None or entry.origin is not None:
        raise _out_of_date()
    return entry


def _placed(board: Board, entry: Entry, spot: BlockSpot) -> Entry:
    where = _position(board, spot)
    return replace(entry, length=where.length, place=where)


def _position(board: Board, spot: BlockSpot) -> Position:
    host = None
    if spot.host_event_id is not None:
        found = board.find(event_id=spot.host_event_id)
        if found is None:
            raise _out_of_date()
        host = found.id
    return Position(board.calendar.date_of(spot.week, spot.day), spot.start_section, spot.end_section, host)


def _out_of_date() -> ConflictError:
    return ConflictError(_("A block of this preview was placed or removed meanwhile; plan again."),
                         code="item_changed")


# --- Board to preview rows ----------------------------------------------------------------------------

def preview_content(board: Board, *, reasons: Mapping[int, tuple[str, str]] | None = None,
                    placement_reasons: Mapping[int, dict] | None = None) -> dict[str, list]:
    """The board's changes as a preview's rows, in time order; waiting items say why (``reasons`` by item),
    placed and moved study blocks too (``placement_reasons`` by item: schedule.core.planning.reasons)."""
    changes = board_changes(board)
    reasons = reasons or {}
    why = placement_reasons or {}
    return {
        "placements": [{"item_id": e.item_id, "class_id": e.class_id, **_coords(board, e.place),
                        **_why(why, e.item_id)} for e in changes.placements],
        "moves": [{"kind": e.kind.value, "item_id": e.item_id, "task_id": e.task_id, "event_id": e.event_id,
                   "class_id": e.class_id, "from": _coords(board, e.origin), "to": _coords(board, e.place),
                   **_why(why, e.item_id)} for e in changes.moves],
        "task_placements": [{"task_id": e.task_id, **_coords(board, e.place)} for e in changes.notes],
        "unplaced": [_unplaced(e, reasons.get(e.item_id, NOT_PLACED)) for e in changes.unplaced],  # type: ignore[arg-type]
    }


def _why(placement_reasons: Mapping[int, dict], item_id: int | None) -> dict[str, Any]:
    reason = placement_reasons.get(item_id) if item_id is not None else None
    return {"reason": reason} if reason else {}


def spot_of(board: Board, where: Position) -> BlockSpot:
    """Where a board position is, as the tables say it: week, day, sections and the hosting meeting."""
    week, day = board.calendar.week_day(where.day)
    host = board.get(where.host) if where.host is not None else None
    return BlockSpot(week=week, day=day, start_section=where.start, end_section=where.end,
                     host_event_id=host.event_id if host is not None else None)


def _coords(board: Board, where: Position | None) -> dict[str, Any]:
    assert where is not None
    return spot_of(board, where).to_json()


def _unplaced(entry: Entry, reason: tuple[str, str]) -> dict[str, Any]:
    return {"item_id": entry.item_id, "class_id": entry.class_id, "reason": reason[0], "detail": reason[1]}
