"""A student on a phone (390×844, Chinese): no page scrolls sideways, the week board opens as a day
agenda (today first, previous/next day, a 7-day strip), and the dashboard says what is on now and next.
A desktop-width check keeps the week table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from schedule.models import CalendarSettings, ScheduleEvent
from schedule.services.imports import timetable_import
from schedule.tests.factories import DEMO_CSV, custom_event, make_task_class

PHONE = {"width": 390, "height": 844}
SHOTS = "/tmp"


def _student_at_eleven_local():
    """A student whose local clock reads between 10:15 and 11:55 now (sections 3-4 of the default day),
    in week 13 of their semester, with the demo timetable on every other day of the week, and today a
    group meeting on sections 3-4 (now) and a club event on sections 7-8 (next)."""
    utc = timezone.now().astimezone(UTC)
    target = 10 if utc.minute >= 15 else 11  # 10:15-10:59 or 11:00-11:14: inside sections 3-4
    offset = (target - utc.hour) % 24
    if offset > 14:
        offset -= 24
    zone = "Etc/GMT" + ("-" if offset >= 0 else "+") + str(abs(offset))  # Etc/GMT-8 is UTC+8
    student = UserFactory(username="phone1", time_zone=zone)
    today = timezone.localdate(timezone.now(), student.zone)
    CalendarSettings.objects.filter(user=student).update(
        semester_start=today - timedelta(days=today.weekday(), weeks=12))
    weekday = today.isoweekday()
    lines = DEMO_CSV.read_text(encoding="utf-8").splitlines()
    kept = [lines[0]] + [line for line in lines[1:] if line.split(",")[1] != str(weekday)]
    timetable_import(user=student, data=("\n".join(kept) + "\n").encode("utf-8"), fmt="csv")
    now_event = custom_event(student, title="小组讨论", week=13, day=weekday, start=3, end=4)
    ScheduleEvent.objects.filter(pk=now_event.pk).update(location="图书馆研讨室 2")
    custom_event(student, title="社团活动", week=13, day=weekday, start=7, end=8)
    return student, weekday


LONG_URL = "https://jwc.example.edu.cn/notice/2026/autumn/final-exam-arrangement-for-all-second-year-students.html"


def _a_long_conversation(student):
    """A stored conversation whose answer has a wide Markdown table, a long address, a tool call and a card."""
    import uuid

    from agent.flow.contracts import AssistantDelta, ConfirmRequest, ToolCallEvent, ToolResultEvent, TurnDone
    from agent.models import Message
    from agent.tests.factories import make_conversation
    from agent.timeline import TimelineEmitter

    conversation = make_conversation(student, title="期末复习怎么安排比较好")
    turn_id = str(uuid.uuid4())
    Message.objects.create(conversation=conversation, role=Message.Role.USER, turn_id=turn_id,
                           content=f"看看这个通知 {LONG_URL} 然后帮我把概率论、数据结构和大学物理的复习排进下两周")
    emit = TimelineEmitter(conversation_id=conversation.pk, turn_id=turn_id, send=lambda *args: None)
    table = ("| 周次 | 星期 | 节次 | 课程或学习块 | 地点 | 备注 |\n|---|---|---|---|---|---|\n"
             + "".join(f"| 第 {w} 周 | 周三 | 第 5–6 节 | 概率论与数理统计复习第{w}章习题 | 图书馆三楼自习区 | 带上往年试卷 |\n"
                       for w in (13, 14)))
    for event in (ToolCallEvent(call_id="c1", name="query_range", arguments={"week": 13, "days": [1, 2, 3, 4, 5]},
                                summary="查看第 13–14 周的空闲时段"),
                  ToolResultEvent(call_id="c1", name="query_range", status="done", summary="第 13 周有 9 个空闲时段"),
                  AssistantDelta(text=f"按通知（{LONG_URL}）整理如下：\n\n{table}\n`{LONG_URL}`"),
                  ConfirmRequest(interaction_id="confirm-1", title="把 6 个复习时段放进第 13–14 周",
                                 summary="周三 5–6 节、周四 9–10 节、周六 3–4 节"),
                  TurnDone(outcome="interrupted")):
        emit(event)
    return conversation


def _long_notes_and_memories(student) -> None:
    from memory.tests.factories import make_memory
    from taskclasses.notes.services import task_create

    deadline = timezone.now() + timedelta(days=2)
    task_create(user=student, title="周五之前把数据结构实验报告（二叉树与图的遍历）写完并提交到课程平台", quadrant=1,
                deadline=deadline)
    task_create(user=student, title="https://mooc.example.edu.cn/course/probability-2026/chapter-7-homework", quadrant=2)
    make_memory(student, "每周三晚上在图书馆三楼自习区复习概率论与数理统计，通常到 22:00 才离开")
    make_memory(student, f"期末考试安排看教务处通知：{LONG_URL}", "preference")


def _phone_page(browser, base_url: str, width: int = PHONE["width"], height: int = PHONE["height"]):
    context = browser.new_context(locale="zh-CN", timezone_id="Asia/Shanghai",
                                  viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.base_url = base_url  # type: ignore[attr-defined]
    return context, page


def _log_in(page, username: str) -> None:
    page.goto(f"{page.base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("[data-test=login-submit]")
    page.wait_for_url(f"{page.base_url}/")


def _assert_no_sideways_scroll(page, name: str) -> None:
    page.screenshot(path=f"{SHOTS}/phone-{name}.png", full_page=True)
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"{name} scrolls sideways: {widths[0]} px wide in a {widths[1]} px window"


@pytest.mark.e2e
def test_no_page_scrolls_sideways_on_a_phone(browser, live_daphne, transactional_db):
    student, _weekday = _student_at_eleven_local()
    plan = make_task_class(student, name="概率论与数理统计复习", items=6,
                           start=timezone.localdate(timezone.now(), student.zone),
                           end=timezone.localdate(timezone.now(), student.zone) + timedelta(days=13))
    chat = _a_long_conversation(student)
    _long_notes_and_memories(student)
    context, page = _phone_page(browser, live_daphne)
    try:
        page.goto(f"{page.base_url}/accounts/login/")
        _assert_no_sideways_scroll(page, "login")
        _log_in(page, student.username)
        for name, path in (("dashboard", "/"), ("board", "/board/"), ("plans", "/plans/"),
                           ("plan", f"/plans/{plan.pk}/"), ("chat", "/assistant/"), ("memory", "/memory/"),
                           ("settings", "/accounts/settings/"), ("import", "/schedule/import/")):
            page.goto(f"{page.base_url}{path}")
            assert page.get_attribute("html", "lang") == "zh-hans"
            _assert_no_sideways_scroll(page, name)
        page.goto(f"{page.base_url}/assistant/{chat.pk}/")
        page.wait_for_selector("[data-test=chat-answer] table")
        page.wait_for_selector("[data-test=chat-confirm-card]")
        _assert_no_sideways_scroll(page, "chat-conversation")
        # A suggested plan shows in the agenda too.
        page.goto(f"{page.base_url}/plans/{plan.pk}/")
        page.click("[data-test=plan-button]")
        page.wait_for_selector("[data-test=preview-banner]")
        expect(page.locator("[data-test=agenda] [data-test=agenda-suggestion]").first).to_be_attached()
        _assert_no_sideways_scroll(page, "board-preview")
    finally:
        context.close()


@pytest.mark.e2e
def test_the_board_is_a_day_agenda_on_a_phone(browser, live_daphne, transactional_db):
    student, weekday = _student_at_eleven_local()
    context, page = _phone_page(browser, live_daphne)
    try:
        _log_in(page, student.username)
        page.goto(f"{page.base_url}/board/")
        assert not page.is_visible("table.board")
        day = page.locator("[data-test=agenda-day]:visible")
        assert day.count() == 1
        assert day.get_attribute("data-day") == str(weekday)
        assert "今天" in page.inner_text("[data-agenda-current]")
        titles = day.locator("[data-test=agenda-title]").all_inner_texts()
        assert titles == ["小组讨论", "社团活动"]
        assert "图书馆研讨室 2" in day.inner_text()
        assert "10:15" in day.inner_text() and "11:55" in day.inner_text()
        page.screenshot(path=f"{SHOTS}/phone-agenda-today.png", full_page=True)

        # The next day: its own courses (from the timetable), by button, keyboard and the strip.
        target = weekday % 7 + 1
        expected = list(ScheduleEvent.objects.filter(user=student, week=13, day=target)
                        .order_by("start_section").values_list("title", flat=True))
        if weekday == 7:  # Sunday: the next day is in the next week, a link
            page.click("[data-test=agenda-next]")
            page.wait_for_url("**/board/?week=14**")
            expected = list(ScheduleEvent.objects.filter(user=student, week=14, day=1)
                            .order_by("start_section").values_list("title", flat=True))
        else:
            page.click("[data-test=agenda-next]")
        shown = page.locator("[data-test=agenda-day]:visible")
        assert shown.get_attribute("data-day") == str(target)
        assert shown.locator("[data-test=agenda-title]").all_inner_texts() == expected
        assert "今天" not in page.inner_text("[data-agenda-current]")
        page.screenshot(path=f"{SHOTS}/phone-agenda-next.png", full_page=True)
        if weekday != 7:
            page.focus("[data-test=agenda-prev]")
            page.keyboard.press("Enter")
            assert page.locator("[data-test=agenda-day]:visible").get_attribute("data-day") == str(weekday)
            page.click(f"[data-test=agenda-strip] button[data-day='{target}']")
            assert page.locator("[data-test=agenda-day]:visible").get_attribute("data-day") == str(target)
            page.focus("[data-test=agenda-strip] button[data-day='1']")
            page.keyboard.press("Space")
            assert page.locator("[data-test=agenda-day]:visible").get_attribute("data-day") == "1"
            assert page.get_attribute("[data-test=agenda-strip] button[data-day='1']", "aria-pressed") == "true"
    finally:
        context.close()


@pytest.mark.e2e
def test_the_dashboard_says_what_is_now_and_next(browser, live_daphne, transactional_db):
    student, _weekday = _student_at_eleven_local()
    context, page = _phone_page(browser, live_daphne)
    try:
        _log_in(page, student.username)
        now = page.inner_text("[data-test=now-next-now]")
        assert "现在" in now and "小组讨论" in now and "图书馆研讨室 2" in now and "10:15–11:55" in now
        upcoming = page.inner_text("[data-test=now-next-next]")
        assert "接下来" in upcoming and "社团活动" in upcoming and "16:15–17:55" in upcoming
        page.screenshot(path=f"{SHOTS}/phone-dashboard.png", full_page=True)
    finally:
        context.close()


@pytest.mark.e2e
def test_a_desktop_still_gets_the_week_table(browser, live_daphne, transactional_db):
    student, weekday = _student_at_eleven_local()
    context, page = _phone_page(browser, live_daphne, width=1280, height=1000)
    try:
        _log_in(page, student.username)
        page.goto(f"{page.base_url}/board/")
        assert page.is_visible("table.board")
        assert not page.is_visible("[data-test=agenda]")
        assert page.locator(f"table.board thead th.today[data-day='{weekday}']").count() == 1
        page.screenshot(path=f"{SHOTS}/desktop-board.png", full_page=True)
        page.goto(f"{page.base_url}/")
        assert "小组讨论" in page.inner_text("[data-test=now-next-now]")
        page.screenshot(path=f"{SHOTS}/desktop-dashboard.png", full_page=True)
    finally:
        context.close()


def test_now_and_next_in_the_student_zone(db):
    """The selector alone, at fixed moments: during a course, in a break, after the last one."""
    from schedule.now_next import now_next_get

    student, weekday = _student_at_eleven_local()
    today = timezone.localdate(timezone.now(), student.zone)

    def at(hh: int, mm: int):
        return now_next_get(user=student, now=datetime(today.year, today.month, today.day, hh, mm,
                                                       tzinfo=student.zone))

    during = at(10, 30)
    assert during.current is not None and during.current.title == "小组讨论"
    assert during.next is not None and during.next.title == "社团活动"
    gap = at(13, 0)
    assert gap.current is None and gap.next is not None and gap.next.title == "社团活动"
    early = at(7, 0)
    assert early.current is None and early.next is not None and early.next.title == "小组讨论"
    late = at(20, 0)
    assert late.current is None and late.next is None
    assert weekday == today.isoweekday()
