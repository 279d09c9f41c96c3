"""A student imports a timetable, browses weeks and marks a filler course in Chromium."""

from __future__ import annotations

import pytest

from accounts.tests.factories import UserFactory
from schedule.models import Course
from schedule.tests.factories import DEMO_CSV
from smartmate.tests.live_server import log_in


@pytest.mark.e2e
def test_import_the_demo_csv_then_see_the_week_board_fill_in(live_page, transactional_db):
    student = UserFactory(username="lisi")
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/schedule/import/")
    page.set_input_files("#import-file", str(DEMO_CSV))
    page.click("[data-test=import-preview]")
    assert "文件中有 24 条课程安排。" in page.inner_text("[data-test=import-preview-table]")
    page.set_input_files("#import-file", str(DEMO_CSV))
    page.click("[data-test=import-confirm]")
    page.wait_for_url(f"{page.base_url}/board/")
    page.goto(f"{page.base_url}/board/?week=1")
    assert page.inner_text("[data-test=board-title]") == "第 1 周 / 共 20 周"
    titles = page.locator("[data-test=event] .event-title").all_inner_texts()
    assert "高等数学A(下)" in titles and "形势与政策" in titles
    assert Course.objects.filter(user=student).count() == 21


@pytest.mark.e2e
def test_week_navigation_by_buttons_and_keyboard(live_page, transactional_db):
    student = UserFactory(username="wangwu")
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/board/?week=5")
    page.click("[data-test=next-week]")
    page.wait_for_url("**/board/?week=6")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**/board/?week=5")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**/board/?week=4")
    assert page.inner_text("[data-test=board-title]") == "第 4 周 / 共 20 周"


@pytest.mark.e2e
def test_mark_a_course_as_filler_from_the_board(live_page, transactional_db):
    from schedule.tests.factories import import_csv

    student = UserFactory(username="zhaoliu")
    import_csv(student, "形势与政策,1,9,10,赵立新,二教1101,1-8")
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/board/?week=1")
    page.click("[data-test=filler-toggle]")
    page.wait_for_url("**/board/?week=1")
    assert page.locator("[data-test=event].filler").count() == 1
    assert Course.objects.get(user=student).is_filler is True
