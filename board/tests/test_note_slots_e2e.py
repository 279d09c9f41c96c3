"""In Chromium, in Chinese: 找个时间 proposes a time for a quick note as a preview (nothing written), Apply
writes it and Undo takes it back, at desktop width and on a 390x844 phone; a suggested block fills both of
its sections and its × stays clear of its text."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from board.planning import preview_create
from schedule.models import CalendarSettings, PlanPreview, ScheduleEvent
from schedule.tests.factories import make_task_class
from smartmate.tests.live_server import log_in
from taskclasses.tests.factories import make_task

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


def _today_in_week_three(student) -> date:
    """Move the semester so that today (the live server's real clock) is in week 3; return week 4's Monday."""
    today = timezone.localdate(timezone.now(), student.zone)
    week_one = today - timedelta(days=today.weekday() + 14)
    CalendarSettings.objects.filter(user=student).update(semester_start=week_one)
    return week_one + timedelta(weeks=3)


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_find_a_time_previews_then_applies_and_undoes(live_page, transactional_db, viewport):
    student = UserFactory(username=f"findtime{viewport['width']}")
    _today_in_week_three(student)
    task = make_task(student, title="交概率论作业")
    page = live_page
    page.set_viewport_size(viewport)
    log_in(page, student.username)
    page.click(f"[data-task-id='{task.pk}'] [data-test=task-schedule]")
    page.wait_for_selector("[data-test=preview-banner]")
    assert "这是为这条随口记找到的时间" in page.inner_text(".messages")
    banner = page.inner_text("[data-test=preview-banner]")
    assert "安排了 1 条随口记" in banner and "学习块" not in banner  # no zero parts
    assert "," not in banner and ";" not in banner, banner  # Chinese punctuation
    assert not ScheduleEvent.objects.filter(task=task).exists()  # a proposal, nothing written
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if viewport is DESKTOP:
        assert "交概率论作业" in page.inner_text("[data-test=note-block]")

    page.click("[data-test=preview-apply]")
    page.wait_for_selector("[data-test=undo-banner]")
    assert ScheduleEvent.objects.filter(task=task).count() == 1
    page.click("[data-test=undo]")
    page.wait_for_selector("[data-test=undo-banner]", state="detached")
    assert not ScheduleEvent.objects.filter(task=task).exists()


@pytest.mark.e2e
def test_a_suggestion_covers_both_sections_and_its_cross_clears_the_text(live_page, transactional_db):
    student = UserFactory(username="boxes")
    week_four = _today_in_week_three(student)
    task_class = make_task_class(student, name="概率论与数理统计复习", items=4, start=week_four,
                                 end=week_four + timedelta(days=6))
    preview = preview_create(user=student, task_class_ids=[task_class.pk])
    assert preview.placements and PlanPreview.objects.filter(pk=preview.pk).exists()
    page = live_page
    log_in(page, student.username)
    page.goto(f"{page.base_url}/board/?preview={preview.pk}&week=4")
    page.wait_for_selector("[data-test=suggestion]")
    boxes = page.evaluate("""() => [...document.querySelectorAll('td.suggestion-cell > .suggestion')].map(box => {
        const cell = box.parentElement.getBoundingClientRect(), own = box.getBoundingClientRect();
        const title = box.querySelector('.event-title').getBoundingClientRect();
        const cross = box.querySelector('.remove-block').getBoundingClientRect();
        return {rowspan: box.parentElement.rowSpan, cell: cell.height, box: own.height,
                overlap: !(cross.left >= title.right || cross.right <= title.left ||
                           cross.top >= title.bottom || cross.bottom <= title.top)};
    })""")
    assert boxes and all(box["rowspan"] == 2 for box in boxes)
    for box in boxes:
        assert box["box"] >= box["cell"] - 8, box  # the box fills its two sections (cell padding aside)
        assert not box["overlap"], box
