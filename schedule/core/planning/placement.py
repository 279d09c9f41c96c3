"""Choose the pairs of every class, the class with the least room to spare first.

Positions are indexes into a class's candidate list (its usable pairs, chronologically), the
scale the quality measures of docs/planner-contract.md use.  Every choice goes through the pool's ledger,
so the counts fixed by the maximum flow are always reached whatever the order.

Order: the class with the least slack (candidates minus items) has the fewest ways to be
placed, so it chooses first; ties keep the order the user selected the classes in.  A rapid
class's slack counts half: it wants the front of its window, which any class choosing before it
takes a share of, while a steady class can use the whole of its window alike.  (Measured on
fresh bench batches with exchange.py after: plain least slack first left rapid earliness at or
below the original planner's on two batches in four, rapid classes always first left evenness
at 0.585 on one; half slack kept earliness above on all four, evenness 0.45-0.50 on three.)

A rapid class takes its earliest free candidates.  A steady class aims at evenly spaced
targets over its whole candidate list, the scale its evenness is measured on, each item taking
the free pair nearest to its target.  (Aiming at the candidates still free instead spreads a
late class evenly over the leftovers, which are themselves uneven in its own list; measured on
fresh bench batches, it left evenness 0.56 against 0.50 once exchange.py had repaired the items
piled up at the edges of stretches earlier classes hold.)
"""
from __future__ import annotations

from schedule.core.planning.sharing import PairPool
from schedule.core.planning.spreading import even_targets
from schedule.core.planning.vocabulary import RAPID

# The share of its slack a rapid class counts when the choosing order is set (module docstring).
RAPID_SLACK_SHARE = 0.5


def place_classes(candidates: list[list[int]], quotas: list[int], strategies: list[str],
                  pool: PairPool, pair_count: int, spaced: dict[int, list[int]] | None = None) -> list[list[int]]:
    """Let the classes choose, least slack first; return, per class, the sorted candidate positions it gets.

    `spaced` holds the ideal positions of each spaced class (spaced.py); it chooses first, since
    its items want given days rather than any spread.
    """
    spaced = spaced or {}
    owner = [-1] * pair_count                      # pair id -> class holding it
    order = sorted(range(len(candidates)), key=lambda cls: (
        cls not in spaced, _choosing_slack(candidates[cls], quotas[cls], strategies[cls]), cls))
    for cls in order:
        if quotas[cls] <= 0:
            continue
        if cls in spaced:
            _take_targets(cls, candidates[cls], spaced[cls], pool, owner)
        elif strategies[cls] == RAPID:
            _take_earliest(cls, candidates[cls], quotas[cls], pool, owner)
        else:
            _take_spread(cls, candidates[cls], quotas[cls], pool, owner)
    return [[x for x, pair_id in enumerate(pair_ids) if owner[pair_id] == cls]
            for cls, pair_ids in enumerate(candidates)]


def _choosing_slack(pair_ids: list[int], quota: int, strategy: str) -> float:
    """Return the slack that sets when a class chooses: candidates minus items, halved for a rapid class."""
    slack = len(pair_ids) - quota
    return slack * RAPID_SLACK_SHARE if strategy == RAPID else float(slack)


def _take_earliest(cls: int, pair_ids: list[int], count: int, pool: PairPool, owner: list[int]) -> None:
    """Give the class its earliest free pairs that keep every count reachable."""
    for pair_id in pair_ids:
        if count == 0:
            return
        if owner[pair_id] < 0 and pool.commit(cls, pair_id):
            owner[pair_id] = cls
            count -= 1


def _take_spread(cls: int, pair_ids: list[int], count: int, pool: PairPool, owner: list[int]) -> None:
    """Give the class pairs spread evenly over its candidates, each the free one nearest to its target."""
    for target in even_targets(len(pair_ids), count):
        position = _nearest_committable(cls, pair_ids, target, pool, owner)
        if position is not None:
            owner[pair_ids[position]] = cls


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
