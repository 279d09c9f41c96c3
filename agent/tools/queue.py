"""The queue the model works through many blocks with, one at a time (shared by the queue tools)."""

from __future__ import annotations

import copy
from typing import Any

from agent.tools import board_text as text
from agent.tools.working_schedule import Working, queue_empty
from schedule.core.board import Entry


def queue_of(working: Working) -> dict[str, Any]:
    """A copy of the queue, to change and store with ``Working.with_queue``."""
    return copy.deepcopy(dict(working.queue)) or queue_empty()


def enqueue(working: Working, ids: list[int], *, reset: bool) -> tuple[Working, int]:
    """Append ids not yet seen (or start over with them); returns the new working and how many were added."""
    queue = queue_empty() if reset else queue_of(working)
    seen = set(queue["pending"]) | set(queue["completed"]) | set(queue["skipped"]) | {queue["current"]}
    added = [i for i in ids if i not in seen]
    queue["pending"].extend(added)
    return working.with_queue(queue), len(added)


def snapshot(working: Working) -> dict[str, Any]:
    """The queue's counts, its current entry and the next ones, as JSON for the model."""
    queue = working.queue
    current = working.board.get(queue["current"]) if queue["current"] is not None else None
    return {
        "pending_count": len(queue["pending"]), "completed_count": len(queue["completed"]),
        "skipped_count": len(queue["skipped"]), "current_attempt": queue["attempts"],
        "current": item_json(working, current) if current else None,
        "next_task_ids": queue["pending"][:5], "last_error": queue["last_error"],
    }


def item_json(working: Working, entry: Entry) -> dict[str, Any]:
    """One entry as compact JSON with its real place."""
    value: dict[str, Any] = {"task_id": entry.id, "name": entry.name, "kind": entry.kind.value,
                             "status": text.status_of(entry), "sections": entry.length}
    if entry.class_id is not None:
        value.update(task_class_id=entry.class_id, order=entry.order)
    if entry.place is not None:
        value["at"] = text.target_label(working.board, entry)
    return value
