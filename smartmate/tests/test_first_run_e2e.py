"""A new student in Chromium, in Chinese, at desktop (1366×900) and phone (390×844) widths: registers,
meets the three-step guide, sets the semester (Beijing time picked from the list), imports the sample
timetable from the import page, and leaves the guide for good — from the dashboard's card on a desktop,
with "跳过引导" on a phone. No page scrolls sideways, and the browser reports no error."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import expect

from smartmate.tests.live_server import REPO_ROOT

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
SAMPLE = REPO_ROOT / "static" / "samples" / "wakeup-sample.csv"


def _student_page(browser, base_url: str, viewport: dict):
    context = browser.new_context(locale="zh-CN", timezone_id="Asia/Shanghai", viewport=viewport,
                                  service_workers="block")
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def _register(page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/accounts/register/")
    page.fill("#id_username", username)
    page.fill("#id_password", "kaoyan-2027!")
    page.fill("#id_password_again", "kaoyan-2027!")
    page.click("form button[type=submit].primary")
    page.wait_for_url(f"{base_url}/welcome/")


def _step_done(page, step: str) -> str | None:
    return page.get_attribute(f"[data-test=first-run-step][data-step={step}]", "data-done")


def _assert_fits(page) -> None:
    scroll_width, inner_width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll_width <= inner_width


def _walk_to_the_timetable(page, base_url: str) -> None:
    """Register-page landing → semester saved → sample imported; back on the guide with two steps done."""
    expect(page.locator("[data-test=first-run-title]")).to_have_text("开始使用")
    assert [_step_done(page, step) for step in ("semester", "timetable", "plan")] == ["0", "0", "0"]
    _assert_fits(page)
    page.fill("#id_semester_start", "2026-09-07")
    page.select_option("#id_time_zone", label="北京时间（UTC+8）")
    page.click("[data-test=first-run-semester-save]")
    expect(page.locator(".message")).to_contain_text("学期已保存。下一步：导入课表。")
    assert _step_done(page, "semester") == "1"
    page.click("[data-test=first-run-step][data-step=timetable] [data-test=first-run-go]")
    page.wait_for_url(f"{base_url}/schedule/import/")
    expect(page.locator("[data-test=import-sample-link]")).to_have_text("下载示例课表（WakeUp CSV）")
    page.set_input_files("#import-file", str(SAMPLE))
    page.click("[data-test=import-preview]")
    page.click("[data-test=import-confirm]")
    page.wait_for_url(f"{base_url}/board/")
    page.goto(f"{base_url}/welcome/")
    assert [_step_done(page, step) for step in ("semester", "timetable", "plan")] == ["1", "1", "0"]
    expect(page.locator("[data-test=first-run-step].current")).to_have_attribute("data-step", "plan")


@contextmanager
def _guided_new_student(browser, base_url: str, viewport: dict, username: str) -> Iterator:
    """A student registered at this width and walked through two steps; the browser must stay error-free."""
    context, page, errors = _student_page(browser, base_url, viewport)
    try:
        _register(page, base_url, username)
        _walk_to_the_timetable(page, base_url)
        yield page
        assert errors == []
    finally:
        context.close()


@pytest.mark.e2e
def test_a_new_student_is_guided_then_dismisses_the_card_on_a_desktop(browser, live_daphne, transactional_db):
    with _guided_new_student(browser, live_daphne, DESKTOP, "xinsheng_pc") as page:
        page.goto(f"{live_daphne}/")
        card = page.locator("[data-test=first-run-card]")
        expect(card).to_contain_text("开始使用：已完成 2 / 3 步")
        assert not page.is_visible("[data-test=import-pointer]")  # the timetable is in
        card.screenshot(path="/tmp/first-run-desktop-card.png")
        card.locator("[data-test=first-run-card-dismiss]").click()
        expect(page.locator(".message")).to_contain_text("引导已关闭。")
        page.reload()
        expect(page.locator("[data-test=first-run-card]")).to_have_count(0)
        page.screenshot(path="/tmp/first-run-desktop-dashboard.png", full_page=True)


@pytest.mark.e2e
def test_a_new_student_on_a_phone_skips_the_guide(browser, live_daphne, transactional_db):
    with _guided_new_student(browser, live_daphne, PHONE, "xinsheng_phone") as page:
        page.screenshot(path="/tmp/first-run-phone-guide.png", full_page=True)
        skip = page.locator("[data-test=first-run-skip]")
        assert skip.bounding_box()["height"] >= 44  # a thumb's target
        skip.click()
        page.wait_for_url(f"{live_daphne}/")
        expect(page.locator("[data-test=first-run-card]")).to_have_count(0)
        _assert_fits(page)
        assert page.locator("nav.mainnav [data-nav=exams]").count() == 1  # the exams page is one tap away
