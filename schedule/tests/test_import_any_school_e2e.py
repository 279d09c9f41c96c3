"""A new student from another school imports in Chromium, in Chinese, at desktop width and on a 390x844
phone: a PKU-style per-section export, WakeUp's own .ics with a course at its own times, a Google export
with all-day events and a HUST-style school on winter hours each get in with one confirm; the board shows
every course with its room (and its teacher in the course it opens) and the times; importing the same file
again says nothing changed (the issue's "Done when")."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from schedule.models import CalendarSettings, Course
from schedule.tests import import_shapes as shapes
from smartmate.tests.live_server import log_in

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
Meeting = tuple[str, str, str, int]  # course, room, teacher, weekday of its week-1 meeting
# Each file's courses as the board must show them (a PKU-style event per section with the room in the
# name and the teacher in DESCRIPTION; WakeUp's export; a Google export; a HUST-style file on winter hours).
FILES: dict[str, tuple[Callable[[], bytes], tuple[Meeting, ...]]] = {
    "per_section": (shapes.per_section_ics, (("数据结构", "致远楼A203", "顾明川", 1), ("大学英语", "外语楼301", "林晓", 3))),
    "wakeup": (shapes.wakeup_export, (("高等数学", "209", "", 1), ("线性代数", "310", "", 2), ("体育", "操场", "", 4),
                                      ("电路", "实验楼", "", 5))),
    "google": (shapes.google_export, (("Lecture", "", "", 2),)),
    "winter": (shapes.winter_hours_ics, (("计算机图形学", "东十二楼F301", "严锋", 3), ("操作系统", "东九楼B101", "戴维", 1))),
}


def upload(page, name: str, data: bytes, *, mode: str = "") -> None:
    page.goto(f"{page.base_url}/schedule/import/")
    if mode:  # a student with a timetable chooses whether the file adds to it or replaces it
        page.check(f"[data-test=import-mode-{mode}]")
    page.set_input_files("#import-file", files=[{"name": name, "mimeType": "text/calendar", "buffer": data}])
    page.click("[data-test=import-preview]")
    page.wait_for_load_state()


def assert_course_dialog_teacher(page, name: str, teacher: str, day: int, *, phone: bool) -> None:
    """Open the course from its week-1 meeting (the table, or that day of the phone's agenda): its teacher."""
    page.goto(f"{page.base_url}/board/?week=1&day={day}")
    page.wait_for_selector("#course-edit[data-ready=true]", state="attached")
    scope = "[data-test=agenda]" if phone else "table.board"
    # In its corner: the middle of a table cell holds the cell's own "标为水课" button.
    page.locator(f'{scope} [data-course-name="{name}"]').first.click(position={"x": 5, "y": 5})
    page.locator("[data-test=course-dialog]").wait_for(state="visible")
    assert page.inner_text("[data-test=course-dialog-title]") == name
    expect(page.locator("[data-test=course-teacher]")).to_have_value(teacher)
    page.keyboard.press("Escape")


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("shape", list(FILES))
def test_a_file_from_another_school_gets_in_with_one_confirm(live_page, transactional_db, viewport, shape):
    build, meetings = FILES[shape]
    student = UserFactory(username=f"any-{shape}-{'p' if viewport else 'd'}")
    page = live_page
    if viewport:
        page.set_viewport_size(viewport)
    log_in(page, student.username)
    data = build()

    upload(page, f"{shape}.ics", data)
    assert page.locator("[data-test=import-frame]").is_visible()  # the file's semester/sections, beside hers
    if shape == "google":
        skipped = page.inner_text("[data-test=import-skipped]")
        assert "全天日程" in skipped and "略去 3 个" in skipped
    confirm = page.locator("[data-test=import-confirm]")
    assert "采用文件的时间并导入" in confirm.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    confirm.click()
    page.wait_for_url(f"{page.base_url}/board/")
    assert CalendarSettings.objects.get(user=student).semester_start.isoformat() == "2025-02-17"
    assert set(Course.objects.filter(user=student).values_list("name", "location", "teacher")) == {
        (name, room, teacher) for name, room, teacher, _day in meetings}

    page.goto(f"{page.base_url}/board/?week=1")
    text = page.text_content("main") or ""  # the phone's agenda shows one day at a time; the week is all there
    assert all(name in text and room in text for name, room, _teacher, _day in meetings)
    assert "已导入课表" in text  # the undo bar names the import
    if shape == "wakeup":
        assert "08:30–10:05" in text or "08:3010:05" in text  # the course at its own times shows them
    for name, _room, teacher, day in meetings:
        if teacher:  # the board names no teacher in its cells: the course it opens does
            assert_course_dialog_teacher(page, name, teacher, day, phone=bool(viewport))

    upload(page, f"{shape}.ics", data)  # the same file again (added, the default): nothing new, nothing to confirm
    assert page.locator("[data-test=import-nothing-new]").is_visible()
    assert page.locator("[data-test=import-confirm]").count() == 0
    upload(page, f"{shape}.ics", data, mode="replace")  # as a replacement: the diff says nothing changes
    assert page.locator("[data-test=import-diff-none]").is_visible()
    assert page.locator("[data-test=import-confirm]").count() == 0


@pytest.mark.e2e
def test_winter_hours_are_shown_adopted_in_one_confirm_and_the_board_follows_them(live_page, transactional_db):
    student = UserFactory(username="any-winter-grid")
    page = live_page
    log_in(page, student.username)

    upload(page, "winter.ics", shapes.winter_hours_ics())
    later = page.inner_text("[data-test=import-frame-later]")
    assert "2025-03-17" in later and "冬令时" in later
    assert "14:00–14:45" in page.inner_text("[data-test=import-frame-later-grid]")
    page.click("[data-test=import-confirm]")
    page.wait_for_url(f"{page.base_url}/board/")
    assert str(CalendarSettings.objects.get(user=student).later_sections_from) == "2025-03-17"

    page.goto(f"{page.base_url}/board/?week=4")
    summer = page.text_content("main") or ""
    page.goto(f"{page.base_url}/board/?week=5")
    winter = page.text_content("main") or ""
    assert "计算机图形学" in summer and "计算机图形学" in winter
    assert "14:30" in summer and "14:30" not in winter and "14:00" in winter


@pytest.mark.e2e
def test_two_courses_at_one_time_are_imported_and_shown_side_by_side(live_page, transactional_db):
    student = UserFactory(username="any-beside")
    page = live_page
    log_in(page, student.username)
    rows = ("课程名称,星期,开始节数,结束节数,老师,地点,周数\n线性代数,2,3,4,小红,理工楼110,1-16\n"
            "大学英语,2,3,4,小红,文成楼125,2、5、8\n")

    upload(page, "wakeup.csv", rows.encode())
    assert "并排显示" in page.inner_text("main")  # the notice, not a list of left-out meetings
    assert page.locator("[data-test=import-skipped]").count() == 0
    page.click("[data-test=import-confirm]")
    page.wait_for_url(f"{page.base_url}/board/")

    page.goto(f"{page.base_url}/board/?week=2")
    beside = page.locator("table [data-test=beside]")
    assert beside.count() == 1 and "大学英语" in beside.inner_text()
    assert "线性代数" in page.inner_text("table")


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_second_file_adds_to_the_timetable_by_default(live_page, transactional_db, viewport):
    """#35 M1: the school's timetable first, then a PE/club .ics: both stay; replacing is a choice."""
    from schedule.tests.factories import import_csv

    student = UserFactory(username=f"second-file-{viewport['width']}")
    import_csv(student, "高等数学,1,1,2,王老师,二教101,1-16", "线性代数,3,3,4,李老师,二教203,1-16")
    CalendarSettings.objects.filter(user=student).update(semester_start=shapes.WEEK1)
    page = live_page
    page.set_viewport_size(viewport)
    log_in(page, student.username)
    upload(page, "pe.ics", shapes.calendar(*[
        shapes.vevent("体育（篮球）", shapes.WEEK1 + timedelta(weeks=week, days=4), "1400",
                      "1535", "LOCATION:篮球场") for week in range(16)]))
    assert page.is_checked("[data-test=import-mode-add]")
    assert "替换我的课表" in page.inner_text("[data-test=import-mode]")
    page.click("[data-test=import-confirm]")
    page.wait_for_url(f"{page.base_url}/board/")
    names = set(Course.objects.filter(user=student).values_list("name", flat=True))
    assert {"高等数学", "线性代数"} <= names and any(name.startswith("体育") for name in names)
