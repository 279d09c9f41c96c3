"""Plan a Problem: candidates, fair counts, pair choice, polishing, per-class outcome."""
from __future__ import annotations

from schedule.core.planning.candidates import class_candidates, usable_pairs
from schedule.core.planning.placement import place_classes
from schedule.core.planning.problem import ClassOutcome, Problem
from schedule.core.planning.sharing import fair_pool
from schedule.core.planning.spreading import polish


def solve(problem: Problem) -> list[ClassOutcome]:
    """Return, per class, the pairs for its first items (chronologically) and its feasibility figures."""
    pairs, day_keys = usable_pairs(problem.weeks, problem.occupied, problem.pairs_per_day)
    candidates = [class_candidates(pairs, day_keys, request) for request in problem.classes]
    demands = [request.demand for request in problem.classes]
    strategies = [request.strategy for request in problem.classes]
    pool = fair_pool(candidates, demands)
    positions = place_classes(candidates, pool.placed, strategies, pool, len(pairs))
    polish(candidates, positions, strategies, len(pairs))
    return _outcomes(pairs, candidates, demands, positions)


def _outcomes(pairs: list[tuple], candidates: list[list[int]], demands: list[int],
              positions: list[list[int]]) -> list[ClassOutcome]:
    """Collect each class's pairs and count how its candidates are shared and used."""
    users: dict[int, int] = {}               # pair id -> classes with items that may use it
    holder: dict[int, int] = {}              # pair id -> class holding it in the plan
    for cls, pair_ids in enumerate(candidates):
        if demands[cls]:
            for pair_id in pair_ids:
                users[pair_id] = users.get(pair_id, 0) + 1
        for position in positions[cls]:
            holder[pair_ids[position]] = cls
    outcomes = []
    for cls, pair_ids in enumerate(candidates):
        own_use = 1 if demands[cls] else 0
        others = [holder[p] for p in pair_ids if holder.get(p, cls) != cls]
        outcomes.append(ClassOutcome(
            pairs=[pairs[pair_ids[x]] for x in sorted(positions[cls])],
            candidate_slots=len(pair_ids),
            shared_slots=sum(1 for p in pair_ids if users.get(p, 0) > own_use),
            taken_by_others=len(others),
            taken_by=tuple(sorted(set(others))),
        ))
    return outcomes
