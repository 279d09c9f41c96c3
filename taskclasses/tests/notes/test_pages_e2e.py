"""A student jots notes on the dashboard in Chromium and sees them sorted into quadrants."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from smartmate.tests.live_server import log_in
from taskclasses.models import Task
from taskclasses.notes.services import tasks_promote
from taskclasses.tests.factories import make_task


def _add(page, text: str) -> None:
    # After a save the page reloads; typing before quick_add.js is listening would go unseen.
    page.wait_for_selector("#quick-add-form[data-ready='1']", state="attached")
    page.fill("#quick-add-text", text)
    page.wait_for_selector("[data-test=quick-add-preview]:not([hidden])")
    page.wait_for_selector("#quick-add-form[data-parsed='1']", state="attached")


@pytest.mark.e2e
def test_quick_notes_land_in_the_right_quadrants(live_page, transactional_db):
    student = UserFactory(username="xiaoqian")
    page = live_page
    log_in(page, student.username)
    _add(page, "下周日之前交概率论作业")
    assert page.input_value("#qa-title") == "交概率论作业"
    assert page.input_value("#qa-quadrant") == "2"
    page.click("[data-test=quick-add-save]")
    page.wait_for_selector("[data-test=quadrant-2] [data-test=task]")
    _add(page, "有空的时候整理桌面")
    assert page.input_value("#qa-deadline") == ""
    page.click("[data-test=quick-add-save]")
    page.wait_for_selector("[data-test=quadrant-3] [data-test=task]")
    assert page.inner_text("[data-test=quadrant-2] .task-title") == "交概率论作业"
    assert page.inner_text("[data-test=quadrant-3] .task-title") == "整理桌面"
    homework = Task.objects.get(user=student, title="交概率论作业")
    local = timezone.localtime(homework.deadline, student.zone)
    assert (local.isoweekday(), local.strftime("%H:%M")) == (7, "23:59")
    assert 7 < (local.date() - timezone.localtime(timezone.now(), student.zone).date()).days <= 13


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 900}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_complete_and_restore_a_note(live_page, transactional_db, viewport):
    student = UserFactory(username=f"xiaosun{viewport['width']}")
    make_task(student, title="整理桌面", quadrant=3)
    page = live_page
    page.set_viewport_size(viewport)
    log_in(page, student.username)
    page.click("[data-test=quadrant-3] [data-test=task-complete]")
    page.wait_for_selector("[data-test=completed-task]", state="attached")
    assert page.locator("[data-test=quadrant-3] [data-test=task]").count() == 0
    # The message names the section as the page names it (it said “已完成” while the section was 最近完成).
    assert page.inner_text(".messages") == "已完成「整理桌面」。想恢复的话，它在“最近完成”里。"
    assert page.inner_text("[data-test=completed] summary") == "最近完成"
    page.click("[data-test=completed] summary")
    page.click("[data-test=task-restore]")
    page.wait_for_selector("[data-test=quadrant-3] [data-test=task]")
    assert Task.objects.get(user=student).completed is False


@pytest.mark.e2e
def test_the_promotion_badge_shows_after_the_clock_passes_the_threshold(live_page, transactional_db):
    student = UserFactory(username="xiaozhou")
    deadline = timezone.now() + timedelta(days=3)
    make_task(student, title="交实验报告", quadrant=2, deadline=deadline, threshold=deadline - timedelta(hours=24))
    frozen = deadline - timedelta(hours=23)  # the clock moved past the threshold
    assert tasks_promote(now=frozen) == 1
    page = live_page
    log_in(page, student.username)
    badge = page.inner_text("[data-test=quadrant-1] [data-test=promoted-badge]")
    assert badge == "已升级：23 小时内到期"
