"""The assistant offers "补上落下的 N 次复习": a whole turn with the scripted model, the real tool and database.

The catch-up waits for the student's confirmation, then becomes the conversation's preview; applying it
plans the missed blocks again. Declined, nothing changes.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from agent.tests.factories import last_of, make_conversation, reply, resume, route, run_turn, tool_call
from board.previews import preview_apply
from schedule.models import PlanPreview, ScheduleEvent
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class, place_item

pytestmark = pytest.mark.django_db(transaction=True)

# Wednesday of week 3 (2026-09-23), 12:00: Monday and Tuesday of week 3 have gone by.
LATER = datetime(2026, 9, 23, 12, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


@pytest.fixture(autouse=True)
def wednesday(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: LATER)


@pytest.fixture
def behind(user):
    """#1 placed Monday (gone by), #2 missed Tuesday, #3 ahead on Friday."""
    task_class = make_task_class(user, items=3)
    items = list(task_class.items.order_by("order"))
    for item, day, status in zip(items, (1, 2, 5), ("placed", "missed", "placed")):
        place_item(item, week=3, day=day, start=1, status=status)
    return items


def _where(item: TaskItem) -> tuple[int, int, int]:
    event = ScheduleEvent.objects.get(task_item=item)
    return event.week, event.day, event.start_section


def test_the_catch_up_offered_is_confirmed_then_applied_from_its_preview(fake_llm, user, behind):
    first, second, third = behind
    conversation = make_conversation(user)
    fake_llm.script(route("execute"), tool_call("catch_up", {}, text="你有 2 次复习落下了，要补上吗？"))
    card = last_of(run_turn(user, conversation, "我上周好像漏了几次复习"), "confirm.request")
    assert card["details"] == {"tool": "catch_up", "arguments": {}}
    assert "Catch up 2 missed blocks" in card["summary"]
    assert _where(first) == (3, 1, 1) and not PlanPreview.objects.exists()  # nothing ran yet

    fake_llm.script(reply("补好了：两次复习都排在了周五之前。"))
    frames = resume(user, conversation, card["interaction_id"], "accept")
    assert [f["status"] for f in frames if f["type"] == "tool.result"] == ["done"]
    preview = PlanPreview.objects.get(pk=last_of(frames, "preview.ready")["preview_id"])
    assert {m["item_id"] for m in preview.moves} == {first.pk, second.pk}

    preview_apply(user=user, preview_id=preview.pk)
    assert (3, 3, 5) <= _where(first) < _where(second) < _where(third) == (3, 5, 1)
    assert TaskItem.objects.get(pk=second.pk).status == "placed"


def test_a_declined_catch_up_changes_nothing(fake_llm, user, behind):
    first, second, _third = behind
    conversation = make_conversation(user)
    fake_llm.script(route("execute"), tool_call("catch_up", {}))
    card = last_of(run_turn(user, conversation, "帮我补上落下的复习"), "confirm.request")
    fake_llm.script(reply("好的，先不动。"))
    frames = resume(user, conversation, card["interaction_id"], "reject", "先不用")
    assert frames[0]["status"] == "blocked" and not any(f["type"] == "preview.ready" for f in frames)
    assert _where(first) == (3, 1, 1) and TaskItem.objects.get(pk=second.pk).status == "missed"
