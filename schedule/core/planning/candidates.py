"""Find the usable 2-section pairs of the grid and the candidate pairs of each class.

A pair is the tuple (week, day, k, host_event_id): sections 2k-1 and 2k of that day, either
free (host None) or wholly inside one embeddable event (host = its event id).  Pairs that
mix free time and a course, or two events, are never usable.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right

from schedule.core.planning.problem import DAYS_PER_WEEK, PAIRS_PER_DAY, ClassRequest


def day_key(week: int, day: int) -> int:
    """Return an integer that orders (week, day) chronologically."""
    return week * (DAYS_PER_WEEK + 1) + day


def usable_pairs(weeks: int, occupied: dict, pairs_per_day: int = PAIRS_PER_DAY) -> tuple[list[tuple], list[int]]:
    """Return every usable pair, chronologically, with the day key of each pair."""
    pairs: list[tuple] = []
    keys: list[int] = []
    for week in range(1, weeks + 1):
        for day in range(1, DAYS_PER_WEEK + 1):
            key = day_key(week, day)
            for k in range(1, pairs_per_day + 1):
                first = occupied.get((week, day, 2 * k - 1))
                second = occupied.get((week, day, 2 * k))
                if first is None and second is None:
                    pairs.append((week, day, k, None))
                elif first is not None and first == second and first[1]:
                    # Both sections belong to the same embeddable event.
                    pairs.append((week, day, k, first[0]))
                else:
                    continue
                keys.append(key)
    return pairs, keys


def class_candidates(pairs: list[tuple], keys: list[int], request: ClassRequest) -> list[int]:
    """Return the indexes of the pairs the class may use on an empty plan, chronologically."""
    # The pairs are chronological, so the window is one contiguous slice of them.
    low = bisect_left(keys, day_key(*request.start))
    high = bisect_right(keys, day_key(*request.end))
    excluded = request.excluded_slots
    excluded_days = request.excluded_days
    allow_filler = request.allow_filler
    return [i for i in range(low, high)
            if pairs[i][2] not in excluded and pairs[i][1] not in excluded_days
            and (allow_filler or pairs[i][3] is None)]
