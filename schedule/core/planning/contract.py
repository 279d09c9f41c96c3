"""Read a planning instance from, and write a planning result to, the JSON contract (v1).

The contract is ../shared/bench/planner/instance_format.md.  Unknown instance fields are
ignored.  The result carries the contract's fields: `placements`, `unplaced` (item ids),
`stats` and `warnings`.  The reason for each unplaced item and the per-class feasibility
figures go inside `stats`, an open object of which the checks read only `planning_ms`.
"""
from __future__ import annotations

from collections import namedtuple

from schedule.core.planning.problem import (
    DAYS_PER_WEEK,
    ITEM_SECTIONS,
    MAX_SECTIONS_PER_DAY,
    SECTIONS_PER_DAY,
    STRATEGIES,
    ClassLabel,
    ClassRequest,
    Problem,
)

PLANNER_NAME = "smartmate-planner/1"

# The validated instance; field orders follow the dataclasses of model.py.
ParsedInstance = namedtuple("ParsedInstance", "weeks occupied task_classes semester_start sections_per_day")
ParsedOccupied = namedtuple("ParsedOccupied", "event_id week day section embeddable name")
ParsedClass = namedtuple("ParsedClass", "id strategy start end items excluded_slots allow_filler name excluded_days")
ParsedItem = namedtuple("ParsedItem", "id sections content")


class InstanceError(ValueError):
    """The instance JSON does not follow the contract."""


# --------------------------------------------------------------------------- reading

def parse_instance(data: object) -> ParsedInstance:
    """Validate a contract instance object and return its fields; unknown fields are ignored."""
    data = _mapping(data, "the instance")
    weeks = _integer(data.get("weeks"), "weeks", low=1)
    # Extension beyond contract v1: a template of up to 16 sections (8 pairs).
    sections = _integer(data.get("sections_per_day", SECTIONS_PER_DAY), "sections_per_day", low=2,
                        high=MAX_SECTIONS_PER_DAY)
    occupied = [_parse_occupied(row, sections) for row in _list(data.get("occupied", []), "occupied")]
    classes = [_parse_class(tc, sections // 2) for tc in _list(data.get("task_classes", []), "task_classes")]
    class_ids = [tc.id for tc in classes]
    if len(set(class_ids)) != len(class_ids):
        raise InstanceError("duplicate task class id")
    item_ids = [item.id for tc in classes for item in tc.items]
    if len(set(item_ids)) != len(item_ids):
        raise InstanceError("duplicate item id")
    start = data.get("semester_start")
    return ParsedInstance(weeks, occupied, classes, start if isinstance(start, str) else None, sections)


def problem_from_parsed(parsed: ParsedInstance) -> tuple[Problem, list[ClassLabel]]:
    """Return the engine's problem and the ids to report in, from a parsed instance."""
    occupied = {(row.week, row.day, row.section): (row.event_id, row.embeddable) for row in parsed.occupied}
    requests = [ClassRequest(tc.strategy, tc.start, tc.end, tc.excluded_slots, tc.allow_filler, len(tc.items),
                             tc.excluded_days)
                for tc in parsed.task_classes]
    labels = [ClassLabel(tc.id, tc.strategy, [item.id for item in tc.items]) for tc in parsed.task_classes]
    return Problem(parsed.weeks, occupied, requests, parsed.sections_per_day // 2), labels


def _parse_occupied(row: object, sections_per_day: int) -> ParsedOccupied:
    """Validate one occupied-section row."""
    row = _mapping(row, "an occupied row")
    return ParsedOccupied(
        event_id=_integer(row.get("event_id"), "occupied.event_id"),
        week=_integer(row.get("week"), "occupied.week"),
        day=_integer(row.get("day"), "occupied.day", low=1, high=DAYS_PER_WEEK),
        section=_integer(row.get("section"), "occupied.section", low=1, high=sections_per_day),
        embeddable=bool(row.get("embeddable", False)),
        name=str(row.get("name") or ""),
    )


def _parse_class(data: object, pairs_per_day: int) -> ParsedClass:
    """Validate one task class and its items."""
    data = _mapping(data, "a task class")
    class_id = _integer(data.get("id"), "task_classes.id")
    strategy = data.get("strategy")
    if strategy not in STRATEGIES:
        raise InstanceError(f"class {class_id}: strategy must be one of {', '.join(STRATEGIES)}")
    start = _parse_day(data.get("start"), f"class {class_id}: start")
    end = _parse_day(data.get("end"), f"class {class_id}: end")
    if end < start:
        raise InstanceError(f"class {class_id}: the window ends before it starts")
    excluded = frozenset(_integer(k, f"class {class_id}: excluded slot", low=1, high=pairs_per_day)
                         for k in _list(data.get("excluded_slots", []), f"class {class_id}: excluded_slots"))
    excluded_days = frozenset(_integer(d, f"class {class_id}: excluded day", low=1, high=DAYS_PER_WEEK)
                              for d in _list(data.get("excluded_days", []), f"class {class_id}: excluded_days"))
    items = [_parse_item(item, class_id) for item in _list(data.get("items", []), f"class {class_id}: items")]
    return ParsedClass(class_id, strategy, start, end, items, excluded,
                       bool(data.get("allow_filler", False)), str(data.get("name") or ""), excluded_days)


def _parse_item(data: object, class_id: int) -> ParsedItem:
    """Validate one item; contract v1 items always take one 2-section pair."""
    data = _mapping(data, f"class {class_id}: an item")
    item_id = _integer(data.get("id"), f"class {class_id}: item id")
    sections = _integer(data.get("sections", ITEM_SECTIONS), f"item {item_id}: sections")
    if sections != ITEM_SECTIONS:
        raise InstanceError(f"item {item_id}: only {ITEM_SECTIONS}-section items are supported")
    return ParsedItem(item_id, sections, str(data.get("content") or ""))


def _parse_day(data: object, what: str) -> tuple[int, int]:
    """Validate a window end: (week, day)."""
    data = _mapping(data, what)
    return (_integer(data.get("week"), f"{what}.week", low=1),
            _integer(data.get("day"), f"{what}.day", low=1, high=DAYS_PER_WEEK))


def _integer(value: object, what: str, low: int | None = None, high: int | None = None) -> int:
    """Return value if it is an integer within [low, high]; raise InstanceError otherwise."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InstanceError(f"{what} must be an integer, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{low if low is not None else ''}..{high if high is not None else ''}"
        raise InstanceError(f"{what} must lie in {bounds}, got {value}")
    return value


def _list(value: object, what: str) -> list:
    """Return value if it is a list; raise InstanceError otherwise."""
    if not isinstance(value, list):
        raise InstanceError(f"{what} must be a list")
    return value


def _mapping(value: object, what: str) -> dict:
    """Return value if it is an object; raise InstanceError otherwise."""
    if not isinstance(value, dict):
        raise InstanceError(f"{what} must be an object")
    return value


# --------------------------------------------------------------------------- writing

def result_payload(placements: list, unplaced: list, classes: list, planning_ms: float | None = None) -> dict:
    """Return the contract result object for placement, unplaced and class rows (see problem.py)."""
    stats: dict = {"planner": PLANNER_NAME}
    if planning_ms is not None:
        stats["planning_ms"] = round(planning_ms, 3)
    stats["classes"] = [
        {"class_id": c.class_id, "strategy": c.strategy, "demand": c.demand, "placed": c.placed,
         "candidate_slots": c.candidate_slots, "slack": c.candidate_slots - c.demand,
         "shared_slots": c.shared_slots, "taken_by_other_classes": c.taken_by_other_classes,
         "taken_by_class_ids": list(c.taken_by_class_ids)}
        for c in classes
    ]
    stats["unplaced_reasons"] = [
        {"item_id": u.item_id, "class_id": u.class_id, "reason": u.reason, "detail": u.detail}
        for u in unplaced
    ]
    payload = {
        "placements": [
            {"item_id": p.item_id, "class_id": p.class_id, "week": p.week, "day": p.day,
             "section_start": p.section_start, "section_end": p.section_end, "host_event_id": p.host_event_id}
            for p in placements
        ],
        "unplaced": [u.item_id for u in unplaced],
        "stats": stats,
    }
    if unplaced:
        # One line per class that lost items (all its unplaced items share the reason).
        payload["warnings"] = "\n".join(dict.fromkeys(u.detail for u in unplaced))
    return payload


def error_payload(message: str) -> dict:
    """Return the result object for an instance that cannot be read."""
    return {"placements": [], "unplaced": [], "error": f"invalid instance: {message}"}
