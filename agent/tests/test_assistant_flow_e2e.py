"""The assistant edits a real schedule, in Chromium, with the scripted model:

1. "把周四晚上的复习挪到周五下午": the model moves the review block; the page shows the card, the
   student accepts, the preview card appears, Apply writes it, and the week board shows the block on
   Friday afternoon.
2. "帮我安排下周的复习计划" with a task class picked: plan card → Accept → the planner rough-builds,
   the preview is applied from the chat card, and the blocks are on the board.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from agent.tests.factories import plan, reply, route, tool_call
from agent.tests.test_chat_e2e import _open_chat
from agent.tools.support.working_schedule import working_load
from board.planning import preview_create
from board.previews import preview_apply, preview_block_move
from schedule.models import CalendarSettings, ScheduleEvent
from schedule.tests.factories import import_csv, make_task_class

THURSDAY, FRIDAY = 4, 5
EVENING, AFTERNOON = 9, 5


def _semester_in_week_three(student) -> date:
    """Move the semester so today is in week 3 (the page's daphne runs on the real clock); return
    the Monday of week 4, "next week"."""
    today = timezone.localdate(timezone.now(), student.zone)
    week_one = today - timedelta(days=today.weekday() + 14)
    CalendarSettings.objects.filter(user=student).update(semester_start=week_one)
    return week_one + timedelta(weeks=3)


def _review_on_thursday_evening(student, monday: date):
    """An applied review block on next Thursday, sections 9-10."""
    review = make_task_class(student, name="概率论复习", items=1, start=monday, end=monday + timedelta(days=6))
    preview = preview_create(user=student, task_class_ids=[review.pk])
    preview_block_move(user=student, preview_id=preview.pk, item_id=preview.placements[0]["item_id"], week=4,
                       day=THURSDAY, start_section=EVENING)
    preview_apply(user=student, preview_id=preview.pk)
    return ScheduleEvent.objects.get(user=student, task_item__task_class=review)


def accept_then_apply(page, card) -> None:
    """Accept the card, then apply the preview card it leads to from the chat and see it applied."""
    card.locator("[data-test=chat-accept]").click()
    preview_card = page.locator("[data-test=chat-preview-card]").last
    expect(preview_card).to_be_visible()
    preview_card.locator("[data-test=chat-preview-apply]").click()
    expect(preview_card.locator("[data-test=chat-card-note]")).to_have_class("chat-card-note ok")


@pytest.mark.e2e
def test_the_assistant_moves_a_review_and_plans_next_week_applied_from_the_chat(
        page, chat_server, transactional_db):
    base_url, fake = chat_server
    student = UserFactory()
    monday = _semester_in_week_three(student)
    import_csv(student, "高等数学,1,1,2,王老师,二教1101,1-20")
    block = _review_on_thursday_evening(student, monday)
    algebra = make_task_class(student, name="线性代数复习", items=3, start=monday, end=monday + timedelta(days=6))
    friday = (monday + timedelta(days=FRIDAY - 1)).isoformat()
    entry = working_load(user=student, now=timezone.now()).board.find(event_id=block.pk)

    # 1. Move Thursday evening's review to Friday afternoon.
    move = {"task_id": entry.id, "date": friday, "start_section": AFTERNOON}
    fake.script(route("execute"), tool_call("move", move))
    _open_chat(page, base_url, student.username)
    page.fill("[data-test=chat-input]", "把周四晚上的复习挪到周五下午")
    page.click("[data-test=chat-send]")
    confirm = page.locator("[data-test=chat-confirm-card]").last
    expect(confirm).to_contain_text("概率论复习")
    assert ScheduleEvent.objects.get(pk=block.pk).day == THURSDAY  # nothing changes before the student agrees

    fake.script(reply("好的，已经挪到周五下午。"))
    accept_then_apply(page, confirm)
    moved = ScheduleEvent.objects.get(user=student, task_item__task_class__name="概率论复习")
    assert (moved.week, moved.day, moved.start_section) == (4, FRIDAY, AFTERNOON)

    page.goto(f"{base_url}/board/?week=4")
    cell = page.locator(f'td[data-day="{FRIDAY}"][data-section="{AFTERNOON}"]')
    expect(cell).to_contain_text("概率论复习")

    # 2. Plan next week's linear algebra review, picked in the task-class picker.
    fake.script(route("plan"), plan("安排下周的线性代数复习", ["粗排 3 次复习", "检查冲突"], rough_build=True,
                                    task_class_ids=[algebra.pk]))
    page.go_back()
    page.locator("[data-test=chat-task-classes] summary").click()
    page.locator(f'[data-test=chat-task-class][value="{algebra.pk}"]').check()
    page.fill("[data-test=chat-input]", "帮我安排下周的复习计划")
    page.click("[data-test=chat-send]")
    plan_card = page.locator("[data-test=chat-confirm-card]").last
    expect(plan_card).to_contain_text("安排下周的线性代数复习")
    expect(plan_card.locator("[data-test=chat-plan-classes]")).to_have_text("任务类：线性代数复习")

    fake.script(tool_call("get_overview", {}), reply("下周的 3 次线性代数复习已经排好，请看预览。"))
    plan_card.locator("[data-test=chat-accept]").click()
    preview_card = page.locator("[data-test=chat-preview-card]").last
    expect(preview_card).to_contain_text("3")
    preview_card.locator("[data-test=chat-preview-apply]").click()
    expect(preview_card.locator("[data-test=chat-card-note]")).to_have_class("chat-card-note ok")
    assert ScheduleEvent.objects.filter(user=student, task_item__task_class=algebra).count() == 3

    page.goto(f"{base_url}/board/?week=4")
    expect(page.locator("td.kind-task_item").filter(has_text="线性代数复习")).to_have_count(3)
