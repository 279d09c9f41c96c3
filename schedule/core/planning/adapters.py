"""Convert between the dataclasses of model.py and the engine's plain values or the JSON contract."""
from __future__ import annotations

from datetime import date
from typing import Any, Optional

from schedule.core.planning.contract import parse_instance, result_payload
from schedule.core.planning.model import (
    ClassFeasibility,
    GridDay,
    ItemSpec,
    OccupiedSection,
    Placement,
    PlanningInstance,
    PlanningResult,
    TaskClassSpec,
    UnplacedItem,
)
from schedule.core.planning.problem import ClassLabel, ClassOutcome, ClassRequest, Problem
from schedule.core.planning.report import result_rows


def instance_from_json(data: dict[str, Any]) -> PlanningInstance:
    """Build a PlanningInstance from a contract instance object; raise InstanceError if it is malformed."""
    parsed = parse_instance(data)
    classes = tuple(
        TaskClassSpec(id=tc.id, strategy=tc.strategy, start=GridDay(*tc.start), end=GridDay(*tc.end),
                      items=tuple(ItemSpec(*item) for item in tc.items), excluded_slots=tc.excluded_slots,
                      allow_filler=tc.allow_filler, name=tc.name, excluded_days=tc.excluded_days)
        for tc in parsed.task_classes)
    return PlanningInstance(weeks=parsed.weeks, occupied=tuple(OccupiedSection(*row) for row in parsed.occupied),
                            task_classes=classes, semester_start=_iso_date(parsed.semester_start),
                            sections_per_day=parsed.sections_per_day)


def result_to_json(result: PlanningResult, planning_ms: Optional[float] = None) -> dict[str, Any]:
    """Return the contract result object for a PlanningResult."""
    return result_payload(result.placements, result.unplaced, result.classes, planning_ms)


def problem_from_instance(instance: PlanningInstance) -> tuple[Problem, list[ClassLabel]]:
    """Return the engine's problem and the ids to report in, from a PlanningInstance."""
    occupied = {(row.week, row.day, row.section): (row.event_id, row.embeddable) for row in instance.occupied}
    requests = [ClassRequest(tc.strategy, (tc.start.week, tc.start.day), (tc.end.week, tc.end.day),
                             frozenset(tc.excluded_slots), tc.allow_filler, tc.demand, frozenset(tc.excluded_days))
                for tc in instance.task_classes]
    labels = [ClassLabel(tc.id, tc.strategy, [item.id for item in tc.items]) for tc in instance.task_classes]
    return Problem(instance.weeks, occupied, requests, instance.sections_per_day // 2), labels


def result_from_outcomes(labels: list[ClassLabel], outcomes: list[ClassOutcome]) -> PlanningResult:
    """Build the PlanningResult from the engine's outcomes."""
    placements, unplaced, classes = result_rows(labels, outcomes)
    return PlanningResult(placements=tuple(Placement(*row) for row in placements),
                          unplaced=tuple(UnplacedItem(*row) for row in unplaced),
                          classes=tuple(ClassFeasibility(*row) for row in classes))


def _iso_date(value: Optional[str]) -> Optional[date]:
    """Parse an ISO date, or return None when it is missing or unreadable (it is informational)."""
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None
