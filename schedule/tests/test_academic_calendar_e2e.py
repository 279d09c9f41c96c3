"""A new student switches on the school calendar in Chromium: National Day week loses its courses, a make-up
Sunday runs Friday's, on the week board and in the downloaded .ics; the settings section fits a phone."""

from __future__ import annotations

from datetime import date
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar

from accounts.tests.factories import UserFactory
from schedule.tests.factories import import_csv
from smartmate.tests.live_server import log_in

PHONE = {"width": 390, "height": 844}


def add_day(page, kind: str, name: str, first: str, last: str = "", week: str = "", weekday: str = "") -> None:
    form = page.locator("[data-test=calendar-day-form]")
    form.locator("select[name=kind]").select_option(kind)
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=first_date]").fill(first)
    if last:
        form.locator("input[name=last_date]").fill(last)
    if week:
        form.locator("input[name=runs_week]").fill(week)
        form.locator("select[name=runs_day]").select_option(weekday)
    form.locator("[data-test=calendar-day-add]").click()
    page.wait_for_load_state()


@pytest.mark.e2e
def test_switch_on_the_school_calendar_and_see_the_board_and_the_ics(live_page, transactional_db, tmp_path):
    student = UserFactory(username="xiaoming")
    import_csv(student, "英语,1,1,2,陈老师,一教101,1-16", "高等数学,4,1,2,王老师,二教1101,1-16",
               "大学物理,5,3,4,李老师,二教1201,1-16")
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/accounts/settings/#school-calendar")
    assert "还没有假日、调休日或考试周。" in page.inner_text("[data-test=school-calendar]")
    add_day(page, "holiday", "国庆节", "2026-10-01", "2026-10-07")
    add_day(page, "makeup", "调休", "2026-10-11", week="5", weekday="5")
    assert page.locator("[data-test=calendar-day]").count() == 2
    page.check("[data-test=calendar-follow]")
    page.click("[data-test=calendar-switch-save]")
    page.wait_for_load_state()
    assert "已开始跟随校历（停课 3 次，调休加课 1 次）。" in page.inner_text(".messages")
    assert "调休：按第 5 周周五上课" in page.inner_text("[data-test=calendar-days]")

    page.goto(f"{page.base_url}/board/?week=5")
    page.screenshot(path="/tmp/school-calendar-week5.png")
    headers = page.locator("thead th[data-day]")
    assert "国庆节 · 停课" in headers.nth(0).inner_text()  # Monday 10-05
    assert "调休 · 按周五上课" in headers.nth(6).inner_text()  # Sunday 10-11
    courses = page.locator("[data-test=event][data-kind=course]")
    by_day = {(courses.nth(n).get_attribute("data-day"), courses.nth(n).locator(".event-title").inner_text())
              for n in range(courses.count())}
    assert by_day == {("4", "高等数学"), ("5", "大学物理"), ("7", "大学物理")}  # no 英语 on Monday 10-05
    page.goto(f"{page.base_url}/board/?week=4")
    titles = page.locator("[data-test=event][data-kind=course] .event-title").all_inner_texts()
    assert titles == ["英语"]  # Thursday 10-01 and Friday 10-02 are National Day

    page.goto(f"{page.base_url}/schedule/import/")
    with page.expect_download() as download:
        page.click("[data-test=export-ics]")
    saved = tmp_path / "schedule.ics"
    download.value.save_as(saved)
    zone = ZoneInfo("Asia/Shanghai")
    meetings = {(e.decoded("DTSTART").astimezone(zone).date(), str(e.get("SUMMARY")))
                for e in Calendar.from_ical(saved.read_bytes()).walk("VEVENT")}
    assert (date(2026, 10, 11), "大学物理") in meetings
    assert (date(2026, 10, 1), "高等数学") not in meetings and (date(2026, 10, 5), "英语") not in meetings
    assert (date(2026, 10, 8), "高等数学") in meetings


@pytest.mark.e2e
def test_the_school_calendar_section_and_the_agenda_on_a_phone(live_page, transactional_db):
    student = UserFactory(username="xiaohong")
    import_csv(student, "大学物理,5,3,4,李老师,二教1201,1-16")
    page = live_page
    page.set_viewport_size(PHONE)
    log_in(page, student.username)
    page.goto(f"{page.base_url}/accounts/settings/#school-calendar")
    add_day(page, "makeup", "调休", "2026-10-11", week="5", weekday="5")
    page.check("[data-test=calendar-follow]")
    page.click("[data-test=calendar-switch-save]")
    page.wait_for_load_state()
    page.goto(f"{page.base_url}/board/?week=5&day=7")
    sunday = page.locator("[data-test=agenda-day][data-day='7']")
    assert sunday.locator("[data-test=agenda-day-note]").inner_text() == "调休：按第 5 周周五上课"
    assert sunday.locator("[data-test=agenda-title]").all_inner_texts() == ["大学物理"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.goto(f"{page.base_url}/accounts/settings/#school-calendar")
    add_day(page, "exam", "期末考试周", "2027-01-11", "2027-01-24")
    section = page.locator("[data-test=school-calendar]")
    assert "期末考试周" in section.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = section.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path="/tmp/school-calendar-phone.png", full_page=True)


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 900}, PHONE], ids=["desktop", "phone"])
def test_the_usual_makeup_day_pasted_from_the_schools_notice(live_page, transactional_db, viewport):
    """National Day's Thursday classes made up on Saturday 10-10: one line of the notice, one step."""
    student = UserFactory(username=f"xiaogang{viewport['width']}")
    import_csv(student, "高等数学,4,1,2,王老师,二教1101,1-16")
    page = live_page
    page.set_viewport_size(viewport)
    log_in(page, student.username)
    page.goto(f"{page.base_url}/accounts/settings/#school-calendar")
    add_day(page, "holiday", "国庆节", "2026-10-01", "2026-10-07")
    form = page.locator("[data-test=calendar-day-form]")
    form.locator("select[name=kind]").select_option("makeup")
    form.locator("input[name=notice]").fill("10月10日（周六）补10月1日（周四）的课")
    form.locator("[data-test=calendar-day-add]").click()
    page.wait_for_load_state()
    assert "2026-10-10 调休：按第 4 周周四上课" in page.inner_text("[data-test=calendar-days]")
    page.check("[data-test=calendar-follow]")
    page.click("[data-test=calendar-switch-save]")
    page.wait_for_load_state()
    assert "调休加课 1 次" in page.inner_text(".messages")

    page.goto(f"{page.base_url}/board/?week=5&day=6")
    saturday = page.locator('[data-test=event][data-kind=course][data-day="6"], '
                            '.agenda-day[data-day="6"] [data-test=agenda-item]').filter(has_text="高等数学")
    assert saturday.locator("visible=true").count() == 1

    form = page.goto(f"{page.base_url}/accounts/settings/#school-calendar")
    form = page.locator("[data-test=calendar-day-form]")
    form.locator("select[name=kind]").select_option("makeup")
    form.locator("input[name=notice]").fill("10月11日（周六）补10月2日的课")  # 10-11 is a Sunday
    form.locator("[data-test=calendar-day-add]").click()
    page.wait_for_load_state()
    assert "不是这个星期几" in page.inner_text(".messages")
