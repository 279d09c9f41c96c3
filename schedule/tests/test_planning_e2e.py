"""A student plans a study plan in Chromium: feasibility, plan, drag a block, apply, undo."""

from __future__ import annotations

from datetime import date

import pytest

from accounts.models import CalendarSettings
from accounts.tests.factories import UserFactory
from schedule.models import PlanPreview, ScheduleEvent
from schedule.tests.factories import custom_event, make_task_class
from smartmate.tests.live_server import log_in


def _in_week_three_now(student) -> tuple[date, date, date]:
    """Move the student's semester so that today is in week 3; return the Mondays of weeks 4 and 5
    and the Sunday of week 5 (the page's daphne runs on the real clock)."""
    from datetime import timedelta

    from django.utils import timezone

    today = timezone.localdate(timezone.now(), student.zone)
    week_one = today - timedelta(days=today.weekday() + 14)
    CalendarSettings.objects.filter(user=student).update(semester_start=week_one)
    return week_one + timedelta(weeks=3), week_one + timedelta(weeks=4), week_one + timedelta(weeks=5, days=-1)


@pytest.mark.e2e
def test_plan_drag_apply_and_undo(live_page, transactional_db):
    student = UserFactory(username="planner1")
    week_four, _week_five, end = _in_week_three_now(student)
    task_class = make_task_class(student, items=16, excluded_pairs=[6], start=week_four, end=end)
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/plans/{task_class.pk}/")
    assert page.inner_text("[data-test=feasibility]").strip() == "请求 16 个学习块，窗口内有 70 个可用时段，余量 54"
    page.click("[data-test=plan-button]")
    page.wait_for_selector("[data-test=preview-banner]")
    assert page.locator("[data-test=suggestion]").count() > 0
    first = page.locator("[data-test=suggestion]").first
    item = first.get_attribute("data-item")
    first.drag_to(page.locator('td.free[data-day="7"][data-section="9"]'))
    page.wait_for_selector(f'td.suggestion-cell[data-day="7"][data-section="9"] [data-item="{item}"], '
                           f'td.suggestion-cell[data-day="7"][data-section="9"] [data-test=suggestion]')
    page.click("[data-test=preview-apply]")
    page.wait_for_selector("[data-test=undo-banner]")
    assert ScheduleEvent.objects.filter(user=student, kind="task_item").count() == 16
    assert ScheduleEvent.objects.filter(user=student, kind="task_item", day=7, start_section=9).exists()
    assert page.locator("td.kind-task_item").count() > 0
    page.click("[data-test=undo]")
    page.wait_for_selector("[data-test=undo-banner]", state="detached")
    assert not ScheduleEvent.objects.filter(user=student, kind="task_item").exists()
    assert page.locator("td.kind-task_item").count() == 0


@pytest.mark.e2e
def test_a_refused_drop_shows_the_reason(live_page, transactional_db):
    student = UserFactory(username="planner2")
    week_four, _week_five, end = _in_week_three_now(student)
    custom_event(student, title="社团活动", week=4, day=2, start=3, end=4)
    make_task_class(student, items=2, start=week_four, end=end)
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/plans/")
    page.check("input[name=task_class_ids]")
    page.click("[data-test=plan-selected]")
    page.wait_for_selector("[data-test=preview-banner]")
    page.locator("[data-test=suggestion]").first.drag_to(page.locator('td[data-event-id]').first)
    page.wait_for_selector("[data-test=board-error]:not([hidden])")
    assert "社团活动" in page.inner_text("[data-test=board-error]")


@pytest.mark.e2e
def test_two_classes_on_a_tight_week_place_every_placeable_block(live_page, transactional_db):
    from datetime import timedelta

    student = UserFactory(username="planner3")
    week_four, _week_five, _end = _in_week_three_now(student)
    week = {"start": week_four, "end": week_four + timedelta(days=6)}
    for day in range(1, 8):
        custom_event(student, title=f"忙 {day}", week=4, day=day, start=1, end=8)
    first = make_task_class(student, name="概率论", items=8, **week)
    second = make_task_class(student, name="数据结构", items=8, strategy="rapid", **week)
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/plans/")
    for checkbox in page.locator("input[name=task_class_ids]").all():
        checkbox.check()
    page.click("[data-test=plan-selected]")
    page.wait_for_selector("[data-test=preview-banner]")
    assert page.locator("[data-test=suggestion]").count() == 14
    assert page.locator("[data-test=unplaced] li").count() == 2
    assert set(PlanPreview.objects.get(user=student).task_class_ids) == {first.pk, second.pk}
