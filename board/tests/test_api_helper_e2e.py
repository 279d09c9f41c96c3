"""The page scripts' one fetch helper (static/js/api.js) on the week board, in Chromium, in Chinese: a write
carries the CSRF token and a fresh idempotency key, and a request that never reaches the server says so in
Chinese rather than in the browser's English."""

from __future__ import annotations

import pytest

from board.tests.test_board_edit_e2e import _board_path, _student_with_blocks, new_event_dialog_opened
from schedule.models import ScheduleEvent
from smartmate.tests.live_server import log_in

EVENTS_API = "**/api/v1/schedule/events/"


def _new_event(page, username: str) -> None:
    """Sign in as a fresh student and fill the new-event dialog of a free cell in week 4."""
    student, _items = _student_with_blocks(username, items=0)
    log_in(page, student.username)
    page.goto(f"{page.base_url}{_board_path()}?week=4")
    page.click('td.free[data-day="3"][data-section="9"]')
    new_event_dialog_opened(page, start=9, end=10)
    page.fill("[data-test=event-title]", "社团例会")


@pytest.mark.e2e
def test_a_write_carries_the_csrf_token_and_a_fresh_idempotency_key(live_page, transactional_db):
    page = live_page
    _new_event(page, "apihelper1")
    with page.expect_request(lambda request: request.method == "POST" and "/schedule/events/" in request.url) as sent:
        page.click("[data-test=event-save]")
    headers = sent.value.headers
    assert len(headers["x-idempotency-key"]) == 36 and headers["x-csrftoken"]
    assert (headers["content-type"], headers["accept"]) == ("application/json", "application/json")
    page.wait_for_selector('td.kind-custom[data-day="3"][data-section="9"]:has-text("社团例会")')


@pytest.mark.e2e
def test_a_request_that_cannot_reach_the_server_says_so_in_chinese(live_page, transactional_db):
    page = live_page
    _new_event(page, "apihelper2")
    page.route(EVENTS_API, lambda route: route.abort("internetdisconnected"))
    page.click("[data-test=event-save]")
    error = page.locator("[data-test=event-dialog-error]")
    error.wait_for(state="visible")
    assert error.inner_text() == "连不上时伴，请检查网络后再试。"
    assert not ScheduleEvent.objects.filter(kind="custom").exists()
