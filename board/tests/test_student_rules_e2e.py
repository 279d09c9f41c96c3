"""The student's rules in Chromium (Chinese): lunch set protected on the settings page keeps the planner out of
section 5; a block pinned from its dialog on the week board refuses a drag with the core's words; the rules
card fits a phone (390x844)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from board.tests.test_planning_e2e import _in_week_three_now
from schedule.models import PlanPreview, ScheduleEvent
from schedule.student_rules.models import StudyRules
from schedule.tests.factories import make_task_class
from smartmate.tests.live_server import log_in, wait_until
from taskclasses.models import TaskItem
from taskclasses.tests.factories import place_item

PHONE = {"width": 390, "height": 844}


@pytest.mark.e2e
def test_lunch_protected_on_the_settings_page_keeps_the_plan_out_of_section_5(live_page, transactional_db):
    student = UserFactory(username="rules1")
    week_four, _week_five, end = _in_week_three_now(student)
    task_class = make_task_class(student, items=24, start=week_four, end=end)
    page = live_page
    page.set_viewport_size(PHONE)
    log_in(page, student.username)
    page.goto(f"{page.base_url}/accounts/settings/#study-rules")
    card = page.locator("[data-test=study-rules]")
    assert card.locator("h2").inner_text() == "我的规则"
    page.fill("[data-test=protected-name]", "午饭")
    page.select_option("[data-test=protected-first]", "5")
    page.select_option("[data-test=protected-last]", "5")
    page.click("[data-test=protected-add]")
    page.wait_for_selector("[data-test=protected-time]")
    assert "已添加保护时段。" in page.inner_text("body")
    assert "第 5 节" in page.inner_text("[data-test=protected-time]") and "每天" in page.inner_text(
        "[data-test=protected-time]")
    wait_until(page, "() => document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scroll
    assert StudyRules.objects.get(user=student).protected_times[0]["first"] == 5

    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{page.base_url}/plans/{task_class.pk}/")
    page.click("[data-test=plan-button]")
    page.wait_for_selector("[data-test=preview-banner]")
    expect(page.locator("[data-test=suggestion]").first).to_be_attached()  # the page may still be parsing
    placements = PlanPreview.objects.get(user=student).placements
    assert len(placements) == 24 and all(p["start_section"] != 5 for p in placements)
    assert page.locator('td.suggestion-cell[data-section="5"]').count() == 0


@pytest.mark.e2e
def test_a_pinned_block_refuses_a_drag_in_chinese(live_page, transactional_db):
    student = UserFactory(username="rules2")
    week_four, _week_five, end = _in_week_three_now(student)
    item = make_task_class(student, items=1, start=week_four, end=end).items.get()
    place_item(item, week=4, day=2, start=5)
    TaskItem.objects.filter(pk=item.pk).update(status=TaskItem.Status.PLACED)
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/board/?week=4")
    page.wait_for_selector("#board-edit[data-ready=true]", state="attached")
    block = f'td[data-block-kind="item"][data-block-id="{item.pk}"]'
    page.click(block)
    pin = page.locator("[data-test=block-pin]")
    pin.wait_for(state="visible")
    assert pin.inner_text() == "固定在这里"
    with page.expect_navigation():  # the board reloads with the pin
        pin.click()
    page.wait_for_selector("#board-edit[data-ready=true]", state="attached")
    assert StudyRules.objects.get(user=student).pinned_items == [item.pk]
    assert page.locator(f"{block} [data-test=pin-mark]").get_attribute("title") == "已固定"

    page.drag_and_drop(block, 'td.free[data-day="5"][data-section="3"]')
    page.locator("[data-test=board-error]").wait_for(state="visible")
    assert page.inner_text("[data-test=board-error-message]") == "“概率论复习 #1”已固定：先取消固定，才能移动或移除。"
    assert ScheduleEvent.objects.get(task_item=item).day == 2

    page.click(block)
    pin.wait_for(state="visible")
    assert pin.inner_text() == "取消固定"


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 900}, PHONE], ids=["desktop", "phone"])
def test_lunch_by_clock_on_the_default_grid_is_answered_and_a_refused_form_keeps_its_inputs(
        live_page, transactional_db, viewport):
    """The README's own "午饭 11:40–13:30" falls between sections 4 and 5 of the default grid: said so, not
    refused; a protected time over a course is refused and the form comes back as she typed it."""
    from schedule.tests.factories import import_csv

    student = UserFactory(username=f"rules4-{viewport['width']}")
    import_csv(student, "高等数学,2,5,6,王老师,二教1101,1-16")
    page = live_page
    page.set_viewport_size(viewport)
    log_in(page, student.username)
    page.goto(f"{page.base_url}/accounts/settings/#study-rules")
    page.fill("[data-test=protected-name]", "午饭")
    page.check("[data-test=protected-by-time]")
    page.fill("[data-test=protected-start]", "11:40")
    page.fill("[data-test=protected-end]", "13:30")
    page.click("[data-test=protected-add]")
    page.wait_for_load_state()
    assert "在你的第 4 节和第 5 节之间，这段时间本来就不会安排学习块，不用另设保护。" in page.inner_text(".messages")
    assert not StudyRules.objects.filter(user=student).exclude(protected_times=[]).exists()

    page.fill("[data-test=protected-name]", "午休")
    page.uncheck("[data-test=protected-day-3]")
    page.select_option("[data-test=protected-first]", "5")
    page.select_option("[data-test=protected-last]", "6")
    page.click("[data-test=protected-add]")
    page.wait_for_load_state()
    assert "高等数学" in page.inner_text(".messages")  # over Tuesday's course
    assert page.input_value("[data-test=protected-name]") == "午休"
    assert page.input_value("[data-test=protected-first]") == "5" and page.input_value("[data-test=protected-last]") == "6"
    assert not page.is_checked("[data-test=protected-day-3]") and page.is_checked("[data-test=protected-day-2]")
