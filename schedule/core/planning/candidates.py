"""Find the usable 2-section pairs of the grid and the candidate pairs of each class.

A pair is sections 2k-1 and 2k of one day, either free or wholly inside one embeddable event
(a filler course).  Pairs that mix free time and a course, or two events, are never usable.

Inside the engine a pair is the private tuple (week, day, k, host_event_id or None), not a
dataclass: the grid of a large instance has about 800 usable pairs, and building them as frozen
dataclasses took longer than half of the rest of planning (measured: ~0.9 ms against ~0.17 ms
for the tuples on 840 pairs; planning a large bench instance takes ~2.5 ms).  Only the pairs
that hold an item become typed values, as `Placement`s, in report.py.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right

from schedule.core.planning.model import OccupiedSection, PlanningInstance, TaskClassSpec
from schedule.core.planning.vocabulary import DAYS_PER_WEEK

Pair = tuple[int, int, int, int | None]   # (week, day, pair index k, host event id or None)


def day_key(week: int, day: int) -> int:
    """Return an integer that orders (week, day) chronologically."""
    return week * (DAYS_PER_WEEK + 1) + day


def usable_pairs(instance: PlanningInstance) -> tuple[list[Pair], list[int]]:
    """Return every usable pair of the grid, chronologically, with the day key of each pair."""
    # A later row for the same section replaces an earlier one.
    occupied: dict[tuple[int, int, int], OccupiedSection] = {
        (row.week, row.day, row.section): row for row in instance.occupied}
    pairs: list[Pair] = []
    keys: list[int] = []
    pairs_per_day = instance.pairs_per_day
    for week in range(1, instance.weeks + 1):
        for day in range(1, DAYS_PER_WEEK + 1):
            key = day_key(week, day)
            for k in range(1, pairs_per_day + 1):
                first = occupied.get((week, day, 2 * k - 1))
                second = occupied.get((week, day, 2 * k))
                if first is None and second is None:
                    pairs.append((week, day, k, None))
                elif (first is not None and second is not None and first.event_id == second.event_id
                      and first.embeddable and second.embeddable):
                    # Both sections belong to the same embeddable event.
                    pairs.append((week, day, k, first.event_id))
                else:
                    continue
                keys.append(key)
    return pairs, keys


def class_candidates(pairs: list[Pair], keys: list[int], spec: TaskClassSpec) -> list[int]:
    """Return the indexes of the pairs the class may use on an empty plan, chronologically."""
    # The pairs are chronological, so the window is one contiguous slice of them.
    low = bisect_left(keys, day_key(spec.start.week, spec.start.day))
    high = bisect_right(keys, day_key(spec.end.week, spec.end.day))
    excluded = spec.excluded_slots
    excluded_days = spec.excluded_days
    allow_filler = spec.allow_filler
    return [i for i in range(low, high)
            if pairs[i][2] not in excluded and pairs[i][1] not in excluded_days
            and (allow_filler or pairs[i][3] is None)]
