"""A student logs in through a real Chromium and sees the dashboard."""

from __future__ import annotations

import pytest

from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory


@pytest.mark.e2e
def test_a_student_logs_in_and_sees_the_dashboard(live_page, transactional_db):
    student = UserFactory(username="zhangsan")
    page = live_page
    page.goto(f"{page.base_url}/")
    assert "/accounts/login/" in page.url
    page.fill("#id_username", student.username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("[data-test=login-submit]")
    page.wait_for_url(f"{page.base_url}/")
    assert page.inner_text("[data-test=dashboard-title]") == "你好，zhangsan"
    assert page.is_visible("nav >> text=总览")
    css_loaded = page.evaluate("getComputedStyle(document.querySelector('.topbar')).position")
    assert css_loaded == "sticky"
