"""The JSON contract adapter (v1): read a contract instance into a PlanningInstance, write a PlanningResult.

The contract is described in docs/planner-contract.md.  Unknown instance fields are ignored.
The result carries the contract's fields: `placements`, `unplaced` (item ids),
`stats` and `warnings`.  The reason for each unplaced item and the per-class feasibility
figures go inside `stats`, an open object of which the checks read only `planning_ms`.
"""
from __future__ import annotations

from datetime import date
from typing import Any

from schedule.core.planning.model import (
    GridDay,
    ItemSpec,
    OccupiedSection,
    PlanningInstance,
    PlanningResult,
    PlanningRules,
    ProtectedSections,
    StudyBlock,
    TaskClassSpec,
)
from schedule.core.planning.vocabulary import (
    DAYS_PER_WEEK,
    ITEM_SECTIONS,
    MAX_SECTIONS_PER_DAY,
    SECTIONS_PER_DAY,
    SPACED,
    STRATEGIES,
    Strategy,
)

PLANNER_NAME = "smartmate-planner/1"


class InstanceError(ValueError):
    """The instance JSON does not follow the contract."""


# --------------------------------------------------------------------------- reading

def instance_from_json(data: object) -> PlanningInstance:
    """Validate a contract instance object and return it typed; raise InstanceError if it is malformed."""
    data = _mapping(data, "the instance")
    weeks = _integer(data.get("weeks"), "weeks", low=1)
    # Extension beyond contract v1: a template of up to 16 sections (8 pairs).
    sections = _integer(data.get("sections_per_day", SECTIONS_PER_DAY), "sections_per_day", low=2,
                        high=MAX_SECTIONS_PER_DAY)
    occupied = tuple(_occupied(row, sections) for row in _list(data.get("occupied", []), "occupied"))
    classes = tuple(_task_class(tc, sections // ITEM_SECTIONS)
                    for tc in _list(data.get("task_classes", []), "task_classes"))
    class_ids = [tc.id for tc in classes]
    if len(set(class_ids)) != len(class_ids):
        raise InstanceError("duplicate task class id")
    item_ids = [item.id for tc in classes for item in tc.items]
    if len(set(item_ids)) != len(item_ids):
        raise InstanceError("duplicate item id")
    rules = _rules(data.get("rules"), weeks, sections)
    return PlanningInstance(weeks=weeks, occupied=occupied, task_classes=classes,
                            semester_start=_iso_date(data.get("semester_start")), sections_per_day=sections,
                            rules=rules)


def _rules(data: object, weeks: int, sections: int) -> PlanningRules | None:
    """Validate the student's rules (beyond contract v1): absent or null means none."""
    if data is None:
        return None
    data = _mapping(data, "rules")
    cap = data.get("daily_cap")
    latest = data.get("latest_section")
    protected = tuple(_protected(row, sections) for row in _list(data.get("protected", []), "rules.protected"))
    blocks = tuple(_study_block(row, weeks, sections) for row in _list(data.get("blocks", []), "rules.blocks"))
    return PlanningRules(
        daily_cap=None if cap is None else _integer(cap, "rules.daily_cap", low=1, high=sections),
        buffer=_integer(data.get("buffer", 0), "rules.buffer", low=0, high=sections),
        latest_section=None if latest is None else _integer(latest, "rules.latest_section", low=1, high=sections),
        protected=protected, blocks=blocks)


def _protected(row: object, sections: int) -> ProtectedSections:
    row = _mapping(row, "a protected time")
    first = _integer(row.get("first"), "rules.protected.first", low=1, high=sections)
    last = _integer(row.get("last", first), "rules.protected.last", low=first, high=sections)
    days = frozenset(_integer(d, "rules.protected.days", low=1, high=DAYS_PER_WEEK)
                     for d in _list(row.get("days", list(range(1, DAYS_PER_WEEK + 1))), "rules.protected.days"))
    return ProtectedSections(first=first, last=last, days=days, name=str(row.get("name") or ""))


def _study_block(row: object, weeks: int, sections: int) -> StudyBlock:
    row = _mapping(row, "a study block")
    start = _integer(row.get("section_start"), "rules.blocks.section_start", low=1, high=sections)
    return StudyBlock(week=_integer(row.get("week"), "rules.blocks.week", low=1, high=weeks),
                      day=_integer(row.get("day"), "rules.blocks.day", low=1, high=DAYS_PER_WEEK),
                      section_start=start,
                      section_end=_integer(row.get("section_end", start + 1), "rules.blocks.section_end",
                                           low=start, high=sections))


def _occupied(row: object, sections_per_day: int) -> OccupiedSection:
    """Validate one occupied-section row."""
    row = _mapping(row, "an occupied row")
    return OccupiedSection(
        event_id=_integer(row.get("event_id"), "occupied.event_id"),
        week=_integer(row.get("week"), "occupied.week"),
        day=_integer(row.get("day"), "occupied.day", low=1, high=DAYS_PER_WEEK),
        section=_integer(row.get("section"), "occupied.section", low=1, high=sections_per_day),
        embeddable=bool(row.get("embeddable", False)),
        name=str(row.get("name") or ""),
    )


def _task_class(data: object, pairs_per_day: int) -> TaskClassSpec:
    """Validate one task class and its items."""
    data = _mapping(data, "a task class")
    class_id = _integer(data.get("id"), "task_classes.id")
    strategy = next((known for known in STRATEGIES if known == data.get("strategy")), None)
    if strategy is None:
        raise InstanceError(f"class {class_id}: strategy must be one of {', '.join(STRATEGIES)}")
    start = _grid_day(data.get("start"), f"class {class_id}: start")
    end = _grid_day(data.get("end"), f"class {class_id}: end")
    if (end.week, end.day) < (start.week, start.day):
        raise InstanceError(f"class {class_id}: the window ends before it starts")
    excluded = frozenset(_integer(k, f"class {class_id}: excluded slot", low=1, high=pairs_per_day)
                         for k in _list(data.get("excluded_slots", []), f"class {class_id}: excluded_slots"))
    excluded_days = frozenset(_integer(d, f"class {class_id}: excluded day", low=1, high=DAYS_PER_WEEK)
                              for d in _list(data.get("excluded_days", []), f"class {class_id}: excluded_days"))
    items = tuple(_item(item, class_id)
                  for item in _list(data.get("items", []), f"class {class_id}: items"))
    return TaskClassSpec(id=class_id, strategy=strategy, start=start, end=end, items=items,
                         excluded_slots=excluded, allow_filler=bool(data.get("allow_filler", False)),
                         name=str(data.get("name") or ""), excluded_days=excluded_days,
                         exam=_exam(data, class_id, strategy, start, end))


def _exam(data: dict[str, object], class_id: int, strategy: Strategy, start: GridDay, end: GridDay) -> GridDay | None:
    """Validate a spaced class's exam day (beyond contract v1): required for it, inside its window."""
    if data.get("exam") is None:
        if strategy == SPACED:
            raise InstanceError(f"class {class_id}: a spaced class needs its exam day")
        return None
    exam = _grid_day(data.get("exam"), f"class {class_id}: exam")
    if (exam.week, exam.day) < (start.week, start.day) or (exam.week, exam.day) > (end.week, end.day):
        raise InstanceError(f"class {class_id}: the exam lies outside the window")
    return exam


def _item(data: object, class_id: int) -> ItemSpec:
    """Validate one item; contract v1 items always take one 2-section pair."""
    data = _mapping(data, f"class {class_id}: an item")
    item_id = _integer(data.get("id"), f"class {class_id}: item id")
    sections = _integer(data.get("sections", ITEM_SECTIONS), f"item {item_id}: sections")
    if sections != ITEM_SECTIONS:
        raise InstanceError(f"item {item_id}: only {ITEM_SECTIONS}-section items are supported")
    return ItemSpec(id=item_id, sections=sections, content=str(data.get("content") or ""))


def _grid_day(data: object, what: str) -> GridDay:
    """Validate a window end: (week, day)."""
    data = _mapping(data, what)
    return GridDay(week=_integer(data.get("week"), f"{what}.week", low=1),
                   day=_integer(data.get("day"), f"{what}.day", low=1, high=DAYS_PER_WEEK))


def _iso_date(value: object) -> date | None:
    """Parse an ISO date, or return None when it is missing or unreadable (it is informational)."""
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def _integer(value: object, what: str, low: int | None = None, high: int | None = None) -> int:
    """Return value if it is an integer within [low, high]; raise InstanceError otherwise."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InstanceError(f"{what} must be an integer, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{low if low is not None else ''}..{high if high is not None else ''}"
        raise InstanceError(f"{what} must lie in {bounds}, got {value}")
    return value


def _list(value: object, what: str) -> list[object]:
    """Return value if it is a list; raise InstanceError otherwise."""
    if not isinstance(value, list):
        raise InstanceError(f"{what} must be a list")
    return value


def _mapping(value: object, what: str) -> dict[str, object]:
    """Return value if it is an object; raise InstanceError otherwise."""
    if not isinstance(value, dict):
        raise InstanceError(f"{what} must be an object")
    return value


# --------------------------------------------------------------------------- writing

def result_to_json(result: PlanningResult, planning_ms: float | None = None) -> dict[str, Any]:
    """Return the contract result object for a PlanningResult, with the planning time if given."""
    stats: dict[str, Any] = {"planner": PLANNER_NAME}
    if planning_ms is not None:
        stats["planning_ms"] = round(planning_ms, 3)
    stats["classes"] = [
        {"class_id": c.class_id, "strategy": c.strategy, "demand": c.demand, "placed": c.placed,
         "candidate_slots": c.candidate_slots, "slack": c.slack,
         "shared_slots": c.shared_slots, "taken_by_other_classes": c.taken_by_other_classes,
         "taken_by_class_ids": list(c.taken_by_class_ids)}
        for c in result.classes
    ]
    stats["unplaced_reasons"] = [
        {"item_id": u.item_id, "class_id": u.class_id, "reason": u.reason, "detail": u.detail}
        for u in result.unplaced
    ]
    payload: dict[str, Any] = {
        "placements": [
            {"item_id": p.item_id, "class_id": p.class_id, "week": p.week, "day": p.day,
             "section_start": p.section_start, "section_end": p.section_end, "host_event_id": p.host_event_id}
            for p in result.placements
        ],
        "unplaced": [u.item_id for u in result.unplaced],
        "stats": stats,
    }
    if result.unplaced:
        # One line per class that lost items (all its unplaced items share the reason).
        payload["warnings"] = "\n".join(dict.fromkeys(u.detail for u in result.unplaced))
    return payload


def error_payload(message: str) -> dict[str, Any]:
    """Return the result object for an instance that cannot be read."""
    return {"placements": [], "unplaced": [], "error": f"invalid instance: {message}"}
