"""catch_up: blocks gone by and not done are placed again on the working schedule; refusals change nothing."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from agent.tools.analyze_health import TOOL as HEALTH
from agent.tools.catch_up import TOOL
from agent.tools.place import TOOL as PLACE
from agent.tools.support.base import ToolContext
from agent.tools.support.working_schedule import working_load, working_publish
from board.previews import preview_apply
from schedule.core.board import Kind
from schedule.models import PlanPreview
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class, place_item

# Wednesday of week 3 (2026-09-23), 12:00: Monday and Tuesday of week 3 have gone by.
LATER = datetime(2026, 9, 23, 12, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


@pytest.fixture(autouse=True)
def wednesday(monkeypatch, frozen_now):
    monkeypatch.setattr("django.utils.timezone.now", lambda: LATER)


def _ctx(user) -> ToolContext:
    return ToolContext(user_id=user.pk, conversation_id=1, call_id="call-1", now=LATER)


@pytest.fixture
def behind(user):
    """Four reviews: #1 placed Monday (gone by), #2 missed Tuesday, #3 done Tuesday, #4 ahead on Friday."""
    task_class = make_task_class(user, items=4)
    items = list(task_class.items.order_by("order"))
    for item, day, start, status in zip(items, (1, 2, 2, 5), (1, 3, 5, 1), ("placed", "missed", "done", "placed")):
        place_item(item, week=3, day=day, start=start, status=status)
    return task_class, items


def _study(working, item):
    return next(e for e in working.board.entries if e.kind is Kind.STUDY and e.item_id == item.pk)


def test_the_card_counts_the_blocks_behind(user, behind):
    assert TOOL.confirmation({}, _ctx(user), None) == (
        "Catch up 2 missed blocks: place them again from now on, before their plans end.")


def test_catch_up_places_the_blocks_behind_in_order_and_the_preview_plans_them_again(user, behind):
    _, (first, second, third, fourth) = behind
    result = TOOL.run({}, _ctx(user), None)
    assert result.status == "done" and result.summary == "Caught up 2 missed blocks."
    one, two, four = (_study(result.working, item).place for item in (first, second, fourth))
    # From now on (Wednesday afternoon: sections 5- have not begun), #1 before #2, both before #4 on Friday.
    assert (date(2026, 9, 23), 5) <= (one.day, one.start) < (two.day, two.start) < (four.day, four.start)
    assert "补上落下的 2 次复习" in result.content and not PlanPreview.objects.exists()  # nothing written yet
    preview = working_publish(user=user, working=result.working, conversation_id=1, now=LATER)
    assert {m["item_id"] for m in preview.moves} == {first.pk, second.pk}
    preview_apply(user=user, preview_id=preview.pk)
    assert TaskItem.objects.get(pk=second.pk).status == "placed" and TaskItem.objects.get(pk=third.pk).status == "done"


def test_nothing_behind_is_a_clear_answer_and_nothing_changes(user):
    make_task_class(user, items=2)
    result = TOOL.run({}, _ctx(user), None)
    assert result.status == "failed" and result.data == {"code": "nothing_to_catch_up"} and result.working is None
    assert result.summary == "Nothing to catch up: every block gone by is marked done."


def test_a_plan_that_has_ended_is_refused(user):
    task_class = make_task_class(user, items=1, start_date=date(2026, 9, 14), end_date=date(2026, 9, 22))
    place_item(task_class.items.get(), week=3, day=1, start=1)
    result = TOOL.run({"task_class_id": task_class.pk}, _ctx(user), None)
    assert result.status == "failed" and result.data == {"code": "class_ended"} and result.working is None
    assert "2026-09-22" in result.summary


def test_another_students_plan_is_not_found(user, other_user, behind):
    theirs = make_task_class(other_user, items=1)
    result = TOOL.run({"task_class_id": theirs.pk}, _ctx(user), None)
    assert result.status == "failed" and result.data == {"code": "unknown_task_class"} and result.working is None
    assert TOOL.confirmation({"task_class_id": theirs.pk}, _ctx(user), None) == (
        "Catch up the missed blocks of a plan you do not have.")


def test_changes_not_applied_yet_come_first(user, behind):
    task_class, _ = behind
    extra = make_task_class(user, name="英语", items=1)
    working = working_load(user=user, now=LATER, task_class_ids=[task_class.pk, extra.pk])
    waiting = next(e for e in working.board.entries if e.kind is Kind.STUDY and e.place is None)
    working = PLACE.run({"task_id": waiting.id, "date": "2026-09-24", "start_section": 7}, _ctx(user), working).working
    result = TOOL.run({}, _ctx(user), working)
    assert result.status == "failed" and result.data == {"code": "pending_changes"} and result.working is None


def test_the_catch_up_keeps_the_conversations_board(user, behind):
    task_class, (*_before, fourth) = behind
    working = working_load(user=user, now=LATER, task_class_ids=[task_class.pk])
    result = TOOL.run({}, _ctx(user), working)
    assert result.status == "done"
    assert _study(result.working, fourth).id == _study(working, fourth).id  # the same entry ids
    assert result.working.board.window.last >= working.board.window.last


def test_analyze_health_tells_the_assistant_what_it_can_offer(user, behind):
    result = HEALTH.run({}, _ctx(user), None)
    assert result.data["behind"] == 2 and "可以提出用 catch_up 补上落下的 2 次复习" in result.content


def test_a_caught_up_block_keeps_its_reason_through_the_chats_preview(user, behind):
    _, (_first, second, _third, _fourth) = behind
    result = TOOL.run({}, _ctx(user), None)
    preview = working_publish(user=user, working=result.working, conversation_id=1, now=LATER)
    reason = next(m["reason"] for m in preview.moves if m["item_id"] == second.pk)
    assert (reason["kind"], reason["was"]) == ("catch_up", {"week": 3, "day": 2})
    preview_apply(user=user, preview_id=preview.pk)
    assert TaskItem.objects.get(pk=second.pk).placement_reason == reason
