"""Production mode as students get it (issue 33), in Chromium.

The daphne child runs as the README's production section says: DEBUG=0, a 50+ character secret,
ALLOWED_HOSTS, METRICS_TOKEN, static files collected once into a temporary STATIC_ROOT with the
production (manifest) storage. Only the redirect to https is off: the test speaks plain http to
127.0.0.1, which Chromium counts as a secure origin (so secure cookies and the service worker work).

Every response any page of a walk sees must be below 500: in debug nothing caught /sw.js answering 500.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from schedule.models import ScheduleEvent
from smartmate.tests.live_server import wait_until
from taskclasses.tests.reminders.test_pocket_e2e import BLOCK, _a_block_in_eight_minutes, _student_in_week_13

DESKTOP = {"width": 1366, "height": 900}  # the size #35 was walked at
PHONE = {"width": 390, "height": 844}
# Ready within a second, else false: evaluating navigator.serviceWorker.ready alone would wait forever for a
# worker that never registers (the probe's case), hanging the test instead of failing it.
WORKER_READY = ("Promise.race([navigator.serviceWorker.ready.then(() => true),"
                " new Promise((resolve) => setTimeout(() => resolve(false), 1000))])")
KEPT = "caches.open('sm-pages').then((c) => c.match('/board/')).then((r) => r ? r.text() : '')"

pytestmark = pytest.mark.e2e


class Walk:
    """A browser context on the production server that remembers every response its pages saw."""

    def __init__(self, context, base_url: str) -> None:
        self.context = context
        self.base_url = base_url
        self.responses: list[tuple[int, str]] = []
        context.on("response", lambda response: self.responses.append((response.status, response.url)))
        self.page = context.new_page()
        self.page.set_default_timeout(20_000)
        self.page.base_url = base_url  # type: ignore[attr-defined]

    def go(self, path: str) -> None:
        self.page.goto(f"{self.base_url}{path}")

    def server_errors(self) -> list[tuple[int, str]]:
        return [(status, url) for status, url in self.responses if status >= 500]


@pytest.fixture
def walk(browser, live_production) -> Iterator[Callable[..., Walk]]:
    """Open walks (Chinese, Shanghai time) at a given viewport; each must end with no 5xx seen."""
    walks: list[Walk] = []

    def open_walk(viewport: dict | None = None, **options) -> Walk:
        context = browser.new_context(locale="zh-CN", timezone_id="Asia/Shanghai",
                                      viewport=viewport or DESKTOP, **options)
        walks.append(Walk(context, live_production))
        return walks[-1]

    yield open_walk
    errors = [error for one in walks for error in one.server_errors()]
    for one in walks:
        one.context.close()
    assert errors == [], errors


def _sign_in(walk: Walk, username: str) -> None:
    walk.go("/accounts/login/")
    walk.page.fill("#id_username", username)
    walk.page.fill("#id_password", DEFAULT_PASSWORD)
    walk.page.click("[data-test=login-submit]")
    walk.page.wait_for_url(f"{walk.base_url}/")


def _session_cookie(walk: Walk) -> str:
    return next(cookie["value"] for cookie in walk.context.cookies() if cookie["name"] == "sessionid")


def _status_with_cookie(playwright, base_url: str, session: str, path: str = "/board/") -> tuple[int, str]:
    """Ask for ``path`` from outside the browser with a copied session cookie; return (status, Location)."""
    client = playwright.request.new_context(base_url=base_url, extra_http_headers={"Cookie": f"sessionid={session}"})
    try:
        response = client.get(path, max_redirects=0)
        return response.status, response.headers.get("location", "")
    finally:
        client.dispose()


def _install_and_keep(walk: Walk) -> None:
    """Let the service worker install, take over the page and keep this week's agenda."""
    walk.go("/board/")
    wait_until(walk.page, WORKER_READY)
    walk.page.reload()
    wait_until(walk.page, "!!navigator.serviceWorker.controller")
    wait_until(walk.page, "document.documentElement.dataset.offlineKept !== undefined")
    assert BLOCK in walk.page.evaluate(KEPT)


def _nothing_kept_offline(walk: Walk) -> None:
    """Offline after the session ended: the notice says nothing is kept, and nothing of the student shows."""
    walk.go("/board/")
    walk.page.locator("[data-test=offline-nothing-kept]").wait_for(state="visible")
    assert BLOCK not in walk.page.content()


def _read_agenda_offline(walk: Walk) -> None:
    walk.context.set_offline(True)
    walk.page.reload()
    walk.page.locator("[data-test=offline-banner]").wait_for(state="visible")
    assert BLOCK in walk.page.inner_text("[data-test=agenda-day]:not([hidden])")
    # Offline the worker answers only the agenda's own addresses, never the login page with its copy: any
    # other address gets the offline notice.
    walk.go("/accounts/login/")
    walk.page.locator("[data-test=offline-page]").wait_for(state="visible")
    assert walk.page.locator("[data-test=login-submit]").count() == 0
    walk.context.set_offline(False)


def _sign_out_and_check_it_held(walk: Walk, playwright) -> None:
    session = _session_cookie(walk)
    walk.go("/board/")
    walk.page.click("[data-test=logout]")
    walk.page.wait_for_url("**/accounts/login/**")
    assert _status_with_cookie(playwright, walk.base_url, session) == (302, "/accounts/login/?next=/board/")
    wait_until(walk.page, "caches.has('sm-pages').then((kept) => !kept)")
    walk.context.set_offline(True)
    _nothing_kept_offline(walk)
    walk.context.set_offline(False)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_sign_in_install_read_offline_sign_out_then_the_next_student_sees_nothing(
        walk, viewport, playwright, transactional_db):
    _a_block_in_eight_minutes(_student_in_week_13("prod1"))
    UserFactory(username="prod2", time_zone="Asia/Shanghai")
    one = walk(viewport)
    _sign_in(one, "prod1")
    _install_and_keep(one)
    _read_agenda_offline(one)
    _sign_out_and_check_it_held(one, playwright)

    _sign_in(one, "prod2")  # the same browser, the next student
    one.go("/board/")
    wait_until(one.page, "document.documentElement.dataset.offlineKept !== undefined")
    assert BLOCK not in one.page.inner_text("body")
    assert BLOCK not in one.page.evaluate(KEPT)


def test_the_board_a_direct_edit_and_the_chat_page_in_production(walk, transactional_db):
    student = _student_in_week_13("prod3")
    one = walk()
    _sign_in(one, "prod3")
    one.go("/board/?week=13")
    one.page.click('td.free[data-day="3"][data-section="9"]')
    one.page.locator("[data-test=event-dialog]").wait_for(state="visible")
    one.page.fill("[data-test=event-title]", "社团例会")
    one.page.fill("[data-test=event-weeks]", "13")
    one.page.click("[data-test=event-save]")
    one.page.wait_for_selector('td.kind-custom[data-day="3"][data-section="9"]:has-text("社团例会")')
    assert ScheduleEvent.objects.filter(user=student, kind="custom", title="社团例会").count() == 1

    one.go("/assistant/")
    one.page.locator("[data-test=chat]").wait_for(state="visible")
    assert one.page.locator("[data-test=llm-not-configured]").is_visible()


def test_sign_out_goes_through_when_no_service_worker_can_run(walk, playwright, transactional_db):
    """H1: the page script waited for a worker that never came, so the click sent nothing."""
    UserFactory(username="prod4")
    one = walk(service_workers="block")
    _sign_in(one, "prod4")
    session = _session_cookie(one)
    one.page.click("[data-test=logout]")
    one.page.wait_for_url("**/accounts/login/**")
    assert _status_with_cookie(playwright, one.base_url, session) == (302, "/accounts/login/?next=/board/")


def test_a_session_ended_elsewhere_drops_the_offline_agenda_at_the_next_online_page(walk, transactional_db):
    student = _student_in_week_13("prod5")
    _a_block_in_eight_minutes(student)
    one = walk(PHONE)
    _sign_in(one, "prod5")
    _install_and_keep(one)
    # Elsewhere: the password is changed, which ends every other session of the student.
    student.set_password("a-new-password-for-prod5")
    student.save()
    one.go("/board/")  # online: the server sends the page to the login page, which names no session
    one.page.wait_for_url("**/accounts/login/**")
    wait_until(one.page, "caches.has('sm-pages').then((kept) => !kept)")
    one.context.set_offline(True)
    _nothing_kept_offline(one)
    one.context.set_offline(False)


def test_the_admin_and_the_public_routes_answer_in_production(walk, transactional_db):
    User.objects.create_superuser("operator", "operator@example.edu", DEFAULT_PASSWORD)
    one = walk()
    one.go("/admin/login/")
    one.page.fill("#id_username", "operator")
    one.page.fill("#id_password", DEFAULT_PASSWORD)
    one.page.click("input[type=submit]")
    one.page.wait_for_url(f"{one.base_url}/admin/")
    assert "站点管理" in one.page.inner_text("body")
    one.go("/admin/accounts/user/")
    assert "operator" in one.page.inner_text("#result_list")
    for path in ("/sw.js", "/manifest.webmanifest", "/favicon.ico", "/healthz", "/metrics", "/api/schema/",
                 "/api/schema/swagger/", "/api/schema/redoc/", "/api/v1/"):
        response = one.page.request.get(f"{one.base_url}{path}")
        one.responses.append((response.status, response.url))
        assert response.status < 500, (path, response.status)
