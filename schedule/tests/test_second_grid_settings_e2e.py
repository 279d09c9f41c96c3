"""A student whose school moves its afternoons from a date (winter hours) types the second grid on the settings
page in Chromium: added from the first grid's times, edited, refused in Chinese when wrong, then the board's
meetings of that afternoon run at the new times from the date on; the editor fits a phone."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest

from accounts.tests.factories import UserFactory
from schedule.models import CalendarSettings, ScheduleEvent
from schedule.tests.factories import import_csv
from smartmate.tests.live_server import log_in

PHONE = {"width": 390, "height": 844}


def later_row(page, number: int):
    return page.locator("#later-sections tbody tr").nth(number - 1)


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_winter_hours_typed_on_the_settings_page_move_the_afternoon_from_their_date(
        live_page, transactional_db, viewport):
    student = UserFactory(username="xiaohong")
    import_csv(student, "大学物理,3,5,6,李老师,二教1201,1-16")  # Wednesdays 14:00-15:40 on the default grid
    page = live_page
    if viewport:
        page.set_viewport_size(viewport)
    log_in(page, student.username)
    page.goto(f"{page.base_url}/accounts/settings/")
    assert page.locator("[data-test=later-sections-editor]").is_hidden()
    page.click("[data-test=add-later-sections]")
    assert later_row(page, 5).locator("input[name=later_section_start]").input_value() == "14:00"

    # Section 5 ending before it starts is refused in Chinese; nothing is saved.
    page.fill("[data-test=later-sections-from]", "2026-11-02")
    later_row(page, 5).locator("input[name=later_section_start]").fill("14:30")
    later_row(page, 5).locator("input[name=later_section_end]").fill("14:00")
    page.click("[data-test=settings-save]")
    page.wait_for_load_state()
    error = page.inner_text("[data-test=later-sections-error]")
    assert error.startswith("冬夏令作息：") and "第 5 节" in error
    assert CalendarSettings.objects.get(user=student).later_section_times == []
    if viewport:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width  # the editor fits the phone without sideways scrolling

    # The editor kept what was typed: correct the two afternoon sections and save.
    later_row(page, 5).locator("input[name=later_section_start]").fill("13:30")
    later_row(page, 5).locator("input[name=later_section_end]").fill("14:15")
    later_row(page, 6).locator("input[name=later_section_start]").fill("14:25")
    later_row(page, 6).locator("input[name=later_section_end]").fill("15:10")
    page.click("[data-test=settings-save]")
    page.wait_for_load_state()
    assert "设置已保存" in page.inner_text(".messages")
    calendar = CalendarSettings.objects.get(user=student)
    assert str(calendar.later_sections_from) == "2026-11-02"
    assert calendar.later_section_times[4:6] == [["13:30", "14:15"], ["14:25", "15:10"]]
    assert page.locator("[data-test=later-sections-from]").input_value() == "2026-11-02"

    # Week 8 (before the date) keeps the summer afternoon, week 9 (from 11-02) runs the winter one: the
    # meetings are retimed and the board labels the week with its grid.
    shanghai = ZoneInfo("Asia/Shanghai")
    for week, times in ((8, "14:00–14:45"), (9, "13:30–14:15")):
        meeting = ScheduleEvent.objects.get(user=student, week=week)
        assert f"{meeting.starts_at.astimezone(shanghai):%H:%M}" == times[:5]
        page.goto(f"{page.base_url}/board/?week={week}")
        if not viewport:
            assert times in page.locator("tbody tr").nth(4).locator("th.section-col").inner_text()
