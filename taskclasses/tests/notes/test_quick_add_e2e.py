"""Quick add as a new student tries it, in Chromium, in Chinese, on a phone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from schedule.services.calendar import calendar_settings_update
from smartmate.tests.live_server import log_in
from taskclasses.models import Task

PHONE = {"width": 390, "height": 844}
WEEKDAYS = "一二三四五六日"


def _type(page, text: str) -> None:
    page.wait_for_selector("#quick-add-form[data-ready='1']", state="attached")
    page.fill("#quick-add-text", text)
    page.wait_for_selector("[data-test=quick-add-preview]:not([hidden])")
    page.wait_for_selector("#quick-add-form[data-parsed='1']", state="attached")


def _save(page, title: str) -> Task:
    page.click("[data-test=quick-add-save]")
    page.wait_for_selector(f"[data-test=task] .task-title:text-is('{title}')")
    return Task.objects.get(title=title)


@pytest.mark.e2e
def test_ambiguous_days_are_offered_as_choices_and_the_pick_is_kept(live_page, transactional_db):
    student = UserFactory(username="xiaoyu")
    today = timezone.localtime(timezone.now(), student.zone).date()
    page = live_page
    page.set_viewport_size(PHONE)
    log_in(page, student.username)

    _type(page, f"周{WEEKDAYS[today.weekday()]}交实习周记")  # the weekday that is today, no time
    choices = page.locator("[data-test=quick-add-reading]")
    assert choices.count() == 2 and page.input_value("#qa-deadline") == ""
    assert page.is_visible("[data-test=quick-add-ambiguous]")
    assert choices.nth(1).inner_text().startswith("下周")
    choices.nth(1).click()  # next week's
    note = _save(page, "交实习周记")
    assert timezone.localtime(note.deadline, student.zone).date() == today + timedelta(days=7)

    _type(page, f"周{WEEKDAYS[today.weekday()]}交读书笔记")  # the same phrasing: the pick comes back
    page.wait_for_selector("[data-test=quick-add-reading-remembered]:not([hidden])")
    assert page.get_attribute("[data-test=quick-add-reading] >> nth=1", "aria-pressed") == "true"

    _type(page, "周末大扫除")
    assert page.locator("[data-test=quick-add-reading]").count() >= 2
    assert page.input_value("#qa-deadline") == ""


@pytest.mark.e2e
def test_semester_weeks_a_meal_after_exams_and_the_original_queues(live_page, transactional_db):
    student = UserFactory(username="xiaolin")
    today = timezone.localtime(timezone.now(), student.zone).date()
    week_one = today - timedelta(days=today.weekday(), weeks=2)  # today is in week 3
    calendar_settings_update(user=student, semester_start=week_one, semester_weeks=20)
    page = live_page
    page.set_viewport_size(PHONE)
    log_in(page, student.username)

    _type(page, "第七周周三交电路实验报告")
    assert page.input_value("#qa-title") == "交电路实验报告"
    report = _save(page, "交电路实验报告")
    assert timezone.localtime(report.deadline, student.zone).date() == week_one + timedelta(weeks=6, days=2)

    _type(page, "考完试聚餐")
    assert page.input_value("#qa-quadrant") == "3"
    meal = _save(page, "聚餐")
    assert (meal.quadrant, meal.deadline, meal.deadline_ambiguous) == (3, None, True)

    headings = page.locator("[data-test=quadrants] h3").all_inner_texts()
    assert headings == ["1 · 重要并紧急", "2 · 重要不紧急", "3 · 简单不重要", "4 · 不简单不重要"]
