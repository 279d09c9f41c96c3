"""Minimum-churn repair: give displaced blocks new places, moving as few other blocks as possible.

A course, an event of the student's own or a re-import lands where study blocks sat; a missed
review sits in the past. Replanning from scratch would find places for them but move most of the
plan. ``repair`` instead takes the displaced blocks one by one, in class order, and for each:

1. the free place nearest to where it was (``anchor``: its old place, or today) that every rule of
   the editing core allows, class order kept: nothing else moves;
2. otherwise the cheapest way to make room, checked through the core too:
   * **order shift**: the block goes to the nearest free place after its predecessor, and the
     plan's later blocks up to it each take the next one's place (class order holds; the blocks
     moved are those between);
   * **exchange**: a block of another plan (not pinned, not begun) steps to its own nearest free
     place and the displaced block takes its place (one block moved);
   the option moving fewer blocks wins, then the nearer;
3. otherwise, the last resort: any chain of plans each giving way to the one before, found by a
   breadth-first search like one augmenting path of the kit oracle's maximum flow, so a repair places
   as many blocks as the oracle says can be placed (it may move more blocks; it is rarely needed);
4. otherwise it stays waiting (``unplaced``).

Pinned blocks (``Entry.pinned``) and blocks that have begun are never moved. Every step is an edit
of the core (``board_edits``), so a repaired board is valid by construction. Pure: no Django.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from schedule.core.board import Board, Entry, Kind, Spot
from schedule.core.board_edits import Move, OrderRule, Place, batch
from schedule.core.board_errors import BoardError
from schedule.core.board_rules import check_spot, in_the_way
from schedule.core.board_suggest import Opening, openings
from schedule.core.planning.reasons import Reason, catch_up_reason, repair_reason

# A path asks at most this many other plans to give way, and tries the best few places of each.
MAX_CHAIN = 2
MAX_BRANCHES = 6
# Places are first looked for within this many days of where a block wants to be (fast, and a near
# place moves fewer of its plan's blocks along); the whole window only when nothing near works.
NEAR_DAYS = 14
# The last resort tries at most this many free places of the plan a chain ends in (each is one batch
# of the core; only an order the core refuses makes one fail).
MAX_FREE_TRIES = 24


@dataclass(frozen=True)
class RepairResult:
    """The repaired board, what moved and why."""

    board: Board
    placed: tuple[int, ...] = ()  # displaced entries given a place
    shifted: tuple[int, ...] = ()  # other entries moved to make room
    unplaced: tuple[int, ...] = ()  # displaced entries left waiting
    reasons: Mapping[int, Reason] = field(default_factory=dict)  # by entry id

    @property
    def moved_count(self) -> int:
        """Blocks that end up somewhere else: the displaced ones placed and the ones that made room."""
        return len(self.placed) + len(self.shifted)


def lift(board: Board, entry_ids: Iterable[int]) -> Board:
    """Take entries off their places (they keep their origin, so placing them again is a move)."""
    changed = {}
    for entry_id in entry_ids:
        entry = board.get(entry_id)
        if entry is not None and entry.place is not None:
            changed[entry_id] = replace(entry, place=None)
    return board.with_entries_unchecked(changed) if changed else board


def repair(board: Board, displaced: Sequence[int], *, catch_up: bool = False,
           item_numbers: Mapping[int, int] | None = None,
           anchors: Mapping[int, tuple[date, int]] | None = None) -> RepairResult:
    """Place every displaced entry (waiting on ``board``), in class order, moving as few others as possible.

    ``catch_up``: the entries are missed blocks from the past (their reason says when they were due).
    ``anchors``: where a waiting entry sat before it was displaced (day, first section), by entry id;
    it goes as near to that as it can (default: its origin, else today).
    """
    numbers = item_numbers or {}
    placed: list[int] = []
    shifted: set[int] = set()
    unplaced: list[int] = []
    reasons: dict[int, Reason] = {}
    todo = set(displaced)
    for entry_id in sorted(todo, key=lambda i: _class_order(board, i)):
        entry = board.get(entry_id)
        if entry is None or entry.place is not None:
            continue
        rules = _Rules(OrderRule.ALLOW if catch_up else OrderRule.KEEP, frozenset(todo), dict(anchors or {}))
        step = (_nearest_free(board, entry, rules) or _with_room(board, entry, rules, NEAR_DAYS)
                or _with_room(board, entry, rules, None) or _by_any_path(board, entry, rules))
        if step is None:
            unplaced.append(entry_id)
            continue
        board, others = step
        placed.append(entry_id)
        shifted.update(others)
        reasons[entry_id] = _with_pins(_reason(board, entry, numbers, catch_up=catch_up),
                                       _pins_passed(board, entry, _anchor(board, entry, rules)))
        for other in others:
            reasons[other] = repair_reason(item=_number(board.get(other), numbers), displaced=False)
    shifted -= set(placed)
    return RepairResult(board=board, placed=tuple(placed), shifted=tuple(sorted(shifted)),
                        unplaced=tuple(unplaced), reasons=reasons)


def _reason(board: Board, entry: Entry, numbers: Mapping[int, int], *, catch_up: bool) -> Reason:
    number = _number(entry, numbers)
    if catch_up and entry.origin is not None:
        week, day = board.calendar.week_day(entry.origin.day)
        return catch_up_reason(item=number, week=week, day=day)
    return repair_reason(item=number, displaced=True)


def _pins_passed(board: Board, entry: Entry, anchor: tuple[date, int]) -> int:
    """Pinned blocks between where the block wanted to be and where it went: places the repair could
    not free, because a pin is never moved."""
    placed = board.get(entry.id)
    if placed is None or placed.place is None:
        return 0
    low, high = sorted((anchor, (placed.place.day, placed.place.start)))
    return sum(1 for other in board.entries
               if getattr(other, "pinned", False) and other.place is not None and other.id != entry.id
               and low <= (other.place.day, other.place.start) <= high)


def _with_pins(reason: Reason, pins: int) -> Reason:
    return {**reason, "pins": pins} if pins else reason


def _number(entry: Entry | None, numbers: Mapping[int, int]) -> int | None:
    if entry is None:
        return None
    return numbers.get(entry.id, entry.order)


def _class_order(board: Board, entry_id: int) -> tuple[int, int, int]:
    entry = board.get(entry_id)
    if entry is None:
        return (0, 0, entry_id)
    return (entry.class_id or 0, entry.order if entry.order is not None else 0, entry_id)


@dataclass(frozen=True)
class _Rules:
    """How a repair checks order, and which entries it must not move to make room.

    A catch-up lets the core ``ALLOW`` any order and checks it itself among the blocks still ahead:
    a missed review placed again comes after reviews done since, which the student chose.
    """

    order: OrderRule
    protected: frozenset[int]
    anchors: Mapping[int, tuple[date, int]] = field(default_factory=dict)

    def edited(self, board: Board, edits: list[Place | Move]) -> Board:
        new = batch(board, edits, order=self.order)
        if self.order is OrderRule.ALLOW and not _future_order_kept(new, [e.entry for e in edits]):
            raise _OrderLost()
        return new


class _OrderLost(BoardError):
    code = "order_broken"


def _future_order_kept(board: Board, entry_ids: list[int]) -> bool:
    """No block not yet begun sits before an earlier item of its class that has not begun either."""
    for entry_id in entry_ids:
        entry = board.get(entry_id)
        if entry is None or not entry.ordered or entry.place is None:
            continue
        for other in board.class_members(entry.study_class):
            if other.place is None or other.id == entry.id or board.clock.has_begun(other.place.day,
                                                                                     other.place.start):
                continue
            first, second = (entry, other) if entry.study_order < other.study_order else (other, entry)
            if (second.at.day, second.at.start) <= (first.at.day, first.at.start):
                return False
    return True


# --- Step 1: a free place, nothing else moves --------------------------------------------------------

def _anchor(board: Board, entry: Entry, rules: _Rules | None = None) -> tuple[date, int]:
    """Where the block wants to be: where it sat, its old place, or today for one that never had a place."""
    if rules is not None and entry.id in rules.anchors:
        return rules.anchors[entry.id]
    if entry.origin is not None:
        return entry.origin.day, entry.origin.start
    return board.clock.today, 1


def _distance(anchor: tuple[date, int], day: date, start: int) -> tuple[int, int]:
    """How far a place is from the anchor, in sections of a day-long grid; later wins a tie."""
    gap = (day - anchor[0]).days * 100 + (start - anchor[1])
    return abs(gap), 0 if gap >= 0 else 1


def _by_nearness(board: Board, entry: Entry, found: Iterable[Opening], rules: _Rules | None = None) -> list[Opening]:
    anchor = _anchor(board, entry, rules)
    return sorted(found, key=lambda o: _distance(anchor, o.day, o.start))


def _nearest_free(board: Board, entry: Entry, rules: _Rules) -> tuple[Board, tuple[int, ...]] | None:
    for opening in _by_nearness(board, entry, openings(board, entry), rules):
        try:
            return rules.edited(board, [Place(entry.id, Spot(opening.day, opening.start))]), ()
        except BoardError:
            continue
    return None


# --- Step 2: make room: a path of plans, each taking one place from the next --------------------------

def _movable(board: Board, entry: Entry, protected: frozenset[int]) -> bool:
    return (entry.kind is Kind.STUDY and entry.place is not None and not board.is_locked(entry)
            and not getattr(entry, "pinned", False) and entry.id not in protected)


# One step of a path: the plan (class id) that takes a place, the place, and the block of another
# plan holding it (None: the place is free, and the path ends).
_Step = tuple[int, Spot, Entry | None]


def _with_room(board: Board, entry: Entry, rules: _Rules, near: int | None) -> tuple[Board, tuple[int, ...]] | None:
    """The cheapest way found to make room, like an augmenting path of the planner's maximum flow.

    The block's plan takes a place of its window: free, or held by a block of another plan, which
    then needs a place of its own window, and so on (at most ``MAX_CHAIN`` plans give way). A plan
    that takes a place outside the gap between its neighbours hands its places to its items in
    order again (the blocks between move along). Every candidate is checked by the core as one
    batch; the one moving the fewest blocks wins, the shorter path on a tie. ``near``: only places
    within that many days of where each block wants to be (None: the whole window).
    """
    best: tuple[Board, tuple[int, ...]] | None = None
    frontier: list[tuple[tuple[_Step, ...], Entry]] = [((), entry)]
    for depth in range(MAX_CHAIN + 1):
        deeper: list[tuple[tuple[_Step, ...], Entry]] = []
        for path, needy in frontier:
            for spot, holder in _places_for(board, needy, path, rules, near):
                step = (*path, (needy.class_id or 0, spot, holder))
                if holder is not None:
                    deeper.append((step, holder))
                    continue
                done = _path_applied(board, entry, step, rules, len(best[1]) if best is not None else None)
                if done is not None:
                    best = done
        # A longer path moves at least one block more than its length: stop once none can do better.
        if best is not None and len(best[1]) <= depth + 1:
            break
        frontier = deeper[:MAX_BRANCHES * MAX_BRANCHES]
        if not frontier:
            break
    return best


def _places_for(board: Board, needy: Entry, path: tuple[_Step, ...], rules: _Rules,
                near: int | None, limit: int | None = MAX_BRANCHES) -> list[tuple[Spot, Entry | None]]:
    """Places of the needy block's plan: free ones, then ones a movable block of a plan not yet on the
    path holds; inside the block's order gap first, then nearest to where it wants to be (at most
    ``limit`` of each kind; None: all)."""
    claimed = {spot for _cls, spot, _holder in path}
    leaving = {holder.id for _cls, _spot, holder in path if holder is not None} | {needy.id}
    on_path = {cls for cls, _spot, _holder in path} | {needy.class_id}
    rules_of = board.class_rules(needy.class_id) if needy.class_id is not None else None
    if rules_of is None:
        return []
    low, high = _order_gap(board, needy, rules)
    anchor = _anchor(board, needy, rules)
    found: list[tuple[tuple[bool, bool, tuple[int, int]], Spot, Entry | None]] = []
    for day in board.days():
        if day not in rules_of.window or board.clock.has_begun(day, board.calendar.sections) \
                or (near is not None and abs((day - anchor[0]).days) > near):
            continue
        for start in range(1, board.calendar.sections - needy.length + 2, 2):
            spot = Spot(day, start)
            if spot in claimed:
                continue
            holder = _holder_at(board, needy, spot, leaving, on_path, rules)
            if holder is False:
                continue
            outside = not low < (day, start) < high
            found.append(((holder is not None, outside, _distance(anchor, day, start)), spot,
                          holder if isinstance(holder, Entry) else None))
    # The nearest few of each kind: a free place far outside the gap shifts many of the plan's own
    # blocks, while a place another plan holds inside it may cost one block of that plan.
    free = sorted((row for row in found if row[2] is None), key=lambda row: row[0])[:limit]
    held = sorted((row for row in found if row[2] is not None), key=lambda row: row[0])[:limit]
    return [(spot, holder) for _key, spot, holder in [*free, *held]]


def _holder_at(board: Board, needy: Entry, spot: Spot, leaving: set[int], on_path: set[int | None],
               rules: _Rules) -> Entry | None | bool:
    """None when the block may take ``spot`` as it is, the movable block in its way, or False."""
    end = spot.start + needy.length - 1
    blockers = [e for e in board.overlapping(spot.day, spot.start, end, ignore=leaving) if not e.filler]
    holder = blockers[0] if len(blockers) == 1 else None
    if len(blockers) > 1 or (holder is not None and not (
            _movable(board, holder, rules.protected) and holder.length == needy.length
            and holder.class_id not in on_path and holder.at.start == spot.start)):
        return False
    ignore = leaving | ({holder.id} if holder is not None else set())
    try:
        check_spot(board, needy, spot.day, spot.start, needy.length,
                   in_the_way(board, spot.day, spot.start, end, ignore=ignore))
    except BoardError:
        return False
    return holder


def _by_any_path(board: Board, entry: Entry, rules: _Rules) -> tuple[Board, tuple[int, ...]] | None:
    """The last resort, exactly one augmenting path of the planner's (and the kit oracle's) maximum flow.

    The bounded search above looks at the nearest few places of at most three plans; on a full board
    the only way may run through more plans, or through a place far down the list. Here a
    breadth-first search over plans finds the shortest chain of plans, each taking a place another
    holds, that ends in a free place, whenever one exists: a plan's blocks are interchangeable for
    where they go, so one place held per plan is enough to reach it. It may move more blocks; it is
    only tried when nothing cheaper placed the block.
    """
    if entry.class_id is None:
        return None
    paths: dict[int, tuple[tuple[_Step, ...], Entry]] = {entry.class_id: ((), entry)}
    queue = deque([entry.class_id])
    while queue:
        path, needy = paths[queue.popleft()]
        places = _places_for(board, needy, path, rules, None, limit=None)
        free_tried = 0
        for spot, holder in places:
            if holder is None:
                free_tried += 1
                if free_tried > MAX_FREE_TRIES:
                    continue
                done = _path_applied(board, entry, (*path, (needy.class_id or 0, spot, None)), rules, None)
                if done is not None:
                    return done
            elif holder.class_id is not None and holder.class_id not in paths:
                paths[holder.class_id] = ((*path, (needy.class_id or 0, spot, holder)), holder)
                queue.append(holder.class_id)
    return None


def _path_applied(board: Board, entry: Entry, path: tuple[_Step, ...], rules: _Rules,
                  to_beat: int | None) -> tuple[Board, tuple[int, ...]] | None:
    """Run a path as one batch of the core: each plan on it hands its places, old ones less the one it
    gives up plus the one it takes, to its movable items in order. None when the core refuses, or when
    it would move at least ``to_beat`` other blocks (counted before asking the core: that is cheap)."""
    gains: dict[int, Spot] = {cls: spot for cls, spot, _holder in path}
    losses: dict[int, Entry] = {holder.class_id: holder for _cls, _spot, holder in path
                                if holder is not None and holder.class_id is not None}
    edits: list[Place | Move] = []
    for class_id, gained in gains.items():
        members = [m for m in board.class_members(class_id)
                   if m.id == entry.id or (m.place is not None and _movable(board, m, frozenset()))]
        if len({m.length for m in members}) > 1:
            return None
        lost = losses.get(class_id)
        spots = [m.place.spot for m in members if m.place is not None and (lost is None or m.id != lost.id)]
        spots = sorted([*spots, gained], key=lambda s: (s.day, s.start))
        for member, spot in zip(members, spots):
            if member.place is None:
                edits.append(Place(member.id, spot))
            elif member.place.spot != spot:
                edits.append(Move(member.id, spot))
    if to_beat is not None and len(edits) - 1 >= to_beat:
        return None
    try:
        new = rules.edited(board, edits)
    except BoardError:
        return None
    return new, tuple(e.entry for e in edits if e.entry != entry.id)


def _order_gap(board: Board, entry: Entry, rules: _Rules) -> tuple[tuple[date, int], tuple[date, int]]:
    """The places between the block's placed class neighbours (begun ones do not count in a catch-up)."""
    low, high = (date.min, 0), (date.max, 99)
    if not entry.ordered:
        return low, high
    for other in board.class_members(entry.study_class):
        if other.id == entry.id or other.place is None or other.order == entry.order:
            continue
        if rules.order is OrderRule.ALLOW and board.clock.has_begun(other.place.day, other.place.start):
            continue
        where = (other.place.day, other.place.start)
        if other.study_order < entry.study_order:
            low = max(low, where)
        else:
            high = min(high, where)
    return low, high
