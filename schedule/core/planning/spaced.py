"""The "spaced" strategy: revision blocks at growing intervals backwards from an exam.

A spaced class names its exam's day.  Its items aim at ideal days 1, 2, 4, 7, 14, 21, 28, ... days
before the exam, as many as it has items, the last item nearest the exam and item 1 furthest
(class order is kept: the report gives a class's pairs to its items in time order).  Everything
else stays as for any class: only its candidates (free or filler pairs of its window, minus its
excluded pairs and days) are used, and only those before the exam's day.

Positions are indexes into the class's candidate list, as elsewhere in the planner.  A day index
counts days from Monday of week 1 (0), so "days before the exam" is a plain subtraction.
"""
from __future__ import annotations

from collections.abc import Sequence

from schedule.core.planning.candidates import Pair
from schedule.core.planning.model import TaskClassSpec
from schedule.core.planning.vocabulary import DAYS_PER_WEEK, SPACED

# The first intervals (days before the exam) revision research and students' own plans use; after
# the last one the gaps stay a week wide.
FIRST_INTERVALS = (1, 2, 4, 7, 14, 21)
WEEKLY = 7


def ideal_offsets(count: int) -> list[int]:
    """Return how many days before the exam each of `count` items should fall, item 1 first (furthest)."""
    offsets = list(FIRST_INTERVALS[:count])
    while len(offsets) < count:
        offsets.append(offsets[-1] + WEEKLY)
    return offsets[::-1]


def day_index(week: int, day: int) -> int:
    """Return the number of days from Monday of week 1 to (week, day)."""
    return (week - 1) * DAYS_PER_WEEK + (day - 1)


def before_exam(pairs: list[Pair], candidates: list[int], exam_day: int) -> list[int]:
    """Keep the candidate pair ids that fall on a day before the exam's (the exam day itself is the exam's)."""
    return [pair_id for pair_id in candidates if day_index(pairs[pair_id][0], pairs[pair_id][1]) < exam_day]


def spaced_targets(pairs: list[Pair], candidates: list[int], exam_day: int, count: int) -> list[int]:
    """Return, per item in class order, the candidate position on (or nearest to) its ideal day.

    On the ideal day itself the earliest pair is taken; when that day has no candidate the nearest
    day that has one wins, the later one on a tie (nearer the exam, still a revision before it).
    """
    days = [day_index(pairs[pair_id][0], pairs[pair_id][1]) for pair_id in candidates]
    if not days:
        return []
    targets = []
    for offset in ideal_offsets(count):
        ideal = exam_day - offset
        targets.append(min(range(len(days)), key=lambda x: (abs(days[x] - ideal), -days[x], x)))
    return targets


def spacing_error(placed_days: list[int], exam_day: int) -> float:
    """Return the mean |actual - ideal| days of the placed items of one class (in class order), 0 for none.

    The placed items are measured against the ideal days of as many items as were placed.
    """
    if not placed_days:
        return 0.0
    ideal = [exam_day - offset for offset in ideal_offsets(len(placed_days))]
    return sum(abs(actual - want) for actual, want in zip(sorted(placed_days), ideal)) / len(placed_days)


def polish_spaced(pair_ids: list[int], xs: list[int], targets: list[int], owner: list[int], cls: int,
                  days: list[int]) -> None:
    """Move each item onto a free candidate nearer its ideal day, staying between its neighbours.

    `xs` are the class's held positions (sorted, in place), `targets` the ideal positions of as
    many items, `days` the day index of each candidate position; `owner` maps pair id -> class.
    """
    for j, x in enumerate(xs):
        want = days[targets[j]]
        low = xs[j - 1] if j else -1
        high = xs[j + 1] if j + 1 < len(xs) else len(pair_ids)
        best = x
        for position in range(low + 1, high):
            if owner[pair_ids[position]] < 0 and abs(days[position] - want) < abs(days[best] - want):
                best = position
        if best != x:
            owner[pair_ids[x]] = -1
            owner[pair_ids[best]] = cls
            xs[j] = best


# --------------------------------------------------------------------------- the engine's steps

def exam_days(classes: Sequence[TaskClassSpec]) -> list[int | None]:
    """Return each class's exam day index if it is a spaced class with an exam, else None."""
    days: list[int | None] = []
    for spec in classes:
        exam = spec.exam
        days.append(day_index(exam.week, exam.day) if spec.strategy == SPACED and exam is not None else None)
    return days


def restrict_to_exams(pairs: list[Pair], candidates: list[list[int]], exams: list[int | None]) -> list[list[int]]:
    """Return the candidate lists with each spaced class's pairs on or after its exam day left out."""
    return [pair_ids if exam is None else before_exam(pairs, pair_ids, exam)
            for pair_ids, exam in zip(candidates, exams)]


def class_targets(pairs: list[Pair], candidates: list[list[int]], exams: list[int | None],
                  quotas: list[int]) -> dict[int, list[int]]:
    """Return the ideal positions of every spaced class, as many as it places."""
    return {cls: spaced_targets(pairs, candidates[cls], exam, quotas[cls])
            for cls, exam in enumerate(exams) if exam is not None and quotas[cls] > 0}


def settle(pairs: list[Pair], candidates: list[list[int]], positions: list[list[int]],
           targets: dict[int, list[int]], pair_count: int) -> None:
    """Move spaced items onto free pairs nearer their ideal days (after the other classes are polished)."""
    if not targets:
        return
    owner = [-1] * pair_count
    for cls, held in enumerate(positions):
        for x in held:
            owner[candidates[cls][x]] = cls
    for cls, wanted in targets.items():
        days = [day_index(pairs[pair_id][0], pairs[pair_id][1]) for pair_id in candidates[cls]]
        polish_spaced(candidates[cls], positions[cls], wanted, owner, cls, days)


def frozen(candidates: list[list[int]], positions: list[list[int]], exams: list[int | None]
           ) -> tuple[list[list[int]], list[list[int]]]:
    """Return candidates and positions where each spaced class may use only the pairs it holds.

    The exchange step then neither moves a spaced item (its class has no other pair) nor takes its
    pair (a holder gives a pair up only for one of its own candidates).  The other classes' lists
    are the caller's own objects, so the exchange's changes reach them.
    """
    if all(exam is None for exam in exams):
        return candidates, positions
    fixed_candidates, fixed_positions = [], []
    for pair_ids, held, exam in zip(candidates, positions, exams):
        if exam is None:
            fixed_candidates.append(pair_ids)
            fixed_positions.append(held)
        else:
            fixed_candidates.append([pair_ids[x] for x in held])
            fixed_positions.append(list(range(len(held))))
    return fixed_candidates, fixed_positions
