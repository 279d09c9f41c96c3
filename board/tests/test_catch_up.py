"""Catch-up: blocks gone by and not done are placed again before their plan ends, order kept, undoable."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from board.catch_up import catch_up_count, catch_up_preview
from board.previews import changeset_undo, preview_apply
from schedule.models import ChangeSet, PlanPreview, ScheduleEvent
from smartmate.platform.exceptions import AppError, NotFoundError
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class, place_item

# Wednesday of week 3 (2026-09-23), 12:00: Monday and Tuesday of week 3 have gone by.
NOW = datetime(2026, 9, 23, 12, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


@pytest.fixture(autouse=True)
def frozen(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)


def _status(item: TaskItem) -> str:
    return TaskItem.objects.get(pk=item.pk).status


def _where(item: TaskItem) -> tuple[int, int, int]:
    event = ScheduleEvent.objects.get(task_item=item)
    return event.week, event.day, event.start_section


@pytest.fixture
def behind(user):
    """Four reviews: #1 placed Mon (gone by), #2 missed Tue, #3 done Tue, #4 ahead on Friday."""
    task_class = make_task_class(user, items=4)
    first, second, third, fourth = task_class.items.order_by("order")
    for item, day, start, status in ((first, 1, 1, "placed"), (second, 2, 3, "missed"), (third, 2, 5, "done"),
                                     (fourth, 5, 1, "placed")):
        place_item(item, week=3, day=day, start=start, status=status)
    return task_class, (first, second, third, fourth)


def test_two_blocks_behind_are_counted(user, behind):
    assert catch_up_count(user=user) == 2


def test_a_block_marked_missed_before_it_began_waits_for_its_time(user, behind):
    """Still ahead, it keeps its place (Move to… moves it); once begun, catch-up and the bell count it."""
    _, (_first, _second, _third, fourth) = behind
    TaskItem.objects.filter(pk=fourth.pk).update(status=TaskItem.Status.MISSED)
    assert catch_up_count(user=user) == 2
    assert catch_up_count(user=user, now=datetime(2026, 9, 25, 9, 0, tzinfo=ZoneInfo("Asia/Shanghai"))) == 3


def test_one_block_is_caught_up_alone(user, behind):
    _, (first, second, _third, _fourth) = behind
    preview = catch_up_preview(user=user, item_id=second.pk)
    assert [m["item_id"] for m in preview.moves] == [second.pk]
    assert _status(first) == "placed"


def test_catching_up_a_block_that_is_done_or_ahead_says_why(user, behind):
    _, (_first, _second, third, fourth) = behind
    for item in (third, fourth):
        with pytest.raises(AppError) as refused:
            catch_up_preview(user=user, item_id=item.pk)
        assert refused.value.code == "nothing_to_catch_up"


def test_another_students_block_is_not_found(user, behind, django_user_model):
    from accounts.tests.factories import UserFactory

    theirs = make_task_class(UserFactory(), items=1).items.get()
    with pytest.raises(NotFoundError):
        catch_up_preview(user=user, item_id=theirs.pk)


def test_catch_up_moves_only_the_blocks_behind_in_order_and_undo_restores_them(user, behind):
    _, (first, second, third, fourth) = behind
    preview = catch_up_preview(user=user)
    moved = {m["item_id"]: m for m in preview.moves}
    assert set(moved) == {first.pk, second.pk}
    assert not preview.placements and not preview.unplaced
    new_first = (moved[first.pk]["to"]["week"], moved[first.pk]["to"]["day"], moved[first.pk]["to"]["start_section"])
    new_second = (moved[second.pk]["to"]["week"], moved[second.pk]["to"]["day"], moved[second.pk]["to"]["start_section"])
    # From now on (Wednesday afternoon: sections 5- have not begun), #1 before #2, both before #4 on Friday.
    assert (3, 3, 5) <= new_first < new_second < (3, 5, 1)
    assert moved[second.pk]["reason"] == {"v": 1, "kind": "catch_up", "item": 2, "was": {"week": 3, "day": 2}}
    changeset = preview_apply(user=user, preview_id=preview.pk)
    assert _where(first) == new_first and _where(second) == new_second and _where(fourth) == (3, 5, 1)
    assert _status(second) == "placed" and _status(third) == "done"
    assert TaskItem.objects.get(pk=second.pk).placement_reason["kind"] == "catch_up"
    changeset_undo(user=user, changeset_id=changeset.pk)
    assert _where(first) == (3, 1, 1) and _where(second) == (3, 2, 3) and _status(second) == "missed"


def test_a_plan_that_has_ended_is_refused_and_nothing_is_written(user):
    task_class = make_task_class(user, items=1, start_date=date(2026, 9, 14), end_date=date(2026, 9, 22))
    place_item(task_class.items.get(), week=3, day=1, start=1)
    with pytest.raises(AppError) as refused:
        catch_up_preview(user=user, task_class_id=task_class.pk)
    assert refused.value.code == "class_ended" and "2026-09-22" in refused.value.message
    assert not PlanPreview.objects.exists() and not ChangeSet.objects.exists()


def test_nothing_behind_is_a_clear_answer(user):
    task_class = make_task_class(user, items=1)
    item = task_class.items.get()
    place_item(item, week=3, day=1, start=1)
    TaskItem.objects.filter(pk=item.pk).update(status="done")
    with pytest.raises(AppError) as refused:
        catch_up_preview(user=user)
    assert refused.value.code == "nothing_to_catch_up"
    assert catch_up_count(user=user) == 0 and not PlanPreview.objects.exists()


def test_another_students_plan_is_not_found(user, other_user, behind):
    theirs = make_task_class(other_user, items=1)
    with pytest.raises(NotFoundError):
        catch_up_preview(user=user, task_class_id=theirs.pk)
    assert not PlanPreview.objects.exists()



def _busy(user, day: int, start: int) -> None:
    from schedule.tests.factories import custom_event

    custom_event(user, title="忙", week=3, day=day, start=start, end=start + 1)


def test_a_block_with_no_room_left_is_listed_with_what_to_do(user):
    # The plan ends on Thursday; Wednesday 5-6 is the only free pair left before #3 (Thursday 1-2).
    task_class = make_task_class(user, items=3, start_date=date(2026, 9, 14), end_date=date(2026, 9, 24))
    first, second, third = task_class.items.order_by("order")
    for item, day in ((first, 1), (second, 2), (third, 4)):
        place_item(item, week=3, day=day, start=1)
    TaskItem.objects.filter(task_class=task_class).update(status="placed")
    for day, starts in ((3, (7, 9, 11)), (4, (3, 5, 7, 9, 11))):
        for start in starts:
            _busy(user, day, start)
    preview = catch_up_preview(user=user)
    assert [(m["item_id"], m["to"]["day"], m["to"]["start_section"]) for m in preview.moves] == [(first.pk, 3, 5)]
    assert [(u["item_id"], u["reason"]) for u in preview.unplaced] == [(second.pk, "no_room_to_repair")]


def test_with_no_room_at_all_nothing_is_written(user):
    task_class = make_task_class(user, items=1, start_date=date(2026, 9, 14), end_date=date(2026, 9, 23))
    place_item(task_class.items.get(), week=3, day=1, start=1)
    TaskItem.objects.filter(task_class=task_class).update(status="missed")
    for start in (5, 7, 9, 11):
        _busy(user, 3, start)
    with pytest.raises(AppError) as refused:
        catch_up_preview(user=user)
    assert refused.value.code == "no_room_to_repair" and not PlanPreview.objects.exists()
