"""Plans that explain and heal themselves, as a student tries them in Chromium (in Chinese): why a planned
block is where it is (hover and tap, also on a 390x844 phone), catching up two missed reviews, and an
event over a planned block with the repair that moves only that block."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.models import User
from accounts.tests.factories import UserFactory
from board.planning import preview_create
from board.previews import preview_apply
from board.tests.test_planning_e2e import _in_week_three_now
from schedule.models import ScheduleEvent
from smartmate.tests.live_server import log_in
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class, place_item

PHONE = {"width": 390, "height": 844}


def _board_path() -> str:
    from django.urls import reverse

    return reverse("board:week")


def _planned_student(username: str):
    """A student in week 3 whose plan of 3 reviews (weeks 4-5, rapid) was planned and applied."""
    student: User = UserFactory(username=username)  # type: ignore[assignment]  # the factory builds a User
    week_four, _week_five, end = _in_week_three_now(student)
    task_class = make_task_class(student, items=3, start_date=week_four, end_date=end, strategy="rapid")
    preview = preview_create(user=student, task_class_ids=[task_class.pk])
    preview_apply(user=student, preview_id=preview.pk)
    return student, list(task_class.items.order_by("order"))


@pytest.mark.e2e
def test_hover_and_tap_a_planned_block_to_read_why_it_is_there(live_page, transactional_db):
    student, (first, second, _third) = _planned_student("heal1")
    page = live_page
    log_in(page, student.username)
    event = ScheduleEvent.objects.get(task_item=second)
    page.goto(f"{page.base_url}{_board_path()}?week={event.week}")
    why = page.locator(f'td[data-block-id="{second.pk}"] [data-test=reason-button]')
    assert why.get_attribute("title") == "第 2 项：在第 1 项之后最早的空闲两节。"
    why.click()
    popover = page.locator("[data-test=reason-popover]")
    popover.wait_for(state="visible")
    assert popover.inner_text().startswith("第 2 项：在第 1 项之后最早的空闲两节")
    assert not page.locator("[data-test=block-dialog]").is_visible()  # the tap explains, it does not edit
    page.keyboard.press("Escape")
    popover.wait_for(state="detached")


@pytest.mark.e2e
def test_on_a_phone_the_day_agenda_says_why_a_block_is_there(live_page, transactional_db):
    student, (first, _second, _third) = _planned_student("heal2")
    page = live_page
    page.set_viewport_size(PHONE)
    log_in(page, student.username)
    event = ScheduleEvent.objects.get(task_item=first)
    page.goto(f"{page.base_url}{_board_path()}?week={event.week}&day={event.day}")
    reason = page.locator(f'.agenda-day[data-day="{event.day}"] [data-test=agenda-reason]').first
    reason.wait_for(state="visible")
    assert reason.inner_text().startswith("第 1 项：时间窗口内最早的空闲两节")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.e2e
def test_mark_two_past_reviews_missed_then_catch_up_and_apply(live_page, transactional_db):
    student = UserFactory(username="heal3")
    week_four, _week_five, end = _in_week_three_now(student)
    week_two = week_four - timedelta(weeks=2)
    task_class = make_task_class(student, items=3, start_date=week_two, end_date=end)
    first, second, third = task_class.items.order_by("order")
    place_item(first, week=2, day=2, start=3)
    place_item(second, week=2, day=4, start=3)
    place_item(third, week=4, day=5, start=3)
    TaskItem.objects.filter(task_class=task_class).update(status=TaskItem.Status.PLACED)
    page = live_page
    log_in(page, student.username)
    for item in (first, second):
        page.goto(f"{page.base_url}{_board_path()}?week=2")
        page.click(f'td[data-block-kind="item"][data-block-id="{item.pk}"]')
        page.locator("[data-test=block-dialog]").wait_for(state="visible")
        page.click("[data-test=block-missed]")
        page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
    assert set(TaskItem.objects.filter(task_class=task_class).values_list("status", flat=True)) == {"missed", "placed"}
    button = page.locator("[data-test=catch-up]")
    assert button.inner_text() == "补上落下的 2 次复习"
    button.click()
    page.wait_for_selector("[data-test=preview-banner]")
    assert "移动了 2 个学习块" in page.inner_text("[data-test=preview-banner]")
    page.click("[data-test=preview-apply]")
    page.wait_for_selector("[data-test=undo-banner]")
    moved = {e.task_item_id: (e.week, e.day, e.start_section) for e in ScheduleEvent.objects.filter(user=student)}
    assert moved[third.pk] == (4, 5, 3)
    assert (3, 0, 0) < moved[first.pk] < moved[second.pk] < (4, 5, 3)
    assert list(TaskItem.objects.filter(task_class=task_class).values_list("status", flat=True)) == ["placed"] * 3
    assert not page.locator("[data-test=catch-up]").count()


@pytest.mark.e2e
def test_an_event_over_a_planned_block_and_the_repair_that_moves_only_that_block(live_page, transactional_db):
    student = UserFactory(username="heal4")
    week_four, _week_five, end = _in_week_three_now(student)
    task_class = make_task_class(student, items=2, start_date=week_four, end_date=end)
    first, second = task_class.items.order_by("order")
    place_item(first, week=4, day=2, start=5)
    place_item(second, week=4, day=4, start=5)
    TaskItem.objects.filter(task_class=task_class).update(status=TaskItem.Status.PLACED)
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}{_board_path()}?week=4")
    page.click('td.free[data-day="2"][data-section="3"]')
    page.select_option("[data-test=event-end]", "6")  # over the first review at 5-6
    page.fill("[data-test=event-title]", "社团例会")
    page.click("[data-test=event-save]")
    anyway = page.locator("[data-test=event-over-blocks]")
    anyway.wait_for(state="visible")
    assert anyway.inner_text() == "仍然添加，并把这里的学习块挪到别处"
    anyway.click()
    page.wait_for_selector("[data-test=preview-banner]")
    why = page.locator("[data-test=suggestion] [data-test=reason-button]").first
    assert why.get_attribute("title") == "第 1 项：原来的位置被占用了，挪到了保持顺序的最近空闲时间。"
    page.click("[data-test=preview-apply]")
    page.wait_for_selector("[data-test=undo-banner]")
    assert ScheduleEvent.objects.filter(user=student, kind="custom", title="社团例会", week=4, day=2,
                                        start_section=3, end_section=6).exists()
    new_first = ScheduleEvent.objects.get(task_item=first)
    assert (4, 2, 5) != (new_first.week, new_first.day, new_first.start_section)
    assert (new_first.week, new_first.day) < (4, 4) or (new_first.week, new_first.day, new_first.start_section) < (4, 4, 5)
    second_event = ScheduleEvent.objects.get(task_item=second)
    assert (second_event.week, second_event.day, second_event.start_section) == (4, 4, 5)


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 900}, PHONE], ids=["desktop", "phone"])
def test_done_and_missed_look_different_and_the_bell_leads_to_a_missed_block_caught_up_from_its_dialog(
        live_page, transactional_db, viewport):
    from django.utils import timezone

    from taskclasses.reminders.models import Reminder
    from taskclasses.reminders.services import reminders_produce

    student = UserFactory(username=f"heal5{viewport['width']}")
    week_four, _week_five, end = _in_week_three_now(student)
    task_class = make_task_class(student, items=3, start_date=week_four - timedelta(weeks=2), end_date=end)
    done, missed, ahead = task_class.items.order_by("order")
    place_item(done, week=2, day=2, start=3, status=TaskItem.Status.DONE)
    place_item(missed, week=2, day=4, start=3, status=TaskItem.Status.MISSED)
    place_item(ahead, week=4, day=5, start=3, status=TaskItem.Status.PLACED)
    reminders_produce(now=timezone.now(), user=student)
    link = Reminder.objects.get(user=student, kind="plan_rotted").link
    assert link.endswith(f"?week=2&day=4&block=item-{missed.pk}")

    page = live_page
    page.set_viewport_size(viewport)
    log_in(page, student.username)
    page.goto(f"{page.base_url}{_board_path()}?week=2&day=2")
    done_block = page.locator(f'[data-block-kind="item"][data-block-id="{done.pk}"]:visible')
    assert "status-done" in done_block.get_attribute("class")
    assert done_block.locator("[data-test=block-status]").inner_text() == "✓ 已完成"
    assert done_block.evaluate("el => getComputedStyle(el.querySelector('.event-title, .agenda-title'))"
                               ".textDecorationLine") == "line-through"

    page.goto(f"{page.base_url}{link}")  # the bell's item
    spotlit = page.locator(".spotlight:visible")
    spotlit.wait_for()
    assert spotlit.get_attribute("data-block-id") == str(missed.pk)
    assert spotlit.locator("[data-test=block-status]").inner_text() == "✗ 未完成"
    spotlit.click()
    page.locator("[data-test=block-dialog]").wait_for(state="visible")
    page.click("[data-test=block-catch-up]")
    page.wait_for_selector("[data-test=preview-banner]")
    assert "移动了 1 个学习块" in page.inner_text("[data-test=preview-banner]")
    page.click("[data-test=preview-apply]")
    page.wait_for_selector("[data-test=undo-banner]")
    assert TaskItem.objects.get(pk=missed.pk).status == TaskItem.Status.PLACED
    assert TaskItem.objects.get(pk=done.pk).status == TaskItem.Status.DONE
