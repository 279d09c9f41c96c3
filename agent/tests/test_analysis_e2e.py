""""我这周是不是太满了" in Chromium, in Chinese, with the scripted model: it calls analyze_health, answers
from its decision, and suggests the swap it names; the swap runs only after the student accepts, and
the preview applied from the chat card puts the blocks in their new places."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from agent.models import Conversation
from agent.tests.factories import reply, timeline, tool_call
from agent.tests.test_chat_e2e import _open_chat
from agent.tools.support.working_schedule import working_load
from board.boards import board_load
from board.planning import PreviewOrigin, preview_publish
from board.previews import preview_apply
from schedule.core.board import Spot
from schedule.core.board_edits import place
from schedule.models import CalendarSettings, ScheduleEvent
from schedule.tests.factories import make_task_class

ANSWER = ("这周总量不算太满，时间够用；但明天概率论和英语来回切换了 3 次。"
          "建议把“英语 #1”和“概率论复习 #2”对调，同一科目就能挨在一起。")


def _alternating_tomorrow(student):
    """Tomorrow (week 3): 概率论 #1, 英语 #1, 概率论 #2, 英语 #2 applied at sections 1, 3, 5, 7."""
    today = timezone.localdate(timezone.now(), student.zone)
    CalendarSettings.objects.filter(user=student).update(
        semester_start=today - timedelta(days=today.weekday() + 14))
    tomorrow = today + timedelta(days=1)
    classes = [make_task_class(student, name=name, items=2, start=tomorrow, end=tomorrow + timedelta(days=6))
               for name in ("概率论复习", "英语")]
    board = board_load(user=student, now=timezone.now(), first=tomorrow, last=tomorrow + timedelta(days=6),
                       class_ids=[c.pk for c in classes])
    for name, start in (("概率论复习 #1", 1), ("英语 #1", 3), ("概率论复习 #2", 5), ("英语 #2", 7)):
        board = place(board, next(e.id for e in board.entries if e.name == name), Spot(tomorrow, start))
    preview = preview_publish(user=student, board=board, origin=PreviewOrigin())
    preview_apply(user=student, preview_id=preview.pk)
    return tomorrow


def _route_with_analysis() -> dict:
    """The route stage picks execute and names the analysis pack beside the schedule packs."""
    decision = {"route": "execute", "reason": "test", "packs": ["schedule_read", "schedule_write", "analysis"]}
    return {"text": json.dumps(decision), "prompt_tokens": 100, "completion_tokens": 5}


@pytest.mark.e2e
def test_is_my_week_too_full_is_answered_from_analyze_health_with_a_confirmed_swap(
        page, chat_server, transactional_db):
    base_url, fake = chat_server
    student = UserFactory()
    tomorrow = _alternating_tomorrow(student)
    board = working_load(user=student, now=timezone.now()).board
    english, second = (next(e.id for e in board.entries if e.name == name) for name in ("英语 #1", "概率论复习 #2"))
    week = {"date_from": timezone.localdate(timezone.now(), student.zone).isoformat(),
            "date_to": (tomorrow + timedelta(days=5)).isoformat()}
    fake.script(_route_with_analysis(), tool_call("analyze_health", week),
                tool_call("swap", {"task_a": english, "task_b": second}, text=ANSWER))

    _open_chat(page, base_url, student.username)
    page.fill("[data-test=chat-input]", "我这周是不是太满了")
    page.click("[data-test=chat-send]")
    confirm = page.locator("[data-test=chat-confirm-card]").last
    expect(confirm).to_contain_text("英语 #1", timeout=30_000)  # two model rounds on a busy machine
    expect(confirm).to_contain_text("概率论复习 #2")
    analysis = page.locator("[data-test=chat-tool]").filter(has_text="检查日程是否太满").first
    expect(analysis).to_contain_text("有几天科目切换太频繁")
    expect(page.locator("[data-test=chat-transcript], body").first).to_contain_text("来回切换了 3 次")
    starts = dict(ScheduleEvent.objects.filter(user=student, kind="task_item").values_list("title", "start_section"))
    assert starts == {"概率论复习 #1": 1, "英语 #1": 3, "概率论复习 #2": 5, "英语 #2": 7}  # nothing moved yet
    decision = next(f["result"]["decision"] for f in timeline(Conversation.objects.get(user=student))
                    if f["type"] == "tool.result" and f["name"] == "analyze_health")
    assert decision["recommended_operation"] == "swap"  # the swap suggested is the analysis's own candidate
    assert {decision["candidates"][0]["entry"], decision["candidates"][0]["other"]} == {english, second}

    fake.script(reply("已对调：明天先复习两次概率论，再复习两次英语。"))
    confirm.locator("[data-test=chat-accept]").click()
    preview_card = page.locator("[data-test=chat-preview-card]").last
    expect(preview_card).to_be_visible(timeout=30_000)
    preview_card.locator("[data-test=chat-preview-apply]").click()
    expect(preview_card.locator("[data-test=chat-card-note]")).to_have_class("chat-card-note ok")
    starts = dict(ScheduleEvent.objects.filter(user=student, kind="task_item").values_list("title", "start_section"))
    assert starts == {"概率论复习 #1": 1, "概率论复习 #2": 3, "英语 #1": 5, "英语 #2": 7}
