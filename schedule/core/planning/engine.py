"""Plan an instance: candidates, fair counts, pair choice, polishing, exchanges and swaps, then the result."""
from __future__ import annotations

from schedule.core.planning.candidates import Pair, class_candidates, usable_pairs
from schedule.core.planning.exchange import exchange
from schedule.core.planning.model import PlanningInstance, PlanningResult
from schedule.core.planning.placement import place_classes
from schedule.core.planning.report import planning_result
from schedule.core.planning.rules import solve_within_rules
from schedule.core.planning.sharing import fair_pool
from schedule.core.planning.spaced import class_targets, exam_days, frozen, restrict_to_exams, settle
from schedule.core.planning.spreading import polish
from schedule.core.planning.swapping import swap_pairs


def plan(instance: PlanningInstance) -> PlanningResult:
    """Place as many items as possible, each class in item order, spread or packed by its strategy."""
    return planning_result(instance.task_classes, *solve(instance))


def solve(instance: PlanningInstance) -> tuple[list[Pair], list[list[int]], list[list[int]]]:
    """Return the usable pairs, each class's candidate pair ids and the candidate positions it holds.

    With the student's rules (``instance.rules``), ``rules.solve_within_rules`` plans it within them.
    """
    if instance.rules:
        return solve_within_rules(instance, solve)
    pairs, day_keys = usable_pairs(instance)
    classes = instance.task_classes
    # A spaced class revises before its exam: only the pairs before the exam's day are its own.
    exams = exam_days(classes)
    candidates = restrict_to_exams(pairs, [class_candidates(pairs, day_keys, spec) for spec in classes], exams)
    demands = [spec.demand for spec in classes]
    strategies: list[str] = [spec.strategy for spec in classes]
    pool = fair_pool(candidates, demands)
    targets = class_targets(pairs, candidates, exams, pool.placed)
    positions = place_classes(candidates, pool.placed, strategies, pool, len(pairs), targets)
    polish(candidates, positions, strategies, len(pairs))
    settle(pairs, candidates, positions, targets, len(pairs))
    # Spaced items keep their days: the exchanges and swaps see each spaced class holding only its own pairs.
    swap_pairs(*exchange(*frozen(candidates, positions, exams), strategies, len(pairs)))
    return pairs, candidates, positions
