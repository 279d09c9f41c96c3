"""Typed records of what a preview proposes and a change set wrote, with their one JSON reader.

``PlanPreview`` and ``ChangeSet`` keep these as JSON columns (their stored shape is the API's too, so it
never changes); code reads and writes them only through these records. Every record reads the JSON it
wrote, and ``from_json(to_json(x)) == x``. Keys a record does not know (a placement's ``reason``, read
by the presenters) are carried through unchanged in ``extra``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

JsonRow = dict[str, Any]


def _optional_int(value: object) -> int | None:
    return None if value is None else int(str(value))


def _optional_str(value: object) -> str | None:
    return None if value is None else str(value)


def _extra(row: Mapping[str, Any], known: Iterable[str]) -> dict[str, Any]:
    names = set(known)
    return {name: value for name, value in row.items() if name not in names}


@dataclass(frozen=True)
class BlockSpot:
    """Where a block sits: its own event in free time, or inside a filler course's meeting (``host_event_id``)."""

    week: int
    day: int
    start_section: int
    end_section: int
    host_event_id: int | None = None

    @property
    def sections(self) -> range:
        return range(self.start_section, self.end_section + 1)

    @property
    def embedded(self) -> bool:
        return self.host_event_id is not None

    def to_json(self) -> JsonRow:
        return {"week": self.week, "day": self.day, "start_section": self.start_section,
                "end_section": self.end_section, "host_event_id": self.host_event_id}

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> BlockSpot:
        return cls(week=int(row["week"]), day=int(row["day"]), start_section=int(row["start_section"]),
                   end_section=int(row["end_section"]), host_event_id=_optional_int(row.get("host_event_id")))


_SPOT_KEYS = ("week", "day", "start_section", "end_section", "host_event_id")


@dataclass(frozen=True)
class ItemPlacement:
    """A new study block a preview places (``PlanPreview.placements``)."""

    item_id: int
    class_id: int
    spot: BlockSpot
    reason: Mapping[str, Any] | None = None  # why the planner put it there (schedule.core.planning.reasons)
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def placed_at(self) -> BlockSpot:
        return self.spot

    def to_json(self) -> JsonRow:
        row = {"item_id": self.item_id, "class_id": self.class_id, **self.spot.to_json(), **self.extra}
        return {**row, "reason": self.reason} if self.reason else row

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> ItemPlacement:
        return cls(item_id=int(row["item_id"]), class_id=int(row["class_id"]),
                   spot=BlockSpot.from_json(row), reason=row.get("reason") or None,
                   extra=_extra(row, ("item_id", "class_id", "reason", *_SPOT_KEYS)))


@dataclass(frozen=True)
class NotePlacement:
    """A quick note a preview puts on the board (``PlanPreview.task_placements``)."""

    task_id: int
    spot: BlockSpot

    def to_json(self) -> JsonRow:
        return {"task_id": self.task_id, **self.spot.to_json()}

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> NotePlacement:
        return cls(task_id=int(row["task_id"]), spot=BlockSpot.from_json(row))


@dataclass(frozen=True)
class BlockMove:
    """An existing study or quick-note block moved from ``origin`` to ``target``.

    A preview proposes it (``PlanPreview.moves``); once applied, the change set keeps it with the event
    that now holds the block (``event_id_after``, None when it went into a filler course) for undo.
    A direct edit also records the block's name and its event's source (``title``, ``source``).
    """

    kind: str
    item_id: int | None
    task_id: int | None
    event_id: int | None
    origin: BlockSpot
    target: BlockSpot
    class_id: int | None = None
    title: str | None = None
    source: str | None = None
    event_id_after: int | None = None
    applied: bool = False  # whether event_id_after is known (a preview's move is not applied yet)
    reason: Mapping[str, Any] | None = None  # why the planner moved it there
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def placed_at(self) -> BlockSpot:
        return self.target

    def applied_as(self, event_id_after: int | None) -> BlockMove:
        return replace(self, event_id_after=event_id_after, applied=True)

    def to_json(self) -> JsonRow:
        row: JsonRow = {"kind": self.kind, "item_id": self.item_id, "task_id": self.task_id,
                        "event_id": self.event_id, "class_id": self.class_id,
                        "from": self.origin.to_json(), "to": self.target.to_json(), **self.extra}
        if self.title is not None:
            row["title"] = self.title
        if self.source is not None:
            row["source"] = self.source
        if self.applied:
            row["event_id_after"] = self.event_id_after
        if self.reason:
            row["reason"] = self.reason
        return row

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> BlockMove:
        known = ("kind", "item_id", "task_id", "event_id", "class_id", "from", "to", "title", "source",
                 "event_id_after", "reason")
        return cls(kind=str(row["kind"]), item_id=_optional_int(row.get("item_id")),
                   task_id=_optional_int(row.get("task_id")), event_id=_optional_int(row.get("event_id")),
                   origin=BlockSpot.from_json(row["from"]), target=BlockSpot.from_json(row["to"]),
                   class_id=_optional_int(row.get("class_id")), title=_optional_str(row.get("title")),
                   source=_optional_str(row.get("source")),
                   event_id_after=_optional_int(row.get("event_id_after")), applied="event_id_after" in row,
                   reason=row.get("reason") or None, extra=_extra(row, known))


@dataclass(frozen=True)
class RemovedBlock:
    """A block a direct edit took off the board, as it was, so undo can put it back (``ChangeSet.removed``).

    ``status`` is its study item's status before; ``status_after`` the one the edit left (a course change
    keeps a done or missed block's status; None: it waits again, ``pending``).
    """

    kind: str
    item_id: int | None
    task_id: int | None
    event_id: int | None
    source: str
    status: str
    origin: BlockSpot
    title: str
    location: str = ""
    note: str = ""
    status_after: str | None = None

    def to_json(self) -> JsonRow:
        row: JsonRow = {"kind": self.kind, "item_id": self.item_id, "task_id": self.task_id,
                        "event_id": self.event_id, "source": self.source, "status": self.status,
                        "from": self.origin.to_json(), "title": self.title, "location": self.location,
                        "note": self.note}
        if self.status_after is not None:
            row["status_after"] = self.status_after
        return row

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> RemovedBlock:
        return cls(kind=str(row["kind"]), item_id=_optional_int(row.get("item_id")),
                   task_id=_optional_int(row.get("task_id")), event_id=_optional_int(row.get("event_id")),
                   source=str(row["source"]), status=str(row["status"]), origin=BlockSpot.from_json(row["from"]),
                   title=str(row["title"]), location=str(row.get("location", "")), note=str(row.get("note", "")),
                   status_after=_optional_str(row.get("status_after")))


@dataclass(frozen=True)
class MarkedBlock:
    """A block a direct edit marked (``ChangeSet.marked``): a study item's status ``before`` -> ``after``,
    or a quick note completed (``task_id``)."""

    item_id: int | None
    task_id: int | None
    title: str
    before: str
    after: str

    def to_json(self) -> JsonRow:
        row: JsonRow = {"title": self.title, "before": self.before, "after": self.after}
        if self.item_id is not None:
            row["item_id"] = self.item_id
        if self.task_id is not None:
            row["task_id"] = self.task_id
        return row

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> MarkedBlock:
        return cls(item_id=_optional_int(row.get("item_id")), task_id=_optional_int(row.get("task_id")),
                   title=str(row.get("title", "")), before=str(row["before"]), after=str(row["after"]))
