"""Reasons for every placement: codes and figures the planner's result explains, no text, no ids of others."""

from __future__ import annotations

import json

from schedule.core.planning import GridDay, ItemSpec, OccupiedSection, PlanningInstance, TaskClassSpec, plan
from schedule.core.planning.model import PlanningRules, ProtectedSections
from schedule.core.planning.reasons import catch_up_reason, manual_reason, placement_reasons, repair_reason


def spec(class_id: int, items: int, strategy: str = "steady", *, end=(1, 7), **rules) -> TaskClassSpec:
    return TaskClassSpec(id=class_id, strategy=strategy, start=GridDay(week=1, day=1),  # type: ignore[arg-type]
                         end=GridDay(week=end[0], day=end[1]),
                         items=tuple(ItemSpec(id=class_id * 100 + n) for n in range(1, items + 1)), **rules)


def test_a_rapid_plan_takes_the_earliest_pairs_after_the_previous_item():
    instance = PlanningInstance(weeks=1, task_classes=(spec(1, 3, "rapid"),))
    reasons = placement_reasons(instance, plan(instance))
    assert reasons[101] == {"v": 1, "kind": "earliest", "item": 1, "taken_between": 0}
    assert reasons[102] == {"v": 1, "kind": "earliest", "item": 2, "after": 1, "taken_between": 0}


def test_a_steady_plan_says_how_it_spread_and_what_it_avoided():
    instance = PlanningInstance(weeks=2, task_classes=(
        spec(1, 4, end=(2, 7), excluded_days=frozenset({5}), excluded_slots=frozenset({6})),))
    result = plan(instance)
    reasons = placement_reasons(instance, result, {101: 3, 102: 4, 103: 5, 104: 6})
    weekly = {p.week for p in result.placements}
    assert weekly == {1, 2}
    third = reasons[102]
    assert third["kind"] == "spread" and third["item"] == 4 and third["after"] == 3
    assert third["avoided"] == {"days": [5], "pairs": [6]} and third["spread"] == {"week": 2, "cap": 2}


def test_pairs_other_plans_hold_are_counted_and_filler_courses_named():
    occupied = tuple(OccupiedSection(event_id=7, week=1, day=1, section=s, embeddable=True, name="形势与政策")
                     for s in (1, 2))
    instance = PlanningInstance(weeks=1, occupied=occupied, task_classes=(
        spec(1, 1, "rapid", end=(1, 1), allow_filler=True), spec(2, 2, "rapid", end=(1, 1), allow_filler=True)))
    result = plan(instance)
    reasons = placement_reasons(instance, result)
    assert sum(1 for r in reasons.values() if r.get("filler")) == 1
    assert max(r["taken_between"] for r in reasons.values()) >= 1


def test_reasons_are_plain_json_without_database_ids_or_names():
    instance = PlanningInstance(weeks=1, task_classes=(
        TaskClassSpec(id=987654, name="别人的计划", strategy="rapid", start=GridDay(week=1, day=1),
                      end=GridDay(week=1, day=7), items=(ItemSpec(id=123456, content="秘密"),)),))
    values = json.dumps(list(placement_reasons(instance, plan(instance)).values()), ensure_ascii=False)
    assert "987654" not in values and "123456" not in values and "别人" not in values and "秘密" not in values


def test_the_reasons_of_hand_catch_up_and_repair():
    assert manual_reason() == {"v": 1, "kind": "manual"}
    assert catch_up_reason(item=2, week=3, day=2) == {"v": 1, "kind": "catch_up", "item": 2,
                                                      "was": {"week": 3, "day": 2}}
    assert repair_reason(item=None, displaced=False) == {"v": 1, "kind": "repair"}


# --- The student's rules, the exam and the school calendar in a reason ------------------------------------

def _ruled(rules: PlanningRules, items: int = 3, **more) -> PlanningInstance:
    return PlanningInstance(weeks=1, task_classes=(spec(1, items, "rapid"),), rules=rules, **more)


def test_a_block_past_a_protected_lunch_names_it():
    instance = _ruled(PlanningRules(protected=(ProtectedSections(first=5, last=6, name="午饭"),)))
    reasons = placement_reasons(instance, plan(instance))
    assert "rules" not in reasons[101] and "rules" not in reasons[102]
    assert reasons[103]["rules"] == {"protected": ["午饭"]}


def test_the_latest_section_and_the_daily_cap_are_named():
    late = _ruled(PlanningRules(latest_section=4))
    assert placement_reasons(late, plan(late))[103]["rules"] == {"latest": 4}
    capped = _ruled(PlanningRules(daily_cap=1), items=2)
    result = plan(capped)
    assert [(p.day, p.section_start) for p in result.placements] == [(1, 1), (2, 1)]
    assert placement_reasons(capped, result)[102]["rules"] == {"cap": 1}


def test_the_buffer_is_named():
    instance = _ruled(PlanningRules(buffer=1), items=2)
    result = plan(instance)
    assert [(p.day, p.section_start) for p in result.placements] == [(1, 1), (1, 5)]
    assert placement_reasons(instance, result)[102]["rules"] == {"buffer": 1}


def test_a_spaced_block_counts_the_days_to_its_exam_and_a_holiday_is_named():
    exam = GridDay(week=2, day=7)
    instance = PlanningInstance(weeks=2, task_classes=(spec(1, 2, "spaced", end=(2, 7), exam=exam),))
    result = plan(instance)
    days = {p.item_id: (p.week, p.day) for p in result.placements}
    reasons = placement_reasons(instance, result, calendar_days={days[102]: {"holiday": "国庆节"}})
    assert [reasons[101]["exam"], reasons[102]["exam"]] == [2, 1]
    assert reasons[102]["calendar"] == {"holiday": "国庆节"} and "calendar" not in reasons[101]
