"""A student in Chromium adds an exam and a spaced revision class: the countdown on the overview, the
blocks spaced 7, 4, 2 and 1 days before the exam on the board, and — the evening before a make-up day —
tomorrow's preview saying which day's classes run; the pages fit a phone (390x844, no sideways scroll).

The page's daphne runs on the real clock, so the semester is moved to put today in week 3 and every date
is taken from today (the services' own tests freeze the clock)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from accounts.tests.factories import UserFactory
from schedule.models import CalendarSettings, ScheduleEvent
from schedule.services.academic_calendar import DayInput, calendar_day_create, school_calendar_switch
from schedule.tests.factories import import_csv
from smartmate.tests.live_server import log_in, wait_until

PHONE = {"width": 390, "height": 844}


def _today_in_week_three(student) -> tuple[date, date]:
    """Move the semester so that today is in week 3; return today and Monday of week 1."""
    from django.utils import timezone

    today = timezone.localdate(timezone.now(), student.zone)
    week_one = today - timedelta(days=today.weekday() + 14)
    CalendarSettings.objects.filter(user=student).update(semester_start=week_one)
    return today, week_one


def _fits_a_phone(page) -> None:
    page.set_viewport_size(PHONE)
    for path in ("/", "/schedule/exams/"):
        page.goto(f"{page.base_url}{path}")
        wait_until(page, "() => document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.e2e
def test_an_exam_a_spaced_class_the_countdown_and_tomorrows_preview(live_page, transactional_db):
    student = UserFactory(username="kaoshi")
    import_csv(student, "大学物理,5,3,4,李老师,二教1201,1-16")
    today, week_one = _today_in_week_three(student)
    tomorrow = today + timedelta(days=1)
    calendar_day_create(user=student, day=DayInput("makeup", "调休", tomorrow, tomorrow, 2, 5))
    school_calendar_switch(user=student, follows=True)
    exam_day = today + timedelta(days=15)
    page = live_page
    log_in(page, student.username)

    page.goto(f"{page.base_url}/schedule/exams/")
    assert "还没有考试。" in page.inner_text("[data-test=exams]")
    form = page.locator("[data-test=exam-form]")
    form.locator("input[name=title]").fill("高等数学")
    form.locator("input[name=date]").fill(exam_day.isoformat())
    form.locator("input[name=start_time]").fill("09:00")
    form.locator("input[name=end_time]").fill("11:00")
    form.locator("input[name=place]").fill("二教1101")
    form.locator("[data-test=exam-add]").click()
    page.wait_for_load_state()
    assert "已添加考试「高等数学」。" in page.inner_text(".messages")
    assert page.inner_text("[data-test=exam-countdown]").strip() == "还有 15 天"
    # Show tomorrow's preview from midnight on, so the test does not depend on the hour it runs at.
    page.locator("[data-test=preview-setting] input[name=preview_after]").fill("00:00")
    page.click("[data-test=preview-save]")
    page.wait_for_load_state()

    page.goto(f"{page.base_url}/plans/")
    page.fill("input[name=name]", "高数复习")
    page.check("input[name=strategy][value=spaced]")
    page.fill("input[name=start_date]", tomorrow.isoformat())
    page.fill("input[name=end_date]", exam_day.isoformat())
    page.fill("textarea[name=items_text]", "极限\n导数\n积分\n级数")
    page.select_option("select[name=exam]", label=f"高等数学 · {exam_day.isoformat()}")
    page.click("[data-test=task-class-create-submit]")
    page.wait_for_selector("[data-test=plan-button]")
    assert "间隔复习" in page.inner_text("main")
    page.click("[data-test=plan-button]")
    page.wait_for_selector("[data-test=preview-banner]")
    page.click("[data-test=preview-apply]")
    page.wait_for_selector("[data-test=undo-banner]")
    blocks = ScheduleEvent.objects.filter(user=student, kind="task_item").order_by("starts_at")
    days = [week_one + timedelta(weeks=b.week - 1, days=b.day - 1) for b in blocks]
    assert [(exam_day - d).days for d in days] == [7, 4, 2, 1]
    assert [b.task_item.content for b in blocks] == ["极限", "导数", "积分", "级数"]

    exam_week = (exam_day - week_one).days // 7 + 1
    page.goto(f"{page.base_url}/board/?week={exam_week}")
    header = page.locator(f"thead th[data-day='{exam_day.isoweekday()}']")
    assert "考试：高等数学 09:00" in header.inner_text()
    on_board = page.locator("td.kind-task_item").count()
    assert on_board == sum(1 for b in blocks if b.week == exam_week)

    page.goto(f"{page.base_url}/")
    assert "距「高等数学」考试还有 15 天" in page.inner_text("[data-test=exam-countdowns]")
    preview = page.inner_text("[data-test=tomorrow]")
    assert "明天按第 2 周周五上课。" in preview and "大学物理" in preview
    _fits_a_phone(page)
    page.screenshot(path="/tmp/exams-phone.png", full_page=True)
