"""The conversation reads the board as it is now, in Chromium in Chinese, with the scripted model:

1. She asks the open conversation what she has tomorrow, applies a plan on the planning page in
   another tab, and asks again: the second answer, written from the tool's result, names the plan's
   blocks (the conversation no longer reads the board it loaded for the first question).
2. An exam in ten days: the chat creates a spaced study plan naming the exam (create_task_class), then
   rough-builds it; after Apply the board holds the reviews 7, 4, 2 and 1 days before the exam.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from agent.tests.factories import plan, reply, route, tool_call
from agent.tests.test_assistant_flow_e2e import accept_then_apply
from agent.tests.test_chat_e2e import _open_chat
from schedule.exams.models import Exam
from schedule.models import CalendarSettings, ScheduleEvent
from schedule.tests.factories import import_csv, make_task_class
from taskclasses.models import TaskClass


def _today_in_week_three(student) -> date:
    """Move the semester so today is in week 3 (the page's daphne runs on the real clock); return today."""
    today = timezone.localdate(timezone.now(), student.zone)
    CalendarSettings.objects.filter(user=student).update(semester_start=today - timedelta(days=today.weekday() + 14))
    return today


def _answer_from_the_tool(request):
    """Answer the way a model reads a tool's result: say what it returned (the script answers the rest)."""
    last = request.messages[-1]
    if last.get("role") != "tool":
        return None
    return reply("明天的安排如下：\n" + last["content"])


def _ask(page, text: str) -> None:
    page.fill("[data-test=chat-input]", text)
    page.click("[data-test=chat-send]")


@pytest.mark.e2e
def test_a_plan_applied_on_the_planning_page_is_in_the_open_conversations_answer(
        page, chat_server, transactional_db):
    base_url, fake = chat_server
    student = UserFactory()
    tomorrow = (_today_in_week_three(student) + timedelta(days=1)).isoformat()
    import_csv(student, f"高等数学,{date.fromisoformat(tomorrow).isoweekday()},1,2,王老师,二教1101,1-20")
    review = make_task_class(student, name="概率论复习", items=2, start=date.fromisoformat(tomorrow),
                             end=date.fromisoformat(tomorrow))
    fake.set_responder(_answer_from_the_tool)
    try:
        fake.script(route("execute"), tool_call("query_range", {"date": tomorrow}))
        _open_chat(page, base_url, student.username)
        _ask(page, "我明天有什么安排？")
        answers = page.locator("[data-test=chat-assistant-message] .chat-text")
        expect(answers.last).to_contain_text("高等数学")
        expect(page.locator("[data-test=chat-send]")).to_be_enabled()
        assert "概率论复习" not in answers.last.inner_text()

        planning = page.context.new_page()
        planning.goto(f"{base_url}/plans/{review.pk}/")
        planning.click("[data-test=plan-button]")
        planning.wait_for_selector("[data-test=preview-banner]")
        planning.click("[data-test=preview-apply]")
        planning.wait_for_selector("[data-test=undo-banner]")
        assert ScheduleEvent.objects.filter(user=student, task_item__task_class=review).count() == 2

        fake.script(route("execute"), tool_call("query_range", {"date": tomorrow}))
        page.bring_to_front()
        _ask(page, "那现在明天有什么安排？")
        expect(answers).to_have_count(2)
        expect(answers.last).to_contain_text("概率论复习")
        expect(answers.last).to_contain_text("高等数学")
    finally:
        fake.reset()


@pytest.mark.e2e
def test_an_exam_in_ten_days_gets_spaced_reviews_on_the_board_from_the_chat(page, chat_server, transactional_db):
    base_url, fake = chat_server
    student = UserFactory()
    today = _today_in_week_three(student)
    exam_day = today + timedelta(days=10)
    Exam.objects.create(user=student, title="高数期末", date=exam_day)
    create = {"name": "高数期末复习", "start_date": today.isoformat(), "end_date": exam_day.isoformat(),
              "item_count": 4, "strategy": "spaced", "exam": "高数期末"}
    fake.script(route("execute"), tool_call("create_task_class", create))
    _open_chat(page, base_url, student.username)
    _ask(page, "十天后考高数期末，帮我做一个间隔复习计划")
    card = page.locator("[data-test=chat-confirm-card]").last
    expect(card).to_contain_text("高数期末复习")

    fake.script(reply("已经建好「高数期末复习」，共 4 次复习。"))
    card.locator("[data-test=chat-accept]").click()
    expect(page.locator("[data-test=chat-assistant-message] .chat-text").last).to_contain_text("已完成")
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()
    review = TaskClass.objects.get(user=student, name="高数期末复习")
    assert (review.strategy, review.exam.title) == ("spaced", "高数期末")

    fake.script(route("plan"), plan("把高数期末复习排进日程", ["粗排 4 次复习"], rough_build=True,
                                    task_class_ids=[review.pk]))
    _ask(page, "把它排进日程吧")
    plan_card = page.locator("[data-test=chat-confirm-card]").last
    expect(plan_card).to_contain_text("把高数期末复习排进日程")
    fake.script(reply("4 次复习已按考前 7、4、2、1 天排好，请看预览。"))
    accept_then_apply(page, plan_card)

    blocks = ScheduleEvent.objects.filter(user=student, task_item__task_class=review).order_by("starts_at")
    days_before = [(exam_day - timezone.localdate(b.starts_at, student.zone)).days for b in blocks]
    assert days_before == [7, 4, 2, 1]
    first = blocks[0]
    page.goto(f"{base_url}/board/?week={first.week}")
    expect(page.locator(f'td.kind-task_item[data-day="{first.day}"]').filter(has_text="高数期末复习")).to_have_count(1)
