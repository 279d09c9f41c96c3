"""A student edits the week board directly in Chromium (in Chinese): adds a repeating event by
clicking a free cell, moves an applied study block to a suggested place and undoes it, marks a
block done."""

from __future__ import annotations

from collections import Counter

import pytest

from accounts.tests.factories import UserFactory
from board.tests.test_planning_e2e import _in_week_three_now
from schedule.models import ScheduleEvent
from smartmate.tests.live_server import log_in
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class, place_item


def _student_with_blocks(username: str, items: int = 2) -> tuple:
    """A student whose today is in week 3, with ``items`` applied blocks on Tuesday and Thursday of week 4."""
    student = UserFactory(username=username)
    week_four, _week_five, end = _in_week_three_now(student)
    task_class = make_task_class(student, items=items, start_date=week_four, end_date=end)
    placed = list(task_class.items.order_by("order"))
    for item, day in zip(placed, (2, 4), strict=False):
        place_item(item, week=4, day=day, start=5)
    TaskItem.objects.filter(pk__in=[i.pk for i in placed]).update(status=TaskItem.Status.PLACED)
    return student, placed


@pytest.mark.e2e
def test_add_a_repeating_event_by_clicking_a_free_cell(live_page, transactional_db):
    student, _items = _student_with_blocks("boardedit1", items=0)
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}{_board_path()}?week=4")
    page.click('td.free[data-day="3"][data-section="9"]')
    new_event_dialog_opened(page, start=9, end=10)
    page.fill("[data-test=event-title]", "社团例会")
    page.fill("[data-test=event-location]", "学生活动中心")
    page.fill("[data-test=event-weeks]", "1-16")
    page.click("[data-test=event-save]")
    page.wait_for_selector('td.kind-custom[data-day="3"][data-section="9"]:has-text("社团例会")')
    events = ScheduleEvent.objects.filter(user=student, kind="custom", title="社团例会")
    assert events.count() == 16
    assert set(events.values_list("day", "start_section", "end_section")) == {(3, 9, 10)}


@pytest.mark.e2e
def test_a_refused_event_shows_the_server_message_in_the_dialog(live_page, transactional_db):
    student, _items = _student_with_blocks("boardedit2", items=1)
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}{_board_path()}?week=4")
    page.click('td.free[data-day="2"][data-section="3"]')
    page.select_option("[data-test=event-end]", "6")  # runs into the study block at 5-6
    page.fill("[data-test=event-title]", "社团例会")
    page.click("[data-test=event-save]")
    error = page.locator("[data-test=event-dialog-error]")
    error.wait_for(state="visible")
    assert "概率论复习 #1" in error.inner_text()
    assert not ScheduleEvent.objects.filter(user=student, kind="custom").exists()


@pytest.mark.e2e
def test_move_a_block_to_a_suggestion_and_undo_then_mark_one_done(live_page, transactional_db):
    student, (first, second) = _student_with_blocks("boardedit3")
    before = ScheduleEvent.objects.get(task_item=first)
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}{_board_path()}?week=4")
    page.click(f'td[data-block-kind="item"][data-block-id="{first.pk}"]')
    page.locator("[data-test=block-dialog]").wait_for(state="visible")
    page.click("[data-test=block-move]")
    choice = page.locator("[data-test=move-choice]").first
    choice.wait_for()
    choice.click()
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    summary = page.inner_text("[data-test=edit-undo-summary]")
    assert summary.startswith("已把「概率论复习 #1」移到")
    moved = ScheduleEvent.objects.get(task_item=first)
    assert (moved.week, moved.day, moved.start_section) != (before.week, before.day, before.start_section)
    page.click("[data-test=edit-undo-button]")
    page.wait_for_selector(f'td[data-block-kind="item"][data-block-id="{first.pk}"][data-day="2"][data-section="5"]')
    page.wait_for_selector("#board-edit[data-ready=true]", state="attached")
    back = ScheduleEvent.objects.get(task_item=first)
    assert (back.week, back.day, back.start_section) == (before.week, before.day, before.start_section)

    page.focus(f'td[data-block-kind="item"][data-block-id="{second.pk}"]')
    page.keyboard.press("Enter")
    page.locator("[data-test=block-dialog]").wait_for(state="visible")
    page.click("[data-test=block-done]")
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    assert page.inner_text("[data-test=edit-undo-summary]") == "已标记完成「概率论复习 #2」"
    assert TaskItem.objects.get(pk=second.pk).status == TaskItem.Status.DONE


def new_event_dialog_opened(page, *, start: int, end: int) -> None:
    """Wait for the new-event dialog; it starts at section ``start`` and ends at ``end``."""
    dialog = page.locator("[data-test=event-dialog]")
    dialog.wait_for(state="visible")
    assert "新建日程" in dialog.inner_text()
    assert page.inner_text("[data-test=event-dialog-when]").endswith(f"第 {start} 节起")
    assert page.input_value("[data-test=event-end]") == str(end)


def _board_path() -> str:
    from django.urls import reverse

    return reverse("board:week")


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 900}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_deleting_every_week_asks_first_takes_the_changed_week_too_and_undo_brings_all_back(
        live_page, transactional_db, viewport):
    from schedule.services.event_series import event_series_create, event_series_update

    student, _items = _student_with_blocks(f"boardedit4{viewport['width']}", items=0)
    series = event_series_create(user=student, title="社团例会", weeks="1-16", day=3, start_section=9,
                                 end_section=10)
    event_series_update(user=student, event_id=series.events[4].pk, scope="this", title="社团换届")  # week 5
    page = live_page
    page.set_viewport_size(viewport)
    log_in(page, student.username)
    page.goto(f"{page.base_url}{_board_path()}?week=4&day=3")  # the phone's agenda opens on Wednesday
    page.wait_for_selector("#board-edit[data-ready=true]", state="attached")
    page.locator('[data-event-title="社团例会"]:visible').first.click()
    page.locator("[data-test=block-dialog]").wait_for(state="visible")
    page.click("[data-test=event-delete-all]")
    confirm = page.locator("[data-test=event-delete-all-confirm]")
    confirm.wait_for(state="visible")
    assert "可以马上撤销" in confirm.inner_text()
    assert ScheduleEvent.objects.filter(user=student, kind="custom").count() == 16  # nothing yet
    page.click("[data-test=event-delete-all-yes]")
    page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    assert page.inner_text("[data-test=edit-undo-summary]") == "已删除「社团例会」（共 16 周）"
    assert not ScheduleEvent.objects.filter(user=student, kind="custom").exists()  # 社团换届 went too
    page.click("[data-test=edit-undo-button]")
    page.locator('[data-event-title="社团例会"]:visible').first.wait_for()
    titles = Counter(ScheduleEvent.objects.filter(user=student, kind="custom").values_list("title", flat=True))
    assert titles == {"社团换届": 1, "社团例会": 15}
