"""Compute even targets, and polish a plan with the pairs nobody holds.

Positions are indexes into a class's candidate list.  A steady class is even when the empty
runs before its first item, between its items and after its last item are equal (evenness in
docs/planner-contract.md); a rapid class is early when it holds its first candidates (earliness).
"""
from __future__ import annotations

from bisect import insort

from schedule.core.planning.vocabulary import RAPID, STEADY

# A sweep moves every item at most once; polishing converges long before this many.
MAX_SWEEPS = 64


def even_targets(slot_count: int, item_count: int) -> list[int]:
    """Return item_count positions out of slot_count with equal empty runs before, between and after them.

    With fewer slots than items, every slot is returned.
    """
    if item_count <= 0 or slot_count < item_count:
        return list(range(min(max(item_count, 0), slot_count)))
    free = slot_count - item_count
    parts = item_count + 1
    # round((j + 1) * free / parts) + j, in integers so that the targets are exact and stable.
    return [((j + 1) * free * 2 + parts) // (2 * parts) + j for j in range(item_count)]


def polish(candidates: list[list[int]], positions: list[list[int]], strategies: list[str],
           pair_count: int, rounds: int = 2) -> None:
    """Move items onto pairs nobody holds when that evens out a steady class or advances a rapid one.

    Every class is fully placed by now, so moving an item to a free pair of its own candidate
    list keeps the plan valid and touches no other class.  Works in place on `positions`
    (sorted candidate positions per class).
    """
    owner = [-1] * pair_count
    for cls, class_positions in enumerate(positions):
        for position in class_positions:
            owner[candidates[cls][position]] = cls
    for _ in range(rounds):
        moved = False
        for cls, strategy in enumerate(strategies):
            if not positions[cls]:
                continue
            if strategy == STEADY:
                moved |= _even_out(cls, candidates[cls], positions[cls], owner)
            elif strategy == RAPID:        # a spaced class keeps its days (spaced.py settles it)
                moved |= _pull_forward(cls, candidates[cls], positions[cls], owner)
        if not moved:
            break


def _even_out(cls: int, pair_ids: list[int], xs: list[int], owner: list[int]) -> bool:
    """Move each item towards the middle of its neighbours while that lowers the sum of squared runs."""
    count = len(pair_ids)
    moved_any = False
    for _ in range(MAX_SWEEPS):
        moved = False
        for j, x in enumerate(xs):
            low = xs[j - 1] if j else -1
            high = xs[j + 1] if j + 1 < len(xs) else count
            best = _free_nearest_middle(low, high, x, pair_ids, owner)
            if best != x:
                owner[pair_ids[x]] = -1
                owner[pair_ids[best]] = cls
                xs[j] = best
                moved = True
        if not moved:
            break
        moved_any = True
    return moved_any


def _free_nearest_middle(low: int, high: int, x: int, pair_ids: list[int], owner: list[int]) -> int:
    """Return the free position strictly between low and high nearest to their middle, if nearer than x."""
    twice_middle = low + high
    current = abs(2 * x - twice_middle)
    left = twice_middle // 2
    right = twice_middle - left
    # left and right are equally far from the middle; widen until no better than x.
    while 2 * right - twice_middle < current:
        if low < left and owner[pair_ids[left]] < 0:
            return left
        if right < high and right != left and owner[pair_ids[right]] < 0:
            return right
        left -= 1
        right += 1
    return x


def _pull_forward(cls: int, pair_ids: list[int], xs: list[int], owner: list[int]) -> bool:
    """Move the latest items of a rapid class onto free earlier candidates."""
    moved = False
    position = 0
    while xs and position < xs[-1]:
        if owner[pair_ids[position]] < 0:
            owner[pair_ids[xs.pop()]] = -1
            owner[pair_ids[position]] = cls
            insort(xs, position)
            moved = True
        position += 1
    return moved

