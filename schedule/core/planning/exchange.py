"""Trade pairs between classes when that lowers the plan's total unevenness and lateness.

Polishing (spreading.py) only moves an item onto a pair nobody holds.  In a crowded plan
almost every pair is held, so a steady class that chose late keeps a long empty run where
other classes sit, and that one run dominates its evenness.  Here an item may also move onto
a pair another class holds, if that class can go elsewhere: it takes the moving item's old
pair (a swap) or a free pair of its own near the one it gives up (an ejection).  The moves tried:

* a steady item towards the middle of its two neighbours (evening out its two runs);
* a steady class's most crowded item into the middle of one of its widest runs (a run left by a
  block of another class's items is filled in one move, not step by step);
* one of a rapid class's latest items onto one of its earliest gaps.

Every class keeps its count and only ever uses its own candidates, so the plan stays valid and
places as many items as before.  A move is made only when it lowers the total cost

    sum over steady classes of evenness  +  RAPID_WEIGHT * sum over rapid classes of (1 - earliness)

(the measures of docs/planner-contract.md, per class, as the bench averages them), hence the
search always ends.  It is deterministic: classes, items and options are tried in a fixed
order, and the effort is bounded by a count of evaluated options, not by the clock.
"""
from __future__ import annotations

from bisect import bisect_left, insort
from math import sqrt

from schedule.core.planning.vocabulary import STEADY

# What one unit of rapid earliness is worth in units of steady evenness.  The two goals pull
# against each other where classes share pairs, and evenness (a coefficient of variation) moves far
# more per move than earliness.  4.5 keeps earliness at or above the original planner's on every
# measured batch while keeping evenness lowest; the measurements behind it (weights 1-10, convex and
# hinge lateness, a global flow start) are in docs/planner-contract.md, "Weighing the two goals".
RAPID_WEIGHT = 4.5
# How far from the middle of its neighbours a steady item looks for a better pair.
NEAR = 3
# A rapid class's latest items gain most from its earliest gaps; only this many are tried.
RAPID_TRIES = 6
# How many of a steady class's widest runs a gap-filling move tries, and how many of its most
# crowded items it offers to move there (more of either changed nothing measurable with swapping.py).
GAP_TRIES = 3
SPARE_TRIES = 3
# How far from a run's middle a gap-filling move looks for a pair whose holder can make room: in a
# crowded stretch the holders nearest the middle often cannot (1: evenness 0.66 on one fresh batch,
# 10: 0.57; beyond, no better on average and less predictable).  When no pair that near helps, the
# rest of the run is searched, nearest the middle first: in a saturated stretch the only class that
# can make room (one with a free pair) may hold only pairs far from the middle.  A class packed
# into the ends of its window by that had evenness 7.3; the batch's mean fell from 0.64 to 0.55.
GAP_REACH = 10
# Bound on evaluated options per item over the whole search (it converges well before).
BUDGET_PER_ITEM = 400
MAX_SWEEPS = 12
# A move must gain at least this much; smaller gains are rounding noise and could cycle.
MIN_GAIN = 1e-9


class ClassState:
    """One class's held positions (indexes into its candidate list) and its cost terms."""

    def __init__(self, pair_ids: list[int], positions: list[int], steady: bool) -> None:
        self.pair_ids = pair_ids
        self.index_of = {pair_id: x for x, pair_id in enumerate(pair_ids)}
        self.xs = positions                      # sorted, shared with the caller's list
        self.free: list[int] = []                # sorted positions whose pair nobody holds
        self.steady = steady
        size, count = len(pair_ids), len(positions)
        self.size = size
        self.mean_run = (size - count) / (count + 1)
        self.squares = _sum_of_squared_runs(positions, size)
        # Rapid lateness is linear in the sum of positions: 1 - earliness = scale * (sum - base).
        self.scale = RAPID_WEIGHT / (count * (size - count)) if 0 < count < size else 0.0

    def cost_of_squares(self, squares: int) -> float:
        """Return the evenness (coefficient of variation of the runs) for a sum of squared runs."""
        if self.mean_run <= 0:
            return 0.0
        variance = squares / (len(self.xs) + 1) - self.mean_run * self.mean_run
        return sqrt(variance) / self.mean_run if variance > 0 else 0.0

    def cost(self) -> float:
        """Return the class's term of the plan's cost: its evenness, or its weighted lateness."""
        if self.steady:
            return self.cost_of_squares(self.squares)
        count = len(self.xs)
        return self.scale * (sum(self.xs) - count * (count - 1) / 2)

    def move_gain(self, old: int, new: int) -> tuple[float, int]:
        """Return (cost decrease, new sum of squares) if the item at `old` moved to free position `new`."""
        if not self.steady:
            return self.scale * (old - new), 0
        squares = self.squares + _squares_change(self.xs, self.size, old, new)
        return self.cost_of_squares(self.squares) - self.cost_of_squares(squares), squares

    def apply(self, old: int, new: int, squares: int) -> None:
        """Move the item at `old` to `new`, with the sum of squares move_gain returned."""
        del self.xs[bisect_left(self.xs, old)]
        insort(self.xs, new)
        self.squares = squares


Users = dict[int, list[tuple[int, int]]]      # pair id -> (class, position) of the classes that may use it


def exchange(candidates: list[list[int]], positions: list[list[int]], strategies: list[str],
             pair_count: int) -> tuple[list[ClassState], list[int], Users]:
    """Improve the plan in place by moves onto held pairs (swaps and ejections); see the module docstring.

    Returns the ledger (see `ledger`) as the moves left it, for swapping.py to go on from.
    """
    states, owner, users = ledger(candidates, positions, strategies, pair_count)
    local_moves(states, owner, users)
    return states, owner, users


def plan_cost(states: list[ClassState]) -> float:
    """Return the plan's total cost (module docstring): what the moves lower and engine.py compares plans by."""
    return sum(state.cost() for state in states)


def ledger(candidates: list[list[int]], positions: list[list[int]], strategies: list[str],
           pair_count: int) -> tuple[list[ClassState], list[int], Users]:
    """Return every class's state, the class holding each pair (-1: nobody) and the users of each pair.

    The states share the lists of `positions`, so every move made through them reaches the caller.
    """
    owner = [-1] * pair_count
    states = [ClassState(pair_ids, held, strategy == STEADY)
              for pair_ids, held, strategy in zip(candidates, positions, strategies)]
    for cls, state in enumerate(states):
        for x in state.xs:
            owner[state.pair_ids[x]] = cls
    users: Users = {}
    for cls, state in enumerate(states):
        for x, pair_id in enumerate(state.pair_ids):
            users.setdefault(pair_id, []).append((cls, x))
            if owner[pair_id] < 0:
                state.free.append(x)
    return states, owner, users


def local_moves(states: list[ClassState], owner: list[int], users: Users) -> None:
    """Make the improving moves of the module docstring until none is left or the budget is spent."""
    budget = BUDGET_PER_ITEM * sum(len(state.xs) for state in states)
    # The first sweep looks at every item; later ones only at the items next to a position that
    # changed, since an untouched neighbourhood offers the same (rejected) moves as before.
    focus: list[set[int] | None] = [None] * len(states)
    for _ in range(MAX_SWEEPS):
        touched: list[set[int]] = [set() for _ in states]
        for cls, state in enumerate(states):
            # A rapid item wants the earliest positions its class does not hold; they are the same
            # for all its items, so find them once per sweep.
            earliest = [] if state.steady else _earliest_gaps(state.xs, 2 * NEAR)
            for x in _items_to_try(state, focus[cls]):
                if budget <= 0:
                    return
                steps, spent = _improve_item(cls, x, states, owner, earliest)
                budget -= spent
                if steps is not None:
                    apply_steps(steps, states, owner, users)
                    for mover, old, new, _ in steps:
                        touched[mover].update((old, new))
            if state.steady and (focus[cls] is None or focus[cls]):
                steps, spent = _fill_widest_run(cls, states, owner)
                budget -= spent
                if steps is not None:
                    apply_steps(steps, states, owner, users)
                    for mover, old, new, _ in steps:
                        touched[mover].update((old, new))
        if not any(touched):
            return
        focus = list(touched)


def _items_to_try(state: ClassState, changed: set[int] | None) -> list[int]:
    """Return the held positions to try: all of them, or those at or next to a changed position."""
    xs = state.xs
    if not state.steady:
        # Every rapid item wants the same earliest gaps and the latest gains most by taking them,
        # so only the latest few are tried (they still differ in what a swap offers the holder).
        return xs[-RAPID_TRIES:] if changed is None or changed else []
    if changed is None:
        return list(xs)
    near: set[int] = set()
    for position in changed:
        j = bisect_left(xs, position)
        near.update(xs[max(j - 1, 0):j + 2])
    return sorted(near)


Step = tuple[int, int, int, int]          # (class, position it leaves, position it takes, its new sum of squares)


def _improve_item(cls: int, x: int, states: list[ClassState], owner: list[int],
                  earliest: list[int]) -> tuple[list[Step] | None, int]:
    """Return the best improving move of the item at position x (a chain of steps), or None, and the options tried."""
    state = states[cls]
    best: tuple[float, list[Step]] | None = None
    tried = 0
    if owner[state.pair_ids[x]] != cls:
        return None, 0                 # another class's move displaced it earlier in this sweep
    wanted = _wanted_positions(state, x) if state.steady else [y for y in earliest if y < x]
    for y in wanted:
        holder = owner[state.pair_ids[y]]
        if holder == cls:
            continue
        gain, squares = state.move_gain(x, y)
        first = (cls, x, y, squares)
        tried += 1
        if holder < 0:
            options = [(gain, [first])]
        else:
            options = [(gain + more, [first, *steps])
                       for more, steps in _make_room(state.pair_ids[y], holder, state.pair_ids[x], states)]
            tried += len(options)
        for option in options:
            if option[0] > MIN_GAIN and (best is None or option[0] > best[0]):
                best = option
    return (None if best is None else best[1]), tried


def _make_room(pair_id: int, holder: int, spare_pair: int, states: list[ClassState]) -> list[tuple[float, list[Step]]]:
    """Return the ways the holder of `pair_id` can give it up, with their gains.

    The holder takes `spare_pair` (the pair the mover leaves: a swap) or a free pair of its own
    next to the one it gives up (an ejection).  Passing the item on through a third class as
    well gained 0.004 of rapid earliness on fresh batches for twice the planning time, so no.
    """
    other = states[holder]
    given = other.index_of[pair_id]
    targets = _nearest_free(other, given)
    spare = other.index_of.get(spare_pair)
    if spare is not None:
        targets.append(spare)
    options: list[tuple[float, list[Step]]] = []
    for target in targets:
        gain, squares = other.move_gain(given, target)
        options.append((gain, [(holder, given, target, squares)]))
    return options


def _fill_widest_run(cls: int, states: list[ClassState], owner: list[int]) -> tuple[list[Step] | None, int]:
    """Return the best move of a steady item from where it is crowded into the middle of a widest run.

    Moving an item between its neighbours evens runs out only step by step, and every step may
    need another class to make room; a run left by a block of another class's items is better
    filled in one move by an item its class can spare (the one whose two runs are shortest).
    """
    state = states[cls]
    xs = state.xs
    if len(xs) < 2:
        return None, 0
    bounds = [-1, *xs, state.size]
    runs = sorted(range(len(bounds) - 1), key=lambda i: (bounds[i] - bounds[i + 1], i))[:GAP_TRIES]
    spares = sorted(range(len(xs)), key=lambda j: (bounds[j + 2] - bounds[j], j))[:SPARE_TRIES]
    spare_pairs = [state.pair_ids[xs[j]] for j in spares]
    best: tuple[float, list[Step]] | None = None
    tried = 0
    for i in runs:
        low, high = bounds[i], bounds[i + 1]
        middle = (low + high) // 2
        for y in sorted(range(low + 1, high), key=lambda y: (abs(y - middle), y)):
            if abs(y - middle) > GAP_REACH and best is not None:
                break            # past the reach, look further only while nothing helps yet
            holder = owner[state.pair_ids[y]]
            if holder >= 0 and not _can_make_room(states[holder], spare_pairs):
                continue         # held by a class with no free pair and no use for the spares
            for j in spares:
                x = xs[j]
                gain, squares = state.move_gain(x, y)
                first = (cls, x, y, squares)
                options = ([(gain, [first])] if holder < 0 else
                           [(gain + more, [first, *steps]) for more, steps in
                            _make_room(state.pair_ids[y], holder, state.pair_ids[x], states)])
                tried += 1 + len(options)
                for option in options:
                    if option[0] > MIN_GAIN and (best is None or option[0] > best[0]):
                        best = option
    return (None if best is None else best[1]), tried


def _can_make_room(holder: ClassState, spare_pairs: list[int]) -> bool:
    """Return whether the holder has a free pair of its own or can use one of the spare pairs."""
    return bool(holder.free) or any(pair_id in holder.index_of for pair_id in spare_pairs)


def _wanted_positions(state: ClassState, x: int) -> list[int]:
    """Return the positions worth trying for the steady item at x: those nearest its neighbours' middle."""
    xs = state.xs
    j = bisect_left(xs, x)
    low = xs[j - 1] if j else -1
    high = xs[j + 1] if j + 1 < len(xs) else state.size
    if abs(2 * x - low - high) <= 1:
        return []            # already in the middle: moving cannot even out its runs
    middle = (low + high) // 2
    return [y for d in range(NEAR + 1) for y in ((middle - d, middle + d) if d else (middle,))
            if low < y < high and y != x]


def _earliest_gaps(xs: list[int], count: int) -> list[int]:
    """Return the first `count` positions not in the sorted list xs."""
    wanted: list[int] = []
    y = 0
    for held in xs:
        if len(wanted) >= count:
            break
        wanted.extend(range(y, min(held, y + count - len(wanted))))
        y = held + 1
    wanted.extend(range(y, y + count - len(wanted)))
    return wanted


def _nearest_free(state: ClassState, x: int) -> list[int]:
    """Return the nearest position on each side of x whose pair nobody holds."""
    free = state.free
    k = bisect_left(free, x)
    return free[max(k - 1, 0):k + 1]


def apply_steps(steps: list[Step], states: list[ClassState], owner: list[int], users: Users) -> None:
    """Carry out a chain of steps: every class leaves its pair first, then each takes its new one."""
    for cls, old, _, _ in steps:
        _set_owner(states[cls].pair_ids[old], -1, states, owner, users)
    # Each step's sum of squares only depends on its own class's list, so it stays exact.
    for cls, old, new, squares in steps:
        states[cls].apply(old, new, squares)
        _set_owner(states[cls].pair_ids[new], cls, states, owner, users)


def _set_owner(pair_id: int, cls: int, states: list[ClassState], owner: list[int], users: Users) -> None:
    """Give a pair to a class (-1: nobody), keeping every class's list of free positions exact."""
    was_free, now_free = owner[pair_id] < 0, cls < 0
    owner[pair_id] = cls
    if was_free == now_free:
        return
    for user, x in users[pair_id]:
        if now_free:
            insort(states[user].free, x)
        else:
            del states[user].free[bisect_left(states[user].free, x)]


def _sum_of_squared_runs(xs: list[int], size: int) -> int:
    """Return the sum of the squared empty runs before, between and after the sorted positions."""
    total, previous = 0, -1
    for x in xs:
        total += (x - previous - 1) ** 2
        previous = x
    return total + (size - previous - 1) ** 2


def _squares_change(xs: list[int], size: int, old: int, new: int) -> int:
    """Return how the sum of squared runs changes when the position `old` moves to `new` (not held)."""
    j = bisect_left(xs, old)
    before = xs[j - 1] if j else -1
    after = xs[j + 1] if j + 1 < len(xs) else size
    # Removing `old` merges its two runs.
    change = (after - before - 1) ** 2 - (old - before - 1) ** 2 - (after - old - 1) ** 2
    k = bisect_left(xs, new)
    low = xs[k - 1] if k else -1
    high = xs[k] if k < len(xs) else size
    # Skip `old` itself: it is no longer there when `new` is inserted.
    if low == old:
        low = before
    if high == old:
        high = after
    return change + (new - low - 1) ** 2 + (high - new - 1) ** 2 - (high - low - 1) ** 2
