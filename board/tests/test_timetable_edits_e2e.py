"""A student changes courses in Chromium (in Chinese): deletes one meeting for a holiday and undoes it,
re-imports a changed timetable (reads the diff, confirms, undoes), opens a course on a phone, and gives a
course a new room that the board or the day agenda then shows (and undo takes back)."""

from __future__ import annotations

from typing import cast

import pytest
from playwright.sync_api import expect

from accounts.models import User
from accounts.tests.factories import UserFactory
from board.tests.test_planning_e2e import _in_week_three_now
from schedule.models import Course, ScheduleEvent, ScheduleSlot
from schedule.tests.factories import DEMO_CSV, import_csv
from smartmate.tests.live_server import log_in, wait_until
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


def _student_with_filler_block(username: str) -> tuple:
    """A student in week 3 with a filler course on Mondays 9-10 and a study block inside week 4's meeting."""
    student = cast(User, UserFactory(username=username))
    week_four, _week_five, end = _in_week_three_now(student)
    import_csv(student, "形势与政策,1,9,10,赵立新,二教1101,1-16")
    Course.objects.filter(user=student).update(is_filler=True)
    item = make_task_class(student, items=1, start_date=week_four, end_date=end).items.get()
    meeting = ScheduleEvent.objects.get(user=student, week=4)
    meeting.slots.update(embedded_item=item)
    TaskItem.objects.filter(pk=item.pk).update(status=TaskItem.Status.PLACED)
    return student, item, meeting


@pytest.mark.e2e
def test_delete_one_meeting_for_a_holiday_then_undo(live_page, transactional_db):
    student, item, meeting = _student_with_filler_block("coursedit1")
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/board/?week=4")
    page.wait_for_selector("#course-edit[data-ready=true]", state="attached")
    page.click('td[data-course-id][data-day="1"]', position={"x": 5, "y": 5})
    dialog = page.locator("[data-test=course-dialog]")
    dialog.wait_for(state="visible")
    assert page.inner_text("[data-test=course-dialog-title]") == "形势与政策"
    expect(page.locator("[data-test=course-teacher]")).to_have_value("赵立新")
    page.click("[data-test=course-delete-meeting]")
    page.locator("[data-test=course-confirm]").wait_for(state="visible")
    assert page.inner_text("[data-test=course-confirm-text]").startswith("删除「形势与政策」")
    assert page.inner_text("[data-test=course-displaced-intro]") == "这些学习块将回到待安排："
    assert item.content in page.inner_text("[data-test=course-displaced]")
    page.click("[data-test=course-confirm-button]")
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    assert "的一次课（1 个学习块回到待安排）" in page.inner_text("[data-test=edit-undo-summary]")
    assert not ScheduleEvent.objects.filter(pk=meeting.pk).exists()
    assert TaskItem.objects.get(pk=item.pk).status == TaskItem.Status.PENDING
    page.click("[data-test=edit-undo-button]")
    page.wait_for_selector('td[data-course-id][data-day="1"]')
    wait_until(page, "!sessionStorage.getItem('smartmate.board.undo')")
    assert ScheduleSlot.objects.filter(event_id=meeting.pk, embedded_item=item).count() == 2


def _changed_demo() -> str:
    """The demo timetable without 离散数学, with Monday's 大学英语(二) moved to sections 11-12."""
    rows = DEMO_CSV.read_text("utf-8").strip().splitlines()
    return "\n".join(r.replace("大学英语(二),1,3,4", "大学英语(二),1,11,12") for r in rows
                     if not r.startswith("离散数学,")) + "\n"


@pytest.mark.e2e
def test_reimport_reads_the_diff_confirms_and_undoes(live_page, transactional_db):
    student = cast(User, UserFactory(username="reimport1"))
    _in_week_three_now(student)
    import_csv(student, *DEMO_CSV.read_text("utf-8").strip().splitlines()[1:])
    before = sorted(ScheduleEvent.objects.filter(user=student).values_list("pk", "week", "day", "start_section"))
    page = live_page
    page.set_viewport_size(PHONE)
    log_in(page, student.username)
    page.goto(f"{page.base_url}/schedule/import/")
    page.fill("#import-content", _changed_demo())
    page.check("[data-test=import-mode-replace]")  # a second file adds by default; this one replaces
    page.click("[data-test=import-preview]")
    diff = page.locator("[data-test=import-diff]")
    diff.wait_for()
    assert "新增 0 门课程，变更 1 门，删除 1 门" in diff.inner_text()
    removed = page.locator('[data-test=diff-course][data-status=removed]')
    assert "离散数学" in removed.inner_text() and "将删除" in removed.inner_text()
    changed = page.locator('[data-test=diff-course][data-status=changed]')
    assert "之前：周一 第 3–4 节 · 1-16周" in changed.inner_text()
    assert "之后：周一 第 11–12 节 · 1-16周" in changed.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.click("[data-test=import-confirm]")
    page.wait_for_url(f"{page.base_url}/board/")
    assert "已重新导入课表" in page.inner_text(".messages")
    assert not Course.objects.filter(user=student, name="离散数学").exists()
    page.click("[data-test=undo-banner] [data-test=undo]")
    page.wait_for_selector(".messages:has-text('已撤销')")
    assert sorted(ScheduleEvent.objects.filter(user=student).values_list("pk", "week", "day", "start_section")) \
        == before


@pytest.mark.e2e
def test_a_course_in_the_phone_agenda_opens_the_course_dialog(live_page, transactional_db):
    student, _item, _meeting = _student_with_filler_block("coursedit2")
    page = live_page
    page.set_viewport_size(PHONE)
    log_in(page, student.username)
    page.goto(f"{page.base_url}/board/?week=4&day=1")
    page.wait_for_selector("#course-edit[data-ready=true]", state="attached")
    page.locator(".agenda-item[data-course-id] .agenda-time").first.click()
    page.locator("[data-test=course-dialog][data-loaded=true]").wait_for(state="visible")
    assert page.inner_text("[data-test=course-dialog-title]") == "形势与政策"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.click("[data-test=course-delete-course]")
    page.locator("[data-test=course-confirm]").wait_for(state="visible")
    assert page.inner_text("[data-test=course-confirm-text]") == "删除整门课「形势与政策」及其所有课次？"
    assert Course.objects.filter(user=student).exists()


@pytest.mark.e2e
def test_turning_the_filler_mark_off_lists_the_block_and_keyboard_opens_the_dialog(live_page, transactional_db):
    student, item, _meeting = _student_with_filler_block("coursedit3")
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/board/?week=4")
    page.wait_for_selector("#course-edit[data-ready=true]", state="attached")
    page.focus('td[data-course-id][data-day="1"]')
    page.keyboard.press("Enter")
    page.locator("[data-test=course-dialog][data-loaded=true]").wait_for(state="visible")
    assert page.input_value("[data-test=course-filler]") == "1"
    page.select_option("[data-test=course-filler]", "0")
    page.click("[data-test=course-save]")
    page.locator("[data-test=course-confirm]").wait_for(state="visible")
    assert page.inner_text("[data-test=course-confirm-text]") == "「形势与政策」将不再是水课。"
    assert item.content in page.inner_text("[data-test=course-displaced]")
    page.click("[data-test=course-confirm-button]")
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    assert page.inner_text("[data-test=edit-undo-summary]") == "「形势与政策」不再是水课（1 个学习块回到待安排）"
    assert not Course.objects.get(user=student).is_filler
    assert TaskItem.objects.get(pk=item.pk).status == TaskItem.Status.PENDING


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_courses_new_room_is_shown_where_the_student_reads_her_day_and_undo_takes_it_back(
        live_page, transactional_db, viewport):
    student, _item, _meeting = _student_with_filler_block(f"courseroom{viewport['width']}")
    page = live_page
    page.set_viewport_size(viewport)
    log_in(page, student.username)
    page.goto(f"{page.base_url}/board/?week=4&day=1")
    page.wait_for_selector("#course-edit[data-ready=true]", state="attached")
    # The table on a desktop, the day agenda on a phone: the meeting the student sees either way.
    seen = "td[data-course-id]" if viewport is DESKTOP else ".agenda-item[data-course-id]"
    meeting = page.locator(seen).first
    expect(meeting).to_contain_text("二教1101")
    meeting.click(position={"x": 5, "y": 5})
    page.locator("[data-test=course-dialog][data-loaded=true]").wait_for(state="visible")
    page.fill("[data-test=course-location]", "三教3302")
    page.click("[data-test=course-save]")
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    meeting = page.locator(seen).first
    expect(meeting).to_contain_text("三教3302")
    expect(meeting).not_to_contain_text("二教1101")
    assert "形势与政策" in page.inner_text("[data-test=edit-undo-summary]")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.click("[data-test=edit-undo-button]")
    wait_until(page, "!sessionStorage.getItem('smartmate.board.undo')")
    expect(page.locator(seen).first).to_contain_text("二教1101")
    assert set(ScheduleEvent.objects.filter(user=student).values_list("location", flat=True)) == {"二教1101"}
