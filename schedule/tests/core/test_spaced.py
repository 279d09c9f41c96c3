"""The spaced strategy, pure: revision at 1, 2, 4, 7, 14, 21... days before the exam, in class order,
before the exam only, and every other rule kept (busy time, excluded pairs and days, filler, other classes)."""

from __future__ import annotations

import pytest

from schedule.core.planning import InstanceError, instance_from_json, plan
from schedule.core.planning.spaced import day_index, ideal_offsets, spacing_error

EXAM = {"week": 6, "day": 5}          # Friday of week 6
EXAM_DAY = day_index(6, 5)


def spaced_class(items: int, **extra) -> dict:
    return {"id": 1, "strategy": "spaced", "start": {"week": 1, "day": 1}, "end": EXAM, "exam": EXAM,
            "items": [{"id": n} for n in range(1, items + 1)], **extra}


def days_before(result, class_id: int = 1) -> list[int]:
    """Days before the exam of the class's placements, in item order."""
    return [EXAM_DAY - day_index(p.week, p.day) for p in result.placements if p.class_id == class_id]


def test_the_intervals_grow_and_the_first_item_is_furthest():
    assert ideal_offsets(1) == [1]
    assert ideal_offsets(5) == [14, 7, 4, 2, 1]
    assert ideal_offsets(8) == [35, 28, 21, 14, 7, 4, 2, 1]


def test_an_empty_grid_gets_the_ideal_days_in_order():
    result = plan(instance_from_json({"weeks": 6, "task_classes": [spaced_class(6)]}))
    assert days_before(result) == [21, 14, 7, 4, 2, 1]
    placements = [p for p in result.placements if p.class_id == 1]
    assert [p.item_id for p in placements] == [1, 2, 3, 4, 5, 6]
    assert spacing_error([EXAM_DAY - d for d in days_before(result)], EXAM_DAY) == 0


def test_busy_days_push_an_item_to_the_nearest_free_day_and_order_holds():
    # The whole day two days before the exam (Wednesday of week 6) is taken by a course.
    busy = [{"event_id": 9, "week": 6, "day": 3, "section": s} for s in range(1, 13)]
    result = plan(instance_from_json({"weeks": 6, "occupied": busy, "task_classes": [spaced_class(4)]}))
    offsets = days_before(result)
    assert offsets == sorted(offsets, reverse=True) and len(set(offsets)) == 4
    assert 2 not in offsets and offsets[0] == 7 and offsets[-1] == 1
    assert result.all_placed


def test_excluded_days_and_pairs_are_kept():
    result = plan(instance_from_json({"weeks": 6, "task_classes": [
        spaced_class(5, excluded_days=[4], excluded_slots=[1, 2, 3])]}))
    assert result.all_placed
    for p in result.placements:
        assert p.day != 4 and p.section_start >= 7
    assert 1 not in days_before(result)        # the Thursday before the exam is excluded


def test_nothing_lands_on_or_after_the_exam_day():
    instance = {"weeks": 8, "task_classes": [
        {**spaced_class(3), "end": {"week": 8, "day": 7}}]}
    result = plan(instance_from_json(instance))
    assert all(day_index(p.week, p.day) < EXAM_DAY for p in result.placements)


def test_a_filler_course_is_used_only_when_allowed():
    # Every pair of the day before the exam is a filler course.
    filler = [{"event_id": 7, "week": 6, "day": 4, "section": s, "embeddable": True} for s in range(1, 13)]
    allowed = plan(instance_from_json({"weeks": 6, "occupied": filler,
                                       "task_classes": [spaced_class(2, allow_filler=True)]}))
    assert days_before(allowed)[-1] == 1 and allowed.placements[-1].host_event_id == 7
    refused = plan(instance_from_json({"weeks": 6, "occupied": filler, "task_classes": [spaced_class(2)]}))
    assert all(p.host_event_id is None for p in refused.placements) and 1 not in days_before(refused)


def test_another_class_keeps_its_items_and_the_spaced_days_stay():
    steady = {"id": 2, "strategy": "steady", "start": {"week": 5, "day": 1}, "end": {"week": 6, "day": 7},
              "items": [{"id": 100 + n} for n in range(60)]}
    result = plan(instance_from_json({"weeks": 6, "task_classes": [spaced_class(4), steady]}))
    assert result.all_placed
    assert days_before(result) == [7, 4, 2, 1]
    taken = [(p.week, p.day, p.section_start) for p in result.placements]
    assert len(taken) == len(set(taken))


def test_too_little_room_leaves_the_last_items_unplaced_with_a_reason():
    # Only two free pairs before the exam: weeks 1-6 are busy except Monday of week 6, pairs 1 and 2.
    busy = [{"event_id": 9, "week": w, "day": d, "section": s}
            for w in range(1, 7) for d in range(1, 8) for s in range(1, 13) if not (w == 6 and d == 1 and s <= 4)]
    result = plan(instance_from_json({"weeks": 6, "occupied": busy, "task_classes": [spaced_class(4)]}))
    assert [p.item_id for p in result.placements] == [1, 2]
    assert [u.item_id for u in result.unplaced] == [3, 4] and result.unplaced[0].reason == "window_too_small"


@pytest.mark.parametrize(("change", "message"), [
    ({"exam": None}, "needs its exam day"),
    ({"exam": {"week": 7, "day": 1}}, "outside the window"),
    ({"start": {"week": 6, "day": 6}, "end": {"week": 6, "day": 7}}, "outside the window"),
])
def test_the_contract_refuses_a_spaced_class_without_a_fitting_exam(change, message):
    with pytest.raises(InstanceError, match=message):
        instance_from_json({"weeks": 8, "task_classes": [{**spaced_class(2), **change}]})


def test_the_spacing_error_is_the_mean_distance_from_the_ideal_days():
    assert spacing_error([EXAM_DAY - 3, EXAM_DAY - 1], EXAM_DAY) == 0.5    # ideal 2 and 1 days before
    assert spacing_error([], EXAM_DAY) == 0.0
