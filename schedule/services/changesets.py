"""Record a change set: what one apply, direct edit or timetable change wrote, so undo can reverse it exactly.

The schedule owns its ``ChangeSet`` rows; the week board and the timetable editor describe what they
wrote and call ``changeset_record`` inside their own transaction. The typed records are turned into
the JSON the row keeps here, in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from accounts.models import User
from schedule.core.change_records import BlockMove, MarkedBlock, RemovedBlock
from schedule.models import ChangeSet, PlanPreview


def changeset_record(*, user: User, kind: str, preview: PlanPreview | None = None,
                     item_ids: Sequence[int] = (), task_ids: Sequence[int] = (),
                     event_ids: Sequence[dict[str, int]] = (), embedded_slot_ids: Sequence[int] = (),
                     moves: Sequence[BlockMove] = (), removed: Sequence[RemovedBlock] = (),
                     marked: Sequence[MarkedBlock] = (), timetable: dict[str, Any] | None = None) -> ChangeSet:
    """Write one change set of ``kind`` for ``user``; the caller's transaction holds it with the change itself."""
    return ChangeSet.objects.create(
        user=user, kind=kind, preview=preview, item_ids=list(item_ids), task_ids=list(task_ids),
        event_ids=list(event_ids), embedded_slot_ids=list(embedded_slot_ids),
        moves=[move.to_json() for move in moves], removed=[block.to_json() for block in removed],
        marked=[mark.to_json() for mark in marked], timetable=timetable if timetable is not None else {})
