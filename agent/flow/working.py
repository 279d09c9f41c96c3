"""The conversation's working schedule: the ``schedule.core`` Board it edits, whose it is, and the work queue.

The turn state (``TurnState.working``) holds it as a ``Working``; the checkpoint stores it as JSON,
the board in the core's own format (``schedule.core.board_codec``)::

    {"format": "working", "version": 1, "user_id": 7, "board": {board_to_json(...)},
     "queue": {"pending", "current", "attempts", "completed", "skipped", "last_error"},
     "reasons": [{"item": 41, "day": "2026-09-24", "start": 5, "reason": {...}}, ...]}

``reasons`` are why the planner or a catch-up put a block where it is (``schedule.core.planning.reasons``),
each noted with the place it was given for: the preview carries a reason only while its block is still
there (a block moved since has none), and applying keeps it with the block, as on the planning page.

A checkpoint written before the board existed (the assistant's earlier dict, ``"version": 1``
without ``"format"``) is read through ``board_from_legacy_working``, so a conversation in progress
goes on with the same ids, suggestions and moves. Anything unreadable is dropped (and logged): the
turn then loads the schedule afresh when it needs one.

Pure: no Django. Loading from the database, the rough build and publishing are
``agent.tools.support.working_schedule``.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from schedule.core.board import Board, Entry, clock_at, with_clock
from schedule.core.board_codec import (
    BoardFormatError,
    board_from_json,
    board_from_legacy_working,
    board_to_json,
    is_legacy_working,
)

log = logging.getLogger("agent.flow.working")

FORMAT = "working"
VERSION = 1


@dataclass(frozen=True)
class WorkQueue:
    """The board entries the model works through one at a time (the ``queue_*`` tools)."""

    pending: tuple[int, ...] = ()
    current: int | None = None
    attempts: int = 0  # tries at placing ``current`` so far
    completed: tuple[int, ...] = ()
    skipped: tuple[int, ...] = ()
    last_error: str = ""  # why the last try at ``current`` was refused

    def to_json(self) -> dict[str, Any]:
        """Return the queue as the checkpoint stores it."""
        return {"pending": list(self.pending), "current": self.current, "attempts": self.attempts,
                "completed": list(self.completed), "skipped": list(self.skipped), "last_error": self.last_error}

    @classmethod
    def from_json(cls, data: object) -> WorkQueue:
        """Rebuild a stored queue; missing (or unreadable) parts take their empty values."""
        if not isinstance(data, Mapping):
            return cls()
        return cls(pending=tuple(data.get("pending", ())), current=data.get("current"),
                   attempts=data.get("attempts", 0), completed=tuple(data.get("completed", ())),
                   skipped=tuple(data.get("skipped", ())), last_error=data.get("last_error", ""))


@dataclass(frozen=True)
class Working:
    """The board the conversation edits, whose it is, and the model's work queue."""

    board: Board
    user_id: int
    queue: WorkQueue = field(default_factory=WorkQueue)
    reasons: Mapping[int, NotedReason] = field(default_factory=dict)  # by item id

    def with_board(self, board: Board) -> Working:
        return dataclasses.replace(self, board=board)

    def with_queue(self, queue: WorkQueue) -> Working:
        return dataclasses.replace(self, queue=queue)

    def with_reasons(self, by_item: Mapping[int, dict[str, Any]]) -> Working:
        """Note why these items' blocks sit where the board has them now (a newer reason replaces an older)."""
        noted = dict(self.reasons)
        for entry in self.board.entries:
            item_id = entry.item_id
            if item_id is not None and item_id in by_item and entry.place is not None:
                noted[item_id] = NotedReason(entry.place.day, entry.place.start, by_item[item_id])
        return dataclasses.replace(self, reasons=noted)

    def reasons_in_place(self) -> dict[int, dict[str, Any]]:
        """The noted reasons of blocks still where they were given for, by item id."""
        return {entry.item_id: reason for entry in self.board.entries
                if entry.item_id is not None and (reason := self.reason_of(entry)) is not None}

    def reason_of(self, entry: Entry) -> dict[str, Any] | None:
        """The noted reason of this block if it is still where the reason was given for, else None."""
        noted = self.reasons.get(entry.item_id) if entry.item_id is not None else None
        if noted is None or entry.place is None or (entry.place.day, entry.place.start) != (noted.day, noted.start):
            return None
        return noted.reason


@dataclass(frozen=True)
class NotedReason:
    """Why a block was put on ``day`` from section ``start`` (a reason of ``schedule.core.planning.reasons``)."""

    day: date
    start: int
    reason: dict[str, Any]

    def to_json(self, item_id: int) -> dict[str, Any]:
        return {"item": item_id, "day": self.day.isoformat(), "start": self.start, "reason": self.reason}


def _reasons_from(rows: object) -> dict[int, NotedReason]:
    """Read stored reasons; a row that cannot be read is left out (the block then just has no reason)."""
    noted: dict[int, NotedReason] = {}
    for row in rows if isinstance(rows, list) else []:
        try:
            item, start, reason = row["item"], row["start"], row["reason"]
            if type(item) is int and type(start) is int and isinstance(reason, dict):
                noted[item] = NotedReason(date.fromisoformat(row["day"]), start, reason)
        except (KeyError, TypeError, ValueError):
            continue
    return noted


def working_to_json(working: Working) -> dict[str, Any]:
    """Return the working schedule as the checkpoint stores it."""
    return {"format": FORMAT, "version": VERSION, "user_id": working.user_id, "board": board_to_json(working.board),
            "queue": working.queue.to_json(),
            "reasons": [noted.to_json(item_id) for item_id, noted in sorted(working.reasons.items())]}


def working_from_json(data: object, *, now: datetime) -> Working | None:
    """Read a stored working schedule, in either format; None when there is none or it cannot be read.

    ``now`` sets the clock of a legacy schedule, which stored none.
    """
    if not isinstance(data, Mapping):
        return None
    try:
        return _legacy_from(data, now) if is_legacy_working(data) else _current_from(data)
    except BoardFormatError as error:
        log.warning("Unreadable working schedule of user %s (%s %s); it will be loaded afresh", data.get("user_id"),
                    error.problem, error.detail)
        return None


def _current_from(data: Mapping[str, Any]) -> Working:
    if (data.get("format"), data.get("version")) != (FORMAT, VERSION):
        raise BoardFormatError("unknown_working_format", version=data.get("version"))
    return Working(board_from_json(data.get("board")), _user_id(data.get("user_id")),  # type: ignore[arg-type]
                   WorkQueue.from_json(data.get("queue")), _reasons_from(data.get("reasons")))


def _legacy_from(data: Mapping[str, Any], now: datetime) -> Working:
    legacy = board_from_legacy_working(data, now=now)
    return Working(legacy.board, _user_id(legacy.user_id), WorkQueue.from_json(legacy.queue))


def _user_id(value: object) -> int:
    # A schedule that does not say whose it is can be nobody's.
    if type(value) is not int:
        raise BoardFormatError("no_user", user_id=value)
    return value


def working_for(working: Working | None, *, user_id: int, now: datetime) -> Working | None:
    """The working schedule if it is this student's, its clock set to ``now``; None otherwise.

    The clock is set at every use: a stored board was measured when it was stored, and what has
    begun since (and so may no longer move) depends on the time now.
    """
    if working is None or working.user_id != user_id:
        return None
    return working.with_board(with_clock(working.board, clock_at(working.board.calendar, now)))
