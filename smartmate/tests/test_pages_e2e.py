"""A student logs in through a real Chromium and sees the dashboard; a new student's first pages at both widths."""

from __future__ import annotations

import pytest

from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from smartmate.tests.live_server import log_in


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


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 900}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_a_new_student_meets_next_steps_and_her_own_words_not_a_developers(live_page, transactional_db, viewport):
    """#35's small things, walked: the empty dashboard points to import; exams are in the navigation; no
    API link in the footer; the import page offers a sample and says its limit in MB; settings speak of
    用量 and 北京时间, never token; one word each (任务类, 随口记); without a model the assistant page says
    what still works and names no setting; a wrong address is the Chinese 404, not Django's (DEBUG is on here)."""
    student = UserFactory(username=f"hands{viewport['width']}")
    page = live_page
    page.set_viewport_size(viewport)
    log_in(page, student.username)
    assert page.is_visible("[data-test=import-pointer] a[href='/schedule/import/']")
    assert page.inner_text("nav [data-nav=exams]") == "考试"
    nav = page.inner_text("nav.mainnav")
    assert "任务类" in nav and "学习计划" not in nav and "随手记" not in page.inner_text("main")
    assert page.locator("[data-test=footer-api]").count() == 0
    page.goto(f"{page.base_url}/schedule/import/")
    assert page.is_visible("[data-test=import-sample-link]")
    assert "1048576" not in page.inner_text("main") and "MB" in page.inner_text("main")
    page.goto(f"{page.base_url}/accounts/settings/")
    assert "token" not in page.inner_text("main").lower()
    assert "北京时间" in page.inner_text("select[name=time_zone] option:checked")
    page.goto(f"{page.base_url}/assistant/")  # this server has no model: the student is told what still works
    assert "课表、任务类、随口记等其他功能都能照常使用" in page.inner_text("[data-test=llm-not-configured]")
    assert "LLM_" not in page.inner_text("main") and "token" not in page.inner_text("main").lower()
    missing = page.goto(f"{page.base_url}/schedule/no-such-page/")
    assert missing is not None and missing.status == 404
    assert page.inner_text("main h1") == "页面不存在" and "URLconf" not in page.content()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
