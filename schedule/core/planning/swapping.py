"""Trade pairs between classes anywhere in their windows, guided by each pair's worth to each class.

exchange.py tries a few moves per item: towards the middle of its neighbours, into the widest
runs, onto the earliest gaps, and the holder of the pair taken goes to the mover's old pair or a
free pair next to the one it gives up.  In a saturated plan (a large instance, where nearly every
pair is held) the trades that help most are between pairs far apart: a steady class gives a pair
in a crowded stretch to a class that can use it and takes one in the middle of a wide run; a
rapid class hands a late pair to a steady class that wants it for an early one.  Trying every
pair against every other is far too slow (about 150 000 options per sweep on a large instance),
so each sweep first prices every pair for every class:

* what a class gains by giving up a pair it holds (`release`), and
* what it gains by taking a pair it does not hold (`take`),

both to first order in the cost of exchange.py (a steady class's evenness moves with the sum of
its squared runs; a rapid class's lateness is linear in its positions).  Class A taking pair q
from its holder B then gains about take_A(q) + release_B(q) plus the best way B is paid back,
which to first order does not depend on q: B takes a pair p of A (a swap: release_A(p) +
take_B(p), the best few p kept per class pair), a free pair of its own (A's p stays empty), or
a pair r of a third class C, which takes A's p (r and p again the best few per class pair).
Only the best-scoring options are evaluated exactly (exchange.ClassState), and a trade is made
only when its exact gain is positive, so the cost falls at every step and each class keeps its
count and its own candidates, as in exchange.py.  The trades open new local moves, so those run
once more, then the trades again.  Deterministic; the effort is bounded by sweeps and options,
not the clock.

Measured in process on 24 batches of 50 generated instances (15 fresh, 9 kept as the worst of
earlier sessions), against the planner without these trades (rapid weight 3 then): mean steady
evenness 0.477 -> 0.448, worst fresh batch 0.608 -> 0.553, worst kept batch 0.685 -> 0.638;
mean rapid earliness margin over the original +0.024 -> +0.028, worst batch -0.004 -> +0.001
(exchange.RAPID_WEIGHT says how the weight was chosen); about 2.5 ms more per instance (15 ms on
a large one).  Chains through a third class took the worst batch from 0.609 to 0.595 at weight 3.
"""
from __future__ import annotations

from schedule.core.planning.exchange import MIN_GAIN, ClassState, Step, Users, apply_steps, local_moves

# Sweeps over all classes; each reprices the pairs (the prices go stale as swaps are made).
MAX_SWEEPS = 6
# Per class and sweep, how many of the best-scoring pairs it could take are evaluated exactly,
# and for each, how many of the pairs it could give in return.
TAKE_TRIES = 8
GIVE_TRIES = 3
# A trade through a third class (or a free pair) combines two of those lists: only the
# combinations of their best entries are evaluated, ranks adding up to less than this.
COMBINED_RANKS = 3
# A steady class already even has a zero slope of evenness in its sum of squares' root; this
# floor on its evenness keeps its price of a change finite (and large).
MIN_EVENNESS = 0.05


def swap_pairs(states: list[ClassState], owner: list[int], users: Users) -> None:
    """Make improving swaps, then exchange.py's local moves again (the swaps open new ones), then swaps again."""
    if _swap_sweeps(states, owner, users):
        local_moves(states, owner, users)
        _swap_sweeps(states, owner, users)


def _swap_sweeps(states: list[ClassState], owner: list[int], users: Users) -> bool:
    """Make improving swaps between classes (and moves onto free pairs) until none is found; return whether any was."""
    any_moved = False
    for _ in range(MAX_SWEEPS):
        prices = [_prices(state) for state in states]
        gives = _best_gives(states, prices, users)
        free_takes = [_best_free_takes(take, owner) for _, take in prices]
        moved = False
        for cls, state in enumerate(states):
            if state.steady or state.scale:
                moved |= _improve_class(cls, states, owner, users, prices, gives, free_takes)
        if not moved:
            break
        any_moved = True
    return any_moved


def _prices(state: ClassState) -> tuple[dict[int, float], dict[int, float]]:
    """Return (release, take): the first-order gain of giving up each held pair / taking each other pair."""
    release: dict[int, float] = {}
    take: dict[int, float] = {}
    xs, pair_ids = state.xs, state.pair_ids
    if not state.steady:
        scale = state.scale
        held = set(xs)
        for x, pair_id in enumerate(pair_ids):
            if x in held:
                release[pair_id] = scale * x
            else:
                take[pair_id] = -scale * x
        return release, take
    slope = _evenness_slope(state)
    bounds = [-1, *xs, state.size]
    for j in range(len(bounds) - 1):
        low, high = bounds[j], bounds[j + 1]
        run = high - low - 1
        if j + 1 < len(bounds) - 1:
            after = bounds[j + 2] - high - 1
            # Giving up the item at `high` merges its two runs.
            release[pair_ids[high]] = -slope * ((run + after + 1) ** 2 - run * run - after * after)
        for y in range(low + 1, high):
            before = y - low - 1
            take[pair_ids[y]] = slope * (run * run - before * before - (run - 1 - before) ** 2)
    return release, take


def _evenness_slope(state: ClassState) -> float:
    """Return d(evenness)/d(sum of squared runs) at the class's current runs."""
    mean = state.mean_run
    if mean <= 0:
        return 0.0
    evenness = max(state.cost_of_squares(state.squares), MIN_EVENNESS)
    return 1.0 / (2.0 * (len(state.xs) + 1) * mean * mean * evenness)


Gives = dict[tuple[int, int], list[tuple[float, int]]]


def _best_gives(states: list[ClassState], prices: list[tuple[dict[int, float], dict[int, float]]],
                users: Users) -> Gives:
    """Return, per (giver, taker) class pair, the giver's held pairs best given to the taker (value, pair id).

    The taker -1 stands for nobody (the giver moves onto a free pair and its old pair stays empty).
    """
    gives: Gives = {}
    for giver, state in enumerate(states):
        release = prices[giver][0]
        for x in state.xs:
            pair_id = state.pair_ids[x]
            value = release[pair_id]
            gives.setdefault((giver, -1), []).append((value, pair_id))
            for taker, _ in users[pair_id]:
                if taker != giver:
                    gives.setdefault((giver, taker), []).append((value + prices[taker][1][pair_id], pair_id))
    for options in gives.values():
        options.sort(reverse=True)
        del options[GIVE_TRIES:]
    return gives


def _best_free_takes(take: dict[int, float], owner: list[int]) -> list[tuple[float, int]]:
    """Return the free pairs a class would best take (value, pair id), best first."""
    options = sorted(((value, pair_id) for pair_id, value in take.items() if owner[pair_id] < 0), reverse=True)
    return options[:GIVE_TRIES]


def _improve_class(cls: int, states: list[ClassState], owner: list[int], users: Users,
                   prices: list[tuple[dict[int, float], dict[int, float]]], gives: Gives,
                   free_takes: list[list[tuple[float, int]]]) -> bool:
    """Score every pair the class could take, evaluate the best exactly, make the improving moves.

    The holder of a pair taken goes to the pair the class gives (a swap), to a free pair of its
    own (the given pair stays empty), or to a pair of a third class, which takes the given pair.
    """
    take = prices[cls][1]
    alone = gives.get((cls, -1))
    if not alone:
        return False
    # Whoever holds a pair, the best way to make it give the pair up does not depend on the pair
    # (to first order), so find it once per holder.
    routes = {holder: _best_route(cls, holder, gives, free_takes, len(states)) for holder in range(len(states))
              if holder != cls}
    routes[-1] = (alone[0][0], -1)
    scored: list[tuple[float, int, int, int]] = []
    for pair_id, value in take.items():
        holder = owner[pair_id]
        if holder == cls:
            continue                    # taken by this class since the prices were made
        route_value, via = routes[holder]
        score = value + route_value + (prices[holder][0].get(pair_id, 0.0) if holder >= 0 else 0.0)
        if score > MIN_GAIN:
            scored.append((score, pair_id, holder, via))
    scored.sort(reverse=True)
    moved = False
    for _, pair_id, holder, via in scored[:TAKE_TRIES]:
        if owner[pair_id] != holder:
            continue
        best: tuple[float, list[Step]] | None = None
        for moves in _routes(cls, pair_id, holder, via, gives, free_takes):
            option = _exact(moves, states, owner)
            if option is not None and option[0] > MIN_GAIN and (best is None or option[0] > best[0]):
                best = option
        if best is not None:
            apply_steps(best[1], states, owner, users)
            moved = True
    return moved


def _best_route(cls: int, holder: int, gives: Gives, free_takes: list[list[tuple[float, int]]],
                class_count: int) -> tuple[float, int]:
    """Return the first-order value and the way (`via`) a holder best gives a pair up to `cls`.

    via = holder: it takes a pair cls gives (a swap); -1: it takes a free pair and the pair cls
    gives stays empty; another class: it takes a pair of that class, which takes the pair cls gives.
    """
    direct = gives.get((cls, holder))
    best = (direct[0][0], holder) if direct else (float("-inf"), holder)
    alone = gives[(cls, -1)]
    if free_takes[holder] and free_takes[holder][0][0] + alone[0][0] > best[0]:
        best = (free_takes[holder][0][0] + alone[0][0], -1)
    for third in range(class_count):
        if third in (cls, holder):
            continue
        onward, back = gives.get((third, holder)), gives.get((cls, third))
        if onward and back and onward[0][0] + back[0][0] > best[0]:
            best = (onward[0][0] + back[0][0], third)
    return best


Move = tuple[int, int, int]            # (class, pair it leaves, pair it takes)


def _routes(cls: int, taken: int, holder: int, via: int, gives: Gives,
            free_takes: list[list[tuple[float, int]]]) -> list[list[Move]]:
    """Return the concrete move sets of one scored option: cls takes `taken` from `holder`, by way of `via`."""
    if holder < 0:
        return [[(cls, given, taken)] for _, given in gives[(cls, -1)]]
    if via == holder:
        return [[(cls, given, taken), (holder, taken, given)] for _, given in gives[(cls, holder)]]
    if via < 0:
        return [[(cls, given, taken), (holder, taken, spare)]
                for given, spare in _best_combinations(gives[(cls, -1)], free_takes[holder])]
    return [[(cls, given, taken), (holder, taken, passed), (via, passed, given)]
            for given, passed in _best_combinations(gives[(cls, via)], gives[(via, holder)])]


def _best_combinations(first: list[tuple[float, int]], second: list[tuple[float, int]]) -> list[tuple[int, int]]:
    """Return the pairs (one of each list, both best first) whose ranks add up to less than COMBINED_RANKS."""
    return [(a, b) for i, (_, a) in enumerate(first) for j, (_, b) in enumerate(second) if i + j < COMBINED_RANKS]


def _exact(moves: list[Move], states: list[ClassState], owner: list[int]) -> tuple[float, list[Step]] | None:
    """Return the exact gain and steps of the moves (one per class), or None if one is no longer possible."""
    gain = 0.0
    steps: list[Step] = []
    for mover, left, taken in moves:
        state = states[mover]
        old, new = state.index_of.get(left), state.index_of.get(taken)
        if old is None or new is None or old == new or owner[left] != mover:
            return None
        more, squares = state.move_gain(old, new)
        gain += more
        steps.append((mover, old, new, squares))
    # Every pair taken is left by another mover or free, so the plan stays one item per pair.
    left_pairs = {left for _, left, _ in moves}
    if any(owner[taken] >= 0 and taken not in left_pairs for _, _, taken in moves):
        return None
    return gain, steps
