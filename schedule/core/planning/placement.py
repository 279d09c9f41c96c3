"""Choose the pairs of every class in one pass through time, each pair to the class that needs it most.

Positions are indexes into a class's candidate list (its usable pairs, chronologically), the
scale the quality measures of docs/planner-contract.md use.  Every choice goes through the pool's
ledger, so the counts fixed by the maximum flow are always reached whatever the order.

The pairs are dealt out chronologically.  A steady class aims at evenly spaced targets over its
whole candidate list (the scale its evenness is measured on) and claims a pair once its next
target is due, that is at or before the pair's position; a rapid class claims every pair until
it has its count.  When several classes claim a pair, a steady class at least PATIENCE target
spacings behind goes first (the most behind first), then the rapid classes (least slack first),
then the steady classes only just due.  So
where classes share a stretch of time, each steady class gets its even share of it, interleaved,
and the rapid classes everything else, as early as they can.  A class that falls short of its
count (its last due pairs went to others) takes the free pairs nearest its remaining targets, or
its earliest free ones if it is rapid.

Why not class after class (what this replaced, least slack first, a rapid class's slack halved):
the classes choosing first took whole stretches, and a steady class choosing after them found
the shared part of its window full, packed its items into the part it had alone and kept a
long empty run where the others sat; the exchanges after (exchange.py, swapping.py) move items
one or two at a time and cannot open such a run.  Measured in process on over-booked batches
(gen.py --overbook yes, 24 instances each, seeds 4101-4105), with everything after placement
unchanged: steady evenness 0.669/0.957/0.835/0.879/0.504 -> 0.592/0.774/0.714/0.843/0.480, rapid
earliness still above the original planner's on every batch and on the public set
(docs/planner-contract.md, "Dealing pairs in time order").

Spaced classes (spaced.py) want given days rather than any spread: they choose first, each
target the free pair nearest to it.
"""
from __future__ import annotations

from schedule.core.planning.sharing import PairPool
from schedule.core.planning.spreading import even_targets
from schedule.core.planning.vocabulary import RAPID

# How far behind its targets (in its own target spacings) a steady class must be before its claim
# goes ahead of the rapid classes' claims; less behind, it claims after them.  Measured in process
# (module docstring): 0 (a due steady class always first) took the public set's rapid earliness
# below the original planner's (0.905 vs 0.914); 0.5 kept it above (0.916) with over-booked
# evenness 0.592/0.774/0.714/0.843/0.480; 1 and 2 were no better on either.
PATIENCE = 0.5

Claim = tuple[int, float, int, int]       # sort key of a claim on a pair: (rank, overdue, slack, class)


def place_classes(candidates: list[list[int]], quotas: list[int], strategies: list[str],
                  pool: PairPool, pair_count: int, spaced: dict[int, list[int]] | None = None) -> list[list[int]]:
    """Deal the pairs out in time order (module docstring); return, per class, the sorted candidate positions it gets.

    `spaced` holds the ideal positions of each spaced class (spaced.py); those classes choose first.
    """
    spaced = spaced or {}
    owner = [-1] * pair_count                      # pair id -> class holding it
    for cls, ideal in spaced.items():
        if quotas[cls] > 0:
            _take_targets(cls, candidates[cls], ideal, pool, owner)
    dealt = [cls for cls in range(len(candidates)) if cls not in spaced and quotas[cls] > 0]
    targets = {cls: even_targets(len(candidates[cls]), quotas[cls]) for cls in dealt if strategies[cls] != RAPID}
    taken = _deal_in_time_order(candidates, quotas, dealt, targets, pool, owner)
    for cls in dealt:
        if taken[cls] < quotas[cls]:
            if cls in targets:
                _take_targets(cls, candidates[cls], targets[cls][taken[cls]:], pool, owner)
            else:
                _take_earliest(cls, candidates[cls], quotas[cls] - taken[cls], pool, owner)
    return [[x for x, pair_id in enumerate(pair_ids) if owner[pair_id] == cls]
            for cls, pair_ids in enumerate(candidates)]


def _deal_in_time_order(candidates: list[list[int]], quotas: list[int], dealt: list[int],
                        targets: dict[int, list[int]], pool: PairPool, owner: list[int]) -> list[int]:
    """Give each free pair, chronologically, to the first claimant the ledger accepts; return each class's count."""
    claimants: dict[int, list[tuple[int, int]]] = {}     # pair id -> (class, position) that may use it
    for cls in dealt:
        for x, pair_id in enumerate(candidates[cls]):
            if owner[pair_id] < 0:
                claimants.setdefault(pair_id, []).append((cls, x))
    slack = [len(pair_ids) - quota for pair_ids, quota in zip(candidates, quotas)]
    spacing = {cls: 1 + slack[cls] / (quotas[cls] + 1) for cls in targets}
    taken = [0] * len(candidates)
    for pair_id in sorted(claimants):
        claims: list[Claim] = []
        for cls, x in claimants[pair_id]:
            if taken[cls] >= quotas[cls]:
                continue
            if cls not in targets:
                claims.append((1, 0.0, slack[cls], cls))
            elif (due := targets[cls][taken[cls]]) <= x:
                overdue = (x - due) / spacing[cls]
                claims.append((0 if overdue >= PATIENCE else 2, -overdue, slack[cls], cls))
        for *_, cls in sorted(claims):
            if pool.commit(cls, pair_id):
                owner[pair_id] = cls
                taken[cls] += 1
                break
    return taken


def _take_earliest(cls: int, pair_ids: list[int], count: int, pool: PairPool, owner: list[int]) -> None:
    """Give the class its earliest free pairs that keep every count reachable."""
    for pair_id in pair_ids:
        if count == 0:
            return
        if owner[pair_id] < 0 and pool.commit(cls, pair_id):
            owner[pair_id] = cls
            count -= 1


def _take_targets(cls: int, pair_ids: list[int], targets: list[int], pool: PairPool, owner: list[int]) -> None:
    """Give the class, per target position, the free pair nearest to it that the ledger accepts."""
    for target in targets:
        position = _nearest_committable(cls, pair_ids, target, pool, owner)
        if position is not None:
            owner[pair_ids[position]] = cls


def _nearest_committable(cls: int, pair_ids: list[int], target: int, pool: PairPool, owner: list[int]) -> int | None:
    """Return the free position nearest to `target` (earlier first on ties) that the ledger accepts."""
    size = len(pair_ids)
    for distance in range(size):
        for position in (target - distance, target + distance) if distance else (target,):
            if 0 <= position < size and owner[pair_ids[position]] < 0 and pool.commit(cls, pair_ids[position]):
                return position
    return None
