"""The student's own rules in the planner: protected times, a latest section, a daily cap, a buffer.

An instance may carry ``rules`` (docs/planner-contract.md; absent = no rule, the plan is exactly
what it was). Protected times and the latest section only remove pairs, and so do the study
blocks already on the timetable (``rules.blocks``): the pairs too near one of them (the buffer)
and every pair of a day they already fill (the cap). Those are "banned" before planning.

The cap and the buffer between the new blocks themselves are not a matter of single pairs, and
the maximum flow that fixes each class's count has no room for them; so the plan is made, the
days that break a rule are trimmed (in time order, a block is kept while its day stays under the
cap and clear of the buffer), the pairs trimmed away are banned, and the plan is made again,
until a plan keeps every rule. Banning only removes pairs, so this ends; after ``MAX_ROUNDS`` the
last plan is trimmed and returned as it is (its trimmed items stay unplaced, the last of their
classes, as the contract wants). A banned pair is handed to the planner as an occupied section
(event ``RULE_EVENT``), so the planning steps themselves know nothing of rules.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from schedule.core.planning.candidates import Pair
from schedule.core.planning.model import OccupiedSection, PlanningInstance, PlanningRules
from schedule.core.planning.vocabulary import DAYS_PER_WEEK

Solved = tuple[list[Pair], list[list[int]], list[list[int]]]

RULE_EVENT = -2              # the event id of a section the rules keep free
MAX_ROUNDS = 40

PairKey = tuple[int, int, int]   # (week, day, pair index k)


def solve_within_rules(instance: PlanningInstance, solve_once: Callable[[PlanningInstance], Solved]) -> Solved:
    """Plan with the instance's rules: ban what the rules forbid, plan, trim, ban the trimmed, again."""
    rules = instance.rules
    if rules is None:
        return solve_once(instance)
    banned = static_bans(instance, rules)
    for _ in range(MAX_ROUNDS):
        pairs, candidates, positions = solve_once(_without_rules(instance, banned))
        trimmed = day_trims(pairs, candidates, positions, rules, instance)
        if not trimmed:
            return pairs, candidates, positions
        banned |= trimmed
    return pairs, candidates, _trimmed_positions(pairs, candidates, positions, trimmed)


# --- Pairs banned before planning --------------------------------------------------------------------

def pair_sections(k: int) -> tuple[int, int]:
    return 2 * k - 1, 2 * k


def place_banned(rules: PlanningRules, day: int, k: int) -> bool:
    """A pair on weekday ``day`` that touches a protected time or ends after the latest section."""
    first, last = pair_sections(k)
    if rules.latest_section is not None and last > rules.latest_section:
        return True
    return any(day in p.days and p.first <= last and first <= p.last for p in rules.protected)


def _gap(a: tuple[int, int], b: tuple[int, int]) -> int:
    first, second = sorted((a, b))
    return second[0] - first[1] - 1


def static_bans(instance: PlanningInstance, rules: PlanningRules) -> set[PairKey]:
    """Pairs forbidden by place, near a block already there, or on a day the blocks already fill."""
    existing = existing_blocks(rules)
    banned: set[PairKey] = set()
    for week in range(1, instance.weeks + 1):
        for day in range(1, DAYS_PER_WEEK + 1):
            there = existing.get((week, day), [])
            full = rules.daily_cap is not None and len(there) >= rules.daily_cap
            for k in range(1, instance.pairs_per_day + 1):
                span = pair_sections(k)
                if full or place_banned(rules, day, k) or any(_gap(span, b) < rules.buffer for b in there):
                    banned.add((week, day, k))
    return banned


def existing_blocks(rules: PlanningRules) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """The study blocks already on the timetable, by (week, day), as section spans."""
    found: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for block in rules.blocks:
        found.setdefault((block.week, block.day), []).append((block.section_start, block.section_end))
    return found


def _without_rules(instance: PlanningInstance, banned: set[PairKey]) -> PlanningInstance:
    """The instance with the banned pairs occupied and no rules (so planning it plans plainly)."""
    extra = [(week, day, section) for week, day, k in sorted(banned) for section in pair_sections(k)]
    rows = tuple(OccupiedSection(event_id=RULE_EVENT, week=week, day=day, section=section, embeddable=False,
                                 name="rule")
                 for week, day, section in extra)
    return replace(instance, occupied=(*instance.occupied, *rows), rules=None)


# --- Trimming a plan to the cap and the buffer ---------------------------------------------------------

def day_trims(pairs: list[Pair], candidates: list[list[int]], positions: list[list[int]], rules: PlanningRules,
              instance: PlanningInstance) -> set[PairKey]:
    """The planned pairs to drop so that every day keeps the cap and the buffer (earliest kept first)."""
    if rules.daily_cap is None and rules.buffer <= 0:
        return set()
    existing = existing_blocks(rules)
    by_day: dict[tuple[int, int], list[int]] = {}
    for pair_ids, held in zip(candidates, positions):
        for position in held:
            week, day, k, _host = pairs[pair_ids[position]]
            by_day.setdefault((week, day), []).append(k)
    trimmed: set[PairKey] = set()
    for (week, day), ks in by_day.items():
        kept = list(existing.get((week, day), []))
        for k in sorted(ks):
            span = pair_sections(k)
            over = rules.daily_cap is not None and len(kept) >= rules.daily_cap
            if over or any(_gap(span, other) < rules.buffer for other in kept):
                trimmed.add((week, day, k))
            else:
                kept.append(span)
    return trimmed


def _trimmed_positions(pairs: list[Pair], candidates: list[list[int]], positions: list[list[int]],
                       trimmed: set[PairKey]) -> list[list[int]]:
    return [[x for x in held if pairs[pair_ids[x]][:3] not in trimmed]
            for pair_ids, held in zip(candidates, positions)]
