"""Choose the pairs of every class, the class with the least room to spare first.

Positions are indexes into a class's candidate list (its usable pairs, chronologically), the
scale the quality measures of docs/planner-contract.md use.  Every choice goes through the pool's ledger,
so the counts fixed by the maximum flow are always reached whatever the order.

Order: the class with the least slack (candidates minus items) has the fewest ways to be
placed, so it chooses first; ties keep the order the user selected the classes in.  (Trying
"steady classes first" or "rapid classes first" as well and keeping the better plan moved
results along the evenness/earliness trade-off on the bench sets without improving both.)

A rapid class takes its earliest free candidates.  A steady class spreads its items evenly
over the candidates still free when its turn comes (aiming at its whole candidate list
instead would pile items up at the edges of the stretches earlier classes hold), each item
taking the free pair nearest to its target.
"""
from __future__ import annotations

from schedule.core.planning.model import RAPID
from schedule.core.planning.sharing import PairPool
from schedule.core.planning.spreading import even_targets


def place_classes(candidates: list[list[int]], quotas: list[int], strategies: list[str],
                  pool: PairPool, pair_count: int) -> list[list[int]]:
    """Let the classes choose, least slack first; return, per class, the sorted candidate positions it gets."""
    owner = [-1] * pair_count                      # pair id -> class holding it
    order = sorted(range(len(candidates)), key=lambda cls: (len(candidates[cls]) - quotas[cls], cls))
    for cls in order:
        if quotas[cls] <= 0:
            continue
        if strategies[cls] == RAPID:
            _take_earliest(cls, candidates[cls], quotas[cls], pool, owner)
        else:
            _take_spread(cls, candidates[cls], quotas[cls], pool, owner)
    return [[x for x, pair_id in enumerate(pair_ids) if owner[pair_id] == cls]
            for cls, pair_ids in enumerate(candidates)]


def _take_earliest(cls: int, pair_ids: list[int], count: int, pool: PairPool, owner: list[int]) -> None:
    """Give the class its earliest free pairs that keep every count reachable."""
    for pair_id in pair_ids:
        if count == 0:
            return
        if owner[pair_id] < 0 and pool.commit(cls, pair_id):
            owner[pair_id] = cls
            count -= 1


def _take_spread(cls: int, pair_ids: list[int], count: int, pool: PairPool, owner: list[int]) -> None:
    """Give the class pairs spread evenly over its free candidates, each nearest to its target."""
    free = [x for x, pair_id in enumerate(pair_ids) if owner[pair_id] < 0]
    for target in (free[i] for i in even_targets(len(free), count)):
        position = _nearest_committable(cls, pair_ids, target, pool, owner)
        if position is not None:
            owner[pair_ids[position]] = cls


def _nearest_committable(cls: int, pair_ids: list[int], target: int, pool: PairPool, owner: list[int]):
    """Return the free position nearest to `target` (earlier first on ties) that the ledger accepts."""
    size = len(pair_ids)
    for distance in range(size):
        for position in (target - distance, target + distance) if distance else (target,):
            if 0 <= position < size and owner[pair_ids[position]] < 0 and pool.commit(cls, pair_ids[position]):
                return position
    return None
