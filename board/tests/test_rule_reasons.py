"""The student's rules, the exam, the school calendar and pins in placement reasons and in the repair:
a reason names the protected time it kept clear of; an event over a pinned block is refused, nothing
written; an event over other blocks is repaired without moving the pin."""

from __future__ import annotations

import pytest
from django.utils import translation

from board.placement_reasons import placement_reason_text
from board.planning import preview_create
from board.previews import preview_apply
from board.repair import event_create_displacing, repair_preview
from schedule.models import ChangeSet, ScheduleEvent
from schedule.services.events import Span
from schedule.student_rules.models import StudyRules
from smartmate.platform.exceptions import ConflictError
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class, place_item

pytestmark = pytest.mark.usefixtures("before_week_three")

LUNCH = {"name": "午饭", "first": 5, "last": 5, "days": [1, 2, 3, 4, 5, 6, 7]}


def _zh(reason: dict) -> str:
    with translation.override("zh-hans"):
        return placement_reason_text(reason)


def test_the_words_name_each_rule_the_exam_the_calendar_and_the_pins():
    ruled = {"v": 1, "kind": "earliest", "item": 3, "after": 2, "taken_between": 0,
             "rules": {"protected": ["午饭"], "latest": 10, "cap": 2, "buffer": 1}}
    assert _zh(ruled) == ("第 3 项：在第 2 项之后最早的空闲两节；避开了你设的午饭时间；在你设的最晚第 10 节前结束；"
                          "之前的日子已达到你设的每天 2 个学习块上限；与其他学习块之间留出你设的 1 节间隔。")
    spaced = {"v": 1, "kind": "spread", "item": 1, "taken_between": 0, "exam": 7, "spread": {"week": 1, "cap": 1},
              "calendar": {"makeup": {"week": 3, "day": 5}}}
    assert _zh(spaced) == "第 1 项：考试前 7 天；这天是调休日，按第 3 周周五上课。"
    holiday = {"v": 1, "kind": "earliest", "item": 1, "taken_between": 0, "calendar": {"holiday": "国庆节"}}
    assert "这天是假日（国庆节），课程停上" in _zh(holiday)
    repaired = {"v": 1, "kind": "repair", "item": 2, "displaced": True, "pins": 1}
    assert _zh(repaired).endswith("越过了 1 个已固定的学习块（固定的块不会被挪动）。")


def test_a_planned_block_past_the_protected_lunch_says_so(user):
    StudyRules.objects.create(user=user, protected_times=[LUNCH])
    task_class = make_task_class(user, items=3, strategy="rapid")
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    assert all(not (p["start_section"] <= 5 <= p["end_section"]) for p in preview.placements)
    named = [p for p in preview.placements if (p["reason"].get("rules") or {}).get("protected") == ["午饭"]]
    assert named, preview.placements
    assert "避开了你设的午饭时间" in _zh(named[0]["reason"])


@pytest.fixture
def planned_with_a_pin(user):
    """Three reviews on Wednesday of week 3 at 1-2, 3-4 and 5-6; the first one pinned."""
    task_class = make_task_class(user, items=3, strategy="rapid")
    items = list(task_class.items.order_by("order"))
    for item, start in zip(items, (1, 3, 5)):
        place_item(item, week=3, day=3, start=start)
    TaskItem.objects.filter(task_class=task_class).update(status=TaskItem.Status.PLACED)
    StudyRules.objects.create(user=user, pinned_items=[items[0].pk])
    return items


def _board(user) -> list[tuple]:
    return sorted(ScheduleEvent.objects.filter(user=user).values_list(
        "kind", "title", "week", "day", "start_section", "end_section", "task_item_id"))


def test_an_event_over_a_pinned_block_is_refused_and_nothing_is_written(user, planned_with_a_pin):
    before = _board(user)
    with pytest.raises(ConflictError) as refused:
        event_create_displacing(user=user, title="社团活动", span=Span(3, 3, 1, 6))
    assert refused.value.code == "pinned_in_the_way"
    assert refused.value.detail["pinned"][0]["id"] == planned_with_a_pin[0].pk
    assert _board(user) == before and not ChangeSet.objects.filter(user=user).exists()
    assert not TaskItem.objects.filter(status=TaskItem.Status.PENDING).exists()


def test_the_repair_moves_the_others_and_leaves_the_pin(user, planned_with_a_pin):
    pinned, second, third = planned_with_a_pin
    event_create_displacing(user=user, title="社团活动", span=Span(3, 3, 3, 6))
    preview = repair_preview(user=user)
    assert sorted(p["item_id"] for p in preview.placements) == [second.pk, third.pk]
    preview_apply(user=user, preview_id=preview.pk)
    where = {e.task_item_id: (e.week, e.day, e.start_section) for e in ScheduleEvent.objects.filter(user=user)
             if e.task_item_id}
    assert where[pinned.pk] == (3, 3, 1)
    assert (3, 3, 1) < where[second.pk] < where[third.pk]
    assert {where[second.pk], where[third.pk]}.isdisjoint({(3, 3, 3), (3, 3, 5)})  # the event holds 3-6
    assert StudyRules.objects.get(user=user).pinned_items == [pinned.pk]


def test_a_block_on_a_holiday_says_the_courses_are_suspended(user):
    from schedule.models import CalendarDay
    from schedule.services.academic_calendar import DayInput, calendar_days_add, school_calendar_switch
    from taskclasses.tests.factories import WINDOW

    school_calendar_switch(user=user, follows=True)
    calendar_days_add(user=user, days=[DayInput(kind=CalendarDay.Kind.HOLIDAY, name="校庆日",
                                                first_date=WINDOW[0], last_date=WINDOW[0])])
    task_class = make_task_class(user, items=1, strategy="rapid")
    placed = preview_create(user=user, task_class_ids=[task_class.pk]).placements[0]
    assert placed["reason"]["calendar"] == {"holiday": "校庆日"}
    assert "这天是假日（校庆日），课程停上" in _zh(placed["reason"])
