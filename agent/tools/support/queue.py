"""The queue the model works through many blocks with, one at a time (shared by the queue tools)."""

from __future__ import annotations

import dataclasses
from typing import Any

from agent.flow.working import Working, WorkQueue
from agent.tools.support import board_text as text
from schedule.core.board import Entry


def enqueue(working: Working, ids: list[int], *, reset: bool) -> tuple[Working, int]:
    """Append ids not yet seen (or start over with them); returns the new working and how many were added."""
    queue = WorkQueue() if reset else working.queue
    seen = {*queue.pending, *queue.completed, *queue.skipped, queue.current}
    added = [i for i in ids if i not in seen]
    return working.with_queue(dataclasses.replace(queue, pending=(*queue.pending, *added))), len(added)


def head_taken(queue: WorkQueue) -> WorkQueue:
    """The queue with its next entry as the current one (unchanged while one is current or none waits)."""
    if queue.current is not None or not queue.pending:
        return queue
    return dataclasses.replace(queue, current=queue.pending[0], pending=queue.pending[1:], attempts=0, last_error="")


def head_completed(queue: WorkQueue) -> WorkQueue:
    """The queue with its current entry done."""
    assert queue.current is not None, "no current entry"
    return dataclasses.replace(queue, completed=(*queue.completed, queue.current), current=None, attempts=0,
                               last_error="")


def head_skipped(queue: WorkQueue) -> WorkQueue:
    """The queue with its current entry given up on."""
    assert queue.current is not None, "no current entry"
    return dataclasses.replace(queue, skipped=(*queue.skipped, queue.current), current=None, attempts=0,
                               last_error="")


def head_refused(queue: WorkQueue, reason: str) -> WorkQueue:
    """The queue after a refused try at its current entry: one more attempt, and why it failed."""
    return dataclasses.replace(queue, attempts=queue.attempts + 1, last_error=reason)


def snapshot(working: Working) -> dict[str, Any]:
    """The queue's counts, its current entry and the next ones, as JSON for the model."""
    queue = working.queue
    current = working.board.get(queue.current) if queue.current is not None else None
    return {
        "pending_count": len(queue.pending), "completed_count": len(queue.completed),
        "skipped_count": len(queue.skipped), "current_attempt": queue.attempts,
        "current": item_json(working, current) if current else None,
        "next_task_ids": list(queue.pending[:5]), "last_error": queue.last_error,
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
