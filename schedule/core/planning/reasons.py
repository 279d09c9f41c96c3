"""Why each block sits where it sits: a structured reason per placement, codes and figures, no text.

The planner says where; this module says why, from the same instance and result, so a student (and
the assistant) can read it: "第 3 项：在第 2 项之后最早的空闲两节；避开了你排除的周五；均匀分布使本周
不超过 2 项". The words are built at the edge (``board.placement_reasons``) from the
codes below; nothing here names another student's data or a database id.

A reason is a small JSON-ready dict:

    {"v": 1, "kind": KIND, "item": 3, "after": 2, "taken_between": 1,
     "avoided": {"days": [5], "pairs": [6]}, "spread": {"week": 2, "cap": 2}, "filler": "大学物理"}

* ``kind``     ``earliest`` (a rapid class: the first free pair after the previous item),
               ``spread`` (a steady class: evenly over its window), ``manual`` (the student put it
               there), ``catch_up`` (a missed block placed again; ``was`` says when it was due),
               ``repair`` (its place was taken; moved to the nearest place that keeps order);
* ``item``     the block's number in its plan (1-based), ``after`` the number of the block before
               it (absent for the first);
* ``taken_between`` how many usable pairs between the previous block and this one other plans hold;
* ``avoided``  the plan's excluded weekdays (1 = Monday) and pairs (k = sections 2k-1, 2k);
* ``spread``   a steady plan's blocks in this block's week and the most it has in any week;
* ``filler``   the filler course (the student's own) the block sits in;
* ``rules``    the student's rules that kept the block from an earlier free pair of its day (or, for
               a rapid class, of the time since the previous block): ``protected`` (the names of the
               protected times), ``latest`` (the latest section), ``cap`` (the daily cap),
               ``buffer`` (the sections kept between blocks);
* ``exam``     a spaced block's days before its exam;
* ``calendar`` what the school calendar says of the block's day: ``holiday`` (its name: the day's
               courses are suspended) or ``makeup`` ({week, day} whose courses the day runs);
* ``pins``     (a repair) how many pinned blocks sat between where the block was and where it went.

Pure: no Django, no clock, no I/O.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from schedule.core.planning.candidates import Pair, class_candidates, day_key, usable_pairs
from schedule.core.planning.model import Placement, PlanningInstance, PlanningResult, PlanningRules, TaskClassSpec
from schedule.core.planning.rules import pair_sections
from schedule.core.planning.spaced import day_index
from schedule.core.planning.vocabulary import ITEM_SECTIONS, RAPID

VERSION = 1
EARLIEST = "earliest"
SPREAD = "spread"
MANUAL = "manual"
CATCH_UP = "catch_up"
REPAIR = "repair"
KINDS = (EARLIEST, SPREAD, MANUAL, CATCH_UP, REPAIR)

Reason = dict[str, Any]


def manual_reason() -> Reason:
    """The reason of a block the student placed or moved by hand."""
    return {"v": VERSION, "kind": MANUAL}


def catch_up_reason(*, item: int | None, week: int, day: int) -> Reason:
    """A block that was due in ``week``/``day`` and not done, placed again."""
    return _compact({"v": VERSION, "kind": CATCH_UP, "item": item, "was": {"week": week, "day": day}})


def repair_reason(*, item: int | None, displaced: bool) -> Reason:
    """A block moved by a repair: ``displaced`` when its own place was taken, else it made room."""
    return _compact({"v": VERSION, "kind": REPAIR, "item": item, "displaced": displaced})


def placement_reasons(instance: PlanningInstance, result: PlanningResult,
                      item_numbers: Mapping[int, int] | None = None,
                      calendar_days: Mapping[tuple[int, int], Reason] | None = None) -> dict[int, Reason]:
    """Return the reason of every placement of ``result``, by item id.

    ``item_numbers`` gives each item's number in its plan (the student's numbering, which counts
    blocks already placed); without it the items count from 1 in the instance's order.
    ``calendar_days``: the school calendar's word on a (week, day), e.g. ``{"holiday": "国庆节"}``.
    """
    pairs, keys = usable_pairs(instance)
    held = _held_pairs(result.placements)
    by_class: dict[int, list[Placement]] = {}
    for placement in result.placements:
        by_class.setdefault(placement.class_id, []).append(placement)
    reasons: dict[int, Reason] = {}
    for spec in instance.task_classes:
        placed = sorted(by_class.get(spec.id, []), key=_when)
        if not placed:
            continue
        numbers = _numbers(spec, item_numbers)
        candidates = [pairs[i] for i in class_candidates(pairs, keys, spec)]
        reasons.update(_class_reasons(spec, placed, candidates, held, numbers))
        previous: Placement | None = None
        for placement in placed:
            _add_rules_and_calendar(reasons[placement.item_id], instance, placement, previous, candidates,
                                    result.placements, calendar_days or {})
            previous = placement
    return reasons


# --- The student's rules and the calendar in a reason ----------------------------------------------------

def _add_rules_and_calendar(reason: Reason, instance: PlanningInstance, placement: Placement,
                            previous: Placement | None, candidates: list[Pair], placements: Sequence[Placement],
                            calendar_days: Mapping[tuple[int, int], Reason]) -> None:
    passed = _passed_over(placement, previous if reason.get("kind") == EARLIEST else None, candidates)
    shaped = _rule_figures(instance, placement, passed, placements)
    if shaped:
        reason["rules"] = shaped
    note = calendar_days.get((placement.week, placement.day))
    if note:
        reason["calendar"] = dict(note)


def _passed_over(placement: Placement, previous: Placement | None,
                 candidates: list[Pair]) -> list[tuple[int, int, int]]:
    """Pairs of the block's class earlier than the block: on its day, and for a rapid class since the
    previous block too. A rule that bans one of them is a reason the block sits where it sits."""
    here = _pair_key(placement)
    low = (day_key(placement.week, placement.day), 0)
    if previous is not None:
        low = min(low, _pair_key(previous))
    return [(week, day, k) for week, day, k, _host in candidates if low < (day_key(week, day), k) < here]


# --- The student's rules and the calendar in a reason ----------------------------------------------------

def _rule_figures(instance: PlanningInstance, placement: Placement, passed: list[tuple[int, int, int]],
                  placements: Sequence[Placement]) -> Reason:
    """Which of the student's rules banned the pairs the block passed over (figures only)."""
    rules = instance.rules
    if rules is None or not passed:
        return {}
    blocks = _day_blocks(rules, placements, skip=placement)
    found: Reason = {}
    for week, day, k in passed:
        first, last = pair_sections(k)
        if rules.latest_section is not None and last > rules.latest_section:
            found["latest"] = rules.latest_section
        names = [p.name for p in rules.protected if day in p.days and p.first <= last and first <= p.last]
        if names:
            found.setdefault("protected", [])
            found["protected"] = sorted({*found["protected"], *names})
        there = blocks.get((week, day), [])
        if rules.daily_cap is not None and (week, day) != (placement.week, placement.day) \
                and len(there) >= rules.daily_cap:
            found["cap"] = rules.daily_cap
        if rules.buffer > 0 and any(_gap((first, last), span) < rules.buffer for span in there):
            found["buffer"] = rules.buffer
    return found


def _day_blocks(rules: PlanningRules, placements: Sequence[Placement],
               skip: Placement) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """The study blocks of each day: those already on the timetable and the plan's others."""
    found: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for block in rules.blocks:
        found.setdefault((block.week, block.day), []).append((block.section_start, block.section_end))
    for other in placements:
        if other is not skip:
            found.setdefault((other.week, other.day), []).append((other.section_start, other.section_end))
    return found


def _gap(a: tuple[int, int], b: tuple[int, int]) -> int:
    first, second = sorted((a, b))
    return second[0] - first[1] - 1


def _class_reasons(spec: TaskClassSpec, placed: list[Placement], candidates: list[Pair],
                   held: Mapping[tuple[int, int, int], int], numbers: Mapping[int, int]) -> dict[int, Reason]:
    weekly = Counter(p.week for p in placed)
    cap = max(weekly.values())
    avoided = _compact({"days": sorted(spec.excluded_days), "pairs": sorted(spec.excluded_slots)})
    reasons = {}
    previous: Placement | None = None
    for placement in placed:
        reason: Reason = {"v": VERSION, "kind": EARLIEST if spec.strategy == RAPID else SPREAD,
                          "item": numbers.get(placement.item_id)}
        if previous is not None:
            reason["after"] = numbers.get(previous.item_id)
        reason["taken_between"] = _taken_between(spec.id, previous, placement, candidates, held)
        if avoided:
            reason["avoided"] = avoided
        if spec.strategy != RAPID:
            reason["spread"] = {"week": weekly[placement.week], "cap": cap}
        if placement.host_event_id is not None:
            reason["filler"] = True
        if spec.exam is not None:
            reason["exam"] = day_index(spec.exam.week, spec.exam.day) - day_index(placement.week, placement.day)
        reasons[placement.item_id] = _compact(reason)
        previous = placement
    return reasons


def _taken_between(class_id: int, previous: Placement | None, placement: Placement, candidates: list[Pair],
                   held: Mapping[tuple[int, int, int], int]) -> int:
    """Usable pairs of the class after ``previous`` and before ``placement`` that other plans hold."""
    low = _pair_key(previous) if previous is not None else (-1, 0)
    high = _pair_key(placement)
    count = 0
    for week, day, k, _host in candidates:
        key = (day_key(week, day), k)
        if low < key < high and held.get((week, day, k), class_id) != class_id:
            count += 1
    return count


def _held_pairs(placements: Sequence[Placement]) -> dict[tuple[int, int, int], int]:
    return {(p.week, p.day, (p.section_start + 1) // ITEM_SECTIONS): p.class_id for p in placements}


def _pair_key(placement: Placement) -> tuple[int, int]:
    return day_key(placement.week, placement.day), (placement.section_start + 1) // ITEM_SECTIONS


def _when(placement: Placement) -> tuple[int, int, int]:
    return placement.week, placement.day, placement.section_start


def _numbers(spec: TaskClassSpec, given: Mapping[int, int] | None) -> Mapping[int, int]:
    if given is not None:
        return given
    return {item.id: number for number, item in enumerate(spec.items, start=1)}


def _compact(values: Reason) -> Reason:
    """Drop empty figures, so a stored reason carries only what it says."""
    return {key: value for key, value in values.items() if value not in (None, [], {}, 0) or key == "taken_between"}
