"""A student creates a task class of 16 blocks in Chromium, sees them listed and moves one."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from smartmate.tests.live_server import log_in
from taskclasses.models import TaskClass


def _contents(page) -> list[str]:
    return [box.input_value() for box in page.locator("[data-test=item-content]").all()]


@pytest.mark.e2e
def test_create_a_class_of_sixteen_blocks_then_move_one_down(live_page, transactional_db):
    student = UserFactory(username="sunqi")
    page = live_page
    log_in(page, student.username)
    page.click("[data-nav=taskclasses]")
    page.wait_for_url(f"{page.base_url}/plans/")
    page.fill("#id_name", "概率论复习")
    page.fill("#id_start_date", "2026-09-14")
    page.fill("#id_end_date", "2026-10-11")
    page.fill("#id_item_count", "16")
    page.check("#id_excluded_pairs_5")
    page.click("[data-test=task-class-create-submit]")
    page.wait_for_url(re.compile(r"/plans/\d+/$"))
    task_class = TaskClass.objects.get(user=student)
    assert page.locator("[data-test=item]").count() == 16
    assert _contents(page)[:2] == ["概率论复习 #1", "概率论复习 #2"]
    page.locator("[data-test=item]").first.locator("[data-test=item-down]").click()
    page.wait_for_url(f"{page.base_url}/plans/{task_class.pk}/#items")
    expect(page.locator("[data-test=item-content]").first).to_have_value("概率论复习 #2")
    assert _contents(page)[:3] == ["概率论复习 #2", "概率论复习 #1", "概率论复习 #3"]
    page.goto(f"{page.base_url}/plans/")
    assert page.inner_text("[data-test=task-class] [data-test=placed-count]") == "已安排 0 / 16"
    assert task_class.excluded_pairs == [6]
