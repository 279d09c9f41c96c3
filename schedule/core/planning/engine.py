"""Plan an instance: candidates, fair counts, pair choice, polishing, then the typed result."""
from __future__ import annotations

from schedule.core.planning.candidates import class_candidates, usable_pairs
from schedule.core.planning.model import PlanningInstance, PlanningResult
from schedule.core.planning.placement import place_classes
from schedule.core.planning.report import planning_result
from schedule.core.planning.sharing import fair_pool
from schedule.core.planning.spreading import polish


def plan(instance: PlanningInstance) -> PlanningResult:
    """Place as many items as possible, each class in item order, spread or packed by its strategy."""
    pairs, day_keys = usable_pairs(instance)
    classes = instance.task_classes
    candidates = [class_candidates(pairs, day_keys, spec) for spec in classes]
    demands = [spec.demand for spec in classes]
    strategies: list[str] = [spec.strategy for spec in classes]
    pool = fair_pool(candidates, demands)
    positions = place_classes(candidates, pool.placed, strategies, pool, len(pairs))
    polish(candidates, positions, strategies, len(pairs))
    return planning_result(classes, pairs, candidates, positions)
