"""Issue #24's Done-when line "pin a block, add a course over it and see the repair leave the pin and move
the others", in Chromium (Chinese), in the form decided: an event over the pinned block is refused with a
reason naming it (nothing written); an event over the other blocks is repaired and the pin stays put."""

from __future__ import annotations

import pytest

from accounts.tests.factories import UserFactory
from board.tests.test_planning_e2e import _in_week_three_now
from schedule.models import ChangeSet, ScheduleEvent
from schedule.student_rules.models import StudyRules
from smartmate.tests.live_server import log_in, wait_until
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class, place_item


def _add_event_over_blocks(page, *, end: int) -> None:
    page.click('td.free[data-day="2"][data-section="1"]')
    page.select_option("[data-test=event-end]", str(end))
    page.fill("[data-test=event-title]", "社团例会")
    page.click("[data-test=event-save]")
    anyway = page.locator("[data-test=event-over-blocks]")
    anyway.wait_for(state="visible")
    anyway.click()


@pytest.mark.e2e
def test_the_repair_leaves_the_pinned_block_and_moves_the_others(live_page, transactional_db):
    student = UserFactory(username="pin24")
    week_four, _week_five, end = _in_week_three_now(student)
    task_class = make_task_class(student, items=3, start_date=week_four, end_date=end, strategy="rapid")
    first, second, pinned = task_class.items.order_by("order")
    for item, start in ((first, 3), (second, 5), (pinned, 7)):
        place_item(item, week=4, day=2, start=start)
    TaskItem.objects.filter(task_class=task_class).update(status=TaskItem.Status.PLACED)
    StudyRules.objects.create(user=student, pinned_items=[pinned.pk])
    page = live_page
    log_in(page, student.username)
    board = f"{page.base_url}/board/?week=4"
    page.goto(board)

    _add_event_over_blocks(page, end=8)  # over the pinned block too: refused, nothing written
    wait_until(page, "(text) => document.querySelector('[data-test=event-dialog-error]').textContent.includes(text)",
               "已固定在这里：请先取消固定，或换个时间。")
    assert "概率论复习 #3" in page.inner_text("[data-test=event-dialog-error]")
    assert not ChangeSet.objects.filter(user=student).exists()

    page.goto(board)
    _add_event_over_blocks(page, end=6)  # over the two others only
    page.wait_for_selector("[data-test=preview-banner]")
    assert "建议了 2 个学习块" in page.inner_text("[data-test=preview-banner]")
    page.click("[data-test=preview-apply]")
    page.wait_for_selector("[data-test=undo-banner]")
    where = {e.task_item_id: (e.week, e.day, e.start_section)
             for e in ScheduleEvent.objects.filter(user=student, task_item__isnull=False)}
    assert where[pinned.pk] == (4, 2, 7)
    assert where[first.pk] < where[second.pk] < (4, 2, 7)
    assert {where[first.pk], where[second.pk]}.isdisjoint({(4, 2, 3), (4, 2, 5)})
    assert ScheduleEvent.objects.filter(user=student, kind="custom", title="社团例会", start_section=1,
                                        end_section=6).exists()


@pytest.mark.e2e
def test_a_planned_block_says_it_kept_clear_of_lunch(live_page, transactional_db):
    student = UserFactory(username="lunch24")
    week_four, _week_five, end = _in_week_three_now(student)
    task_class = make_task_class(student, items=3, start_date=week_four, end_date=end, strategy="rapid")
    StudyRules.objects.create(user=student, protected_times=[{"name": "午饭", "first": 5, "last": 5,
                                                              "days": [1, 2, 3, 4, 5, 6, 7]}])
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/plans/{task_class.pk}/")
    page.click("[data-test=plan-button]")
    page.wait_for_selector("[data-test=preview-banner]")
    wait_until(page, "(text) => [...document.querySelectorAll('[data-test=suggestion] [data-test=reason-button]')]"
                     ".some((b) => (b.getAttribute('title') || '').includes(text))", "避开了你设的午饭时间")
    assert page.locator('td.suggestion-cell[data-section="5"]').count() == 0
    page.set_viewport_size({"width": 390, "height": 844})  # on a phone the preview is a day agenda, no sideways scroll
    page.reload()
    wait_until(page, "() => document.documentElement.scrollWidth <= window.innerWidth")
