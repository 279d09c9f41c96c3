"""The workload view in Chromium, in Chinese: the week board's load strip (a heavy day marked) and the
dashboard's study chart, on a desktop and on a 390x844 phone with no sideways scrolling."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User
from accounts.tests.factories import UserFactory
from board.planning import preview_create
from board.previews import preview_apply
from board.tests.test_planning_e2e import _in_week_three_now
from schedule.tests.factories import custom_event, import_csv
from smartmate.tests.live_server import log_in
from taskclasses.tests.factories import make_task_class

PHONE = {"width": 390, "height": 844}
SHOTS = "/tmp"  # screenshots for people to look at; nothing reads them


def _busy_student(username: str):
    """A student in week 3 whose week-3 Wednesday holds 8 of 12 sections, with a plan applied in weeks 4-5."""
    student: User = UserFactory(username=username)  # type: ignore[assignment]  # the factory builds a User
    week_four, _week_five, end = _in_week_three_now(student)
    import_csv(student, "高等数学,3,1,2,王老师,二教1101,3", "大学物理,3,3,4,李老师,二教1102,3",
               "线性代数,3,5,6,张老师,二教1103,3")
    custom_event(student, title="社团活动", week=3, day=3, start=7, end=8)
    plan = make_task_class(student, name="概率论复习", items=4, start_date=week_four, end_date=end)
    preview_apply(user=student, preview_id=preview_create(user=student, task_class_ids=[plan.pk]).pk)
    return student


def _no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.e2e
def test_the_strip_marks_the_heavy_day_and_the_dashboard_charts_study_hours(live_page, transactional_db):
    student = _busy_student("load1")
    page = live_page
    log_in(page, student.username)
    chart = page.locator("[data-test=workload-chart]")
    expect(chart).to_contain_text("每周学习时间")
    expect(chart.locator("[data-test=workload-week]")).to_have_count(20)
    expect(chart.locator("[data-test=workload-class]")).to_contain_text("概率论复习")
    assert chart.locator("svg.workload-chart-svg").bounding_box()["width"] > 300

    page.goto(f"{page.base_url}/board/?week=3")
    strip = page.locator("[data-test=workload-strip]")
    expect(strip).to_contain_text("每日负荷")
    expect(strip.locator("[data-test=workload-day]")).to_have_count(7)
    wednesday = strip.locator("[data-test=workload-day]").nth(2)
    expect(wednesday).to_have_attribute("data-heavy", "1")
    expect(wednesday.locator("[data-test=workload-heavy]")).to_have_text("偏满")
    expect(wednesday.locator("[data-test=workload-figure]")).to_have_text("8/12")
    expect(strip.locator("[data-test=workload-heavy-count]")).to_have_text("1 天偏满")
    strip.screenshot(path=f"{SHOTS}/workload-strip-desktop.png")


@pytest.mark.e2e
def test_the_strip_and_chart_fit_a_phone(live_page, transactional_db):
    student = _busy_student("load2")
    page = live_page
    page.set_viewport_size(PHONE)
    log_in(page, student.username)
    chart = page.locator("[data-test=workload-chart] svg.workload-chart-svg")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert _no_sideways_scroll(page)
    page.locator("[data-test=workload-chart]").screenshot(path=f"{SHOTS}/workload-chart-phone.png")

    page.goto(f"{page.base_url}/board/?week=3")
    days = page.locator("[data-test=workload-strip] [data-test=workload-day]")
    expect(days).to_have_count(7)
    for n in range(7):
        day = days.nth(n).bounding_box()
        assert day["x"] >= 0 and day["x"] + day["width"] <= PHONE["width"]
    expect(days.nth(2).locator("[data-test=workload-heavy]")).to_be_visible()
    assert _no_sideways_scroll(page)
    page.locator("[data-test=workload-strip]").screenshot(path=f"{SHOTS}/workload-strip-phone.png")
