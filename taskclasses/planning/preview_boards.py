"""A preview as a board and back: what the drag edits, and what a board stores as a preview.

A ``PlanPreview`` keeps rows (week, day, sections, host event): suggested study blocks
(``placements``), moves of blocks already on the timetable (``moves``) and quick-note blocks
(``task_placements``). ``preview_board`` lays them over the student's board, so the editing core
checks a drag against everything, the preview's other changes included; ``preview_content`` turns
a board's changes (``board_changes``) back into those rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date, datetime
from typing import Any

from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.board import Board, Calendar, Entry, Position, board_changes
from schedule.models import PlanPreview
from smartmate.platform.exceptions import ConflictError
from taskclasses.models import TaskClass
from taskclasses.planning.boards import board_load, calendar_get

NOT_PLACED = ("not_placed", "not placed in this conversation")


def preview_board(*, user: User, preview: PlanPreview, now: datetime) -> Board:
    """Return the student's board with the preview's changes in place.

    The window spans the preview's classes and every day it touches. A block that changed in
    the database since the preview was made is a ConflictError: the preview is out of date.
    """
    calendar = calendar_get(user=user)
    days = _preview_days(calendar, preview) + _class_days(user, preview.task_class_ids)
    board = board_load(user=user, now=now, first=min(days, default=None), last=max(days, default=None),
                       class_ids=preview.task_class_ids, task_ids=[n["task_id"] for n in preview.task_placements],
                       pending_notes=False, calendar=calendar)
    return _overlaid(board, preview)


def _preview_days(calendar: Calendar, preview: PlanPreview) -> list[date]:
    rows = [*preview.placements, *preview.task_placements, *(m["to"] for m in preview.moves),
            *(m["from"] for m in preview.moves)]
    return [calendar.date_of(row["week"], row["day"]) for row in rows]


def _class_days(user: User, class_ids: list[int]) -> list[date]:
    spans = TaskClass.objects.filter(user=user, pk__in=class_ids).values_list("start_date", "end_date")
    return [day for span in spans for day in span]


def _overlaid(board: Board, preview: PlanPreview) -> Board:
    changed: dict[int, Entry] = {}
    for row in preview.placements:
        entry = _waiting(board.find(item_id=row["item_id"]))
        changed[entry.id] = _placed(board, entry, row)
    for row in preview.task_placements:
        entry = _waiting(board.find(task_id=row["task_id"]))
        changed[entry.id] = _placed(board, entry, row)
    for row in preview.moves:
        moved = _moved_entry(board, row)
        if moved is None or moved.origin != _position(board, row["from"]):
            raise _out_of_date()
        changed[moved.id] = _placed(board, moved, row["to"])
    return replace(board, entries=tuple(changed.get(e.id, e) for e in board.entries))


def _moved_entry(board: Board, row: Mapping[str, Any]) -> Entry | None:
    if row.get("item_id") is not None:
        return board.find(item_id=row["item_id"])
    if row.get("task_id") is not None:
        return board.find(task_id=row["task_id"])
    return board.find(event_id=row["event_id"])


def _waiting(entry: Entry | None) -> Entry:
    if entry is None or entry.origin is not None:
        raise _out_of_date()
    return entry


def _placed(board: Board, entry: Entry, row: Mapping[str, Any]) -> Entry:
    where = _position(board, row)
    return replace(entry, length=where.length, place=where)


def _position(board: Board, row: Mapping[str, Any]) -> Position:
    host = None
    if row.get("host_event_id") is not None:
        found = board.find(event_id=row["host_event_id"])
        if found is None:
            raise _out_of_date()
        host = found.id
    return Position(board.calendar.date_of(row["week"], row["day"]), row["start_section"], row["end_section"], host)


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


def _coords(board: Board, where: Position | None) -> dict[str, Any]:
    assert where is not None
    week, day = board.calendar.week_day(where.day)
    host = board.get(where.host) if where.host is not None else None
    return {"week": week, "day": day, "start_section": where.start, "end_section": where.end,
            "host_event_id": host.event_id if host is not None else None}


def _unplaced(entry: Entry, reason: tuple[str, str]) -> dict[str, Any]:
    return {"item_id": entry.item_id, "class_id": entry.class_id, "reason": reason[0], "detail": reason[1]}
