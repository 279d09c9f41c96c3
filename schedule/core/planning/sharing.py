"""Share the pairs between classes: a maximum flow that fixes how many items each class places.

Items of one class are interchangeable for feasibility (same duration, window, excluded
pairs and filler permission), so only counts matter.  Pairs usable by exactly the same set
of classes form a group, and the network is tiny:

    class c --(its items)--> group g (if c may use g) --(pairs in g)--> sink

`fair_pool` grows this flow one augmenting path at a time.  A class from which no augmenting
path leaves never gets one later (augmenting only adds residual arcs between nodes that
already reach the sink), so growing until every class is full or stuck gives a maximum flow
whatever the order, which leaves the order free to be fair: when not everything fits, the
class with the smallest share placed so far goes next (water-filling).

The pool then serves as a ledger while pairs are chosen: `commit` accepts a pair only if the
counts of every class can still be reached, rerouting uncommitted units between groups when
needed, so choosing pairs one by one can never lose an item.
"""
from __future__ import annotations

import heapq
from collections import deque


class PairPool:
    """A flow from classes through groups of interchangeable pairs, and the pairs committed so far."""

    def __init__(self, candidates: list[list[int]], demands: list[int]) -> None:
        users: dict[int, list[int]] = {}
        for cls, pair_ids in enumerate(candidates):
            if demands[cls] > 0:
                for pair_id in pair_ids:
                    users.setdefault(pair_id, []).append(cls)
        group_index: dict[tuple[int, ...], int] = {}
        self.group_of: dict[int, int] = {}
        self.members: list[tuple[int, ...]] = []  # each group's classes
        self.capacity: list[int] = []
        for pair_id in sorted(users):
            key = tuple(users[pair_id])
            group = group_index.get(key)
            if group is None:
                group = group_index[key] = len(self.members)
                self.members.append(key)
                self.capacity.append(0)
            self.capacity[group] += 1
            self.group_of[pair_id] = group
        self.class_groups: list[list[int]] = [[] for _ in candidates]
        for group, members in enumerate(self.members):
            for member in members:
                self.class_groups[member].append(group)
        group_count = len(self.members)
        self.used = [0] * group_count
        self.flow = [[0] * group_count for _ in candidates]
        self.committed = [[0] * group_count for _ in candidates]
        self.blocked: set[tuple[int, int]] = set()
        self.placed = [0] * len(candidates)

    # ------------------------------------------------------------------ counts

    def grow(self, cls: int, amount: int) -> int:
        """Push up to `amount` more units from one class along one augmenting path; return the units pushed."""
        path = self._augmenting_path(cls)
        if path is None:
            return 0
        last_group = path[-1][1]
        amount = min(amount, self.capacity[last_group] - self.used[last_group])
        # After the first step, each step is a class giving up a unit of the previous step's group.
        for (_, given_up), (giver, _) in zip(path, path[1:]):
            amount = min(amount, self.flow[giver][given_up])
        for step, (taker, group) in enumerate(path):
            self.flow[taker][group] += amount
            if step + 1 < len(path):
                self.flow[path[step + 1][0]][group] -= amount
        self.used[last_group] += amount
        self.placed[cls] += amount
        return amount

    def _augmenting_path(self, source: int) -> list[tuple[int, int]] | None:
        """Find a shortest path class -> group -> class ... -> group with room, as (class, group) steps."""
        came_from: dict[int, tuple[int, int]] = {}      # group -> (class taking a unit of it, group before)
        seen = {source}
        queue = deque([(source, -1)])
        while queue:
            taker, previous = queue.popleft()
            for group in self.class_groups[taker]:
                if group in came_from:
                    continue
                came_from[group] = (taker, previous)
                if self.used[group] < self.capacity[group]:
                    return self._unwind(came_from, group)
                for giver in self.members[group]:
                    if giver not in seen and self.flow[giver][group] > 0:
                        seen.add(giver)
                        queue.append((giver, group))
        return None

    @staticmethod
    def _unwind(came_from: dict[int, tuple[int, int]], last: int) -> list[tuple[int, int]]:
        """Rebuild the (class, group) steps of a path ending in group `last`."""
        steps = []
        group = last
        while group != -1:
            taker, previous = came_from[group]
            steps.append((taker, group))
            group = previous
        steps.reverse()
        return steps

    # ------------------------------------------------------------------ ledger

    def commit(self, cls: int, pair_id: int) -> bool:
        """Record that class `cls` takes the pair if every class can still reach its count; say whether it did."""
        group = self.group_of[pair_id]
        if (cls, group) in self.blocked:
            return False
        if self.flow[cls][group] <= self.committed[cls][group] and not self._reroute(cls, group):
            # Committing only removes freedom, so this stays impossible for the rest of the plan.
            self.blocked.add((cls, group))
            return False
        self.committed[cls][group] += 1
        return True

    def _reroute(self, cls: int, group: int) -> bool:
        """Move one uncommitted unit of `cls` into `group`, shifting other classes' uncommitted units if it is full."""
        flow, committed = self.flow, self.committed
        donors = [g for g in self.class_groups[cls] if flow[cls][g] > committed[cls][g]]
        if not donors:
            return False
        donor_set = set(donors)
        came_from: dict[int, tuple[int, int] | None] = {group: None}   # group -> (class moving into it, group it leaves)
        seen: set[int] = set()
        queue = deque([group])
        end = None
        while queue:
            current = queue.popleft()
            # A donor group gets room as soon as `cls` leaves it.
            if self.used[current] < self.capacity[current] or current in donor_set:
                end = current
                break
            for other in self.members[current]:
                if other in seen or flow[other][current] <= committed[other][current]:
                    continue
                seen.add(other)
                for target in self.class_groups[other]:
                    if target not in came_from:
                        came_from[target] = (other, current)
                        queue.append(target)
        if end is None:
            return False
        current = end
        while (step := came_from[current]) is not None:
            other, left = step
            flow[other][current] += 1
            self.used[current] += 1
            flow[other][left] -= 1
            self.used[left] -= 1
            current = left
        donor = end if end in donor_set else donors[0]
        flow[cls][donor] -= 1
        self.used[donor] -= 1
        flow[cls][group] += 1
        self.used[group] += 1
        return True


def fair_pool(candidates: list[list[int]], demands: list[int]) -> PairPool:
    """Return a pool whose `placed` counts are a maximum total, with losses shared fairly."""
    pool = PairPool(candidates, demands)
    for cls, demand in enumerate(demands):
        while pool.placed[cls] < demand and pool.grow(cls, demand - pool.placed[cls]):
            pass
    if pool.placed == list(demands):
        return pool
    # Not everything fits: start again and raise the class with the smallest share placed first.
    pool = PairPool(candidates, demands)
    queue = [(0.0, cls) for cls, demand in enumerate(demands) if demand > 0]
    heapq.heapify(queue)
    while queue:
        _, cls = heapq.heappop(queue)
        if pool.grow(cls, 1) and pool.placed[cls] < demands[cls]:
            heapq.heappush(queue, (pool.placed[cls] / demands[cls], cls))
    return pool
