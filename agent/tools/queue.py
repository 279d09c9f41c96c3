"""The queue the model works through many blocks with, one at a time (shared by the queue tools)."""

from __future__ import annotations

import copy
from typing import Any

from agent.tools import common
from agent.tools import working_ops as ops
from agent.tools.working_schedule import queue_empty


def queue_of(working: dict[str, Any]) -> dict[str, Any]:
    return working.get("queue") or queue_empty()


def with_queue(working: dict[str, Any], queue: dict[str, Any]) -> dict[str, Any]:
    new = copy.deepcopy(working)
    new["queue"] = queue
    return new


def enqueue(working: dict[str, Any], ids: list[int], *, reset: bool) -> tuple[dict[str, Any], int]:
    """Append ids not yet seen (or start over with them); returns the new working and how many were added."""
    queue = queue_empty() if reset else copy.deepcopy(queue_of(working))
    seen = set(queue["pending"]) | set(queue["completed"]) | set(queue["skipped"]) | {queue["current"]}
    added = [i for i in ids if i not in seen]
    queue["pending"].extend(added)
    return with_queue(working, queue), len(added)


def snapshot(working: dict[str, Any]) -> dict[str, Any]:
    """The queue's counts, its current entry and the next ones, as JSON for the model."""
    queue = queue_of(working)
    current = common.entry_or_none(working, queue["current"]) if queue["current"] is not None else None
    return {
        "pending_count": len(queue["pending"]), "completed_count": len(queue["completed"]),
        "skipped_count": len(queue["skipped"]), "current_attempt": queue["attempts"],
        "current": item_json(working, current) if current else None,
        "next_task_ids": queue["pending"][:5], "last_error": queue["last_error"],
    }


def item_json(working: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """One entry as compact JSON with its real place."""
    value = {"task_id": entry["id"], "name": entry["name"], "kind": entry["kind"],
             "status": "moved" if ops.is_moved(entry) else entry["status"], "sections": entry["sections"]}
    if entry.get("class_id") is not None:
        value.update(task_class_id=entry["class_id"], order=entry["order"])
    if entry.get("at"):
        value["at"] = common.target_label(working, entry)
    return value
