"""A course meeting shown beside another (two courses at one time, as WakeUp shows them) is a course meeting
of its own on the board, in Chromium in Chinese: it opens its own course dialog (not the one it sits beside),
its course can be changed, this one meeting deleted and the deletion undone; on a phone in the day agenda too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from schedule.models import Course, ScheduleEvent, ScheduleSlot
from schedule.tests.factories import import_csv
from smartmate.tests.live_server import log_in, wait_until

PHONE = {"width": 390, "height": 844}


def open_beside(page, scope: str) -> None:
    page.wait_for_selector("#course-edit[data-ready=true]", state="attached")
    page.click(f"{scope} [data-test=beside]")
    page.locator("[data-test=course-dialog]").wait_for(state="visible")


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_a_meeting_beside_another_is_edited_deleted_and_restored_on_its_own(live_page, transactional_db, viewport):
    student = UserFactory(username="beside-edit")
    import_csv(student, "线性代数,2,3,4,陈志强,理工楼110,1-16", "大学英语,2,3,4,林晓,文成楼125,2、5、8")
    english = ScheduleEvent.objects.get(user=student, title="大学英语", week=5)
    assert english.beside
    page = live_page
    if viewport:
        page.set_viewport_size(viewport)
    scope = "[data-test=agenda]" if viewport else "table.board"
    log_in(page, student.username)
    page.goto(f"{page.base_url}/board/?week=5&day=2")

    # Its own course, not the one whose cell it sits in.
    open_beside(page, scope)
    assert page.inner_text("[data-test=course-dialog-title]") == "大学英语"
    expect(page.locator("[data-test=course-teacher]")).to_have_value("林晓")
    page.fill("[data-test=course-location]", "文成楼201")
    with page.expect_navigation():  # the dialog reloads the board once the change is written
        page.click("[data-test=course-save]")
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    assert Course.objects.get(user=student, name="大学英语").location == "文成楼201"
    assert Course.objects.get(user=student, name="线性代数").location == "理工楼110"
    assert "文成楼201" in page.inner_text(f"{scope} [data-test=beside]")

    # Delete this one meeting: the course beside it keeps its sections, the other weeks stay; undo brings it back.
    open_beside(page, scope)
    page.click("[data-test=course-delete-meeting]")
    page.locator("[data-test=course-confirm]").wait_for(state="visible")
    assert page.inner_text("[data-test=course-confirm-text]").startswith("删除「大学英语」")
    with page.expect_navigation():
        page.click("[data-test=course-confirm-button]")
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    assert page.locator(f"{scope} [data-test=beside]").count() == 0
    assert "线性代数" in page.inner_text(scope)
    assert not ScheduleEvent.objects.filter(pk=english.pk).exists()
    assert ScheduleEvent.objects.filter(user=student, title="大学英语").count() == 2  # weeks 2 and 8
    assert ScheduleSlot.objects.filter(event__title="线性代数", event__week=5).count() == 2
    page.click("[data-test=edit-undo-button]")
    page.wait_for_selector(f"{scope} [data-test=beside]")
    wait_until(page, "!sessionStorage.getItem('smartmate.board.undo')")
    back = ScheduleEvent.objects.get(user=student, title="大学英语", week=5)
    assert back.beside and not back.slots.exists()
