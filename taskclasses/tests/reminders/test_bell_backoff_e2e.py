"""The bell reconnects with backoff during an outage, in Chromium.

During a Redis outage the server accepts the bell's socket and closes it at once; the bell used to
count the accept as a success and came back about once a second. Here the page's socket runs through
Playwright's WebSocket route, which answers each attempt that way while the "outage" lasts, and the
page's clock is Playwright's, so three minutes of outage take seconds: the waits double with jitter up
to 30 s, and a connection that stays up resets them.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import WebSocketRoute

from accounts.tests.factories import UserFactory
from smartmate.tests.live_server import log_in

pytestmark = pytest.mark.e2e

BELL_SOCKET = re.compile(r"/ws/notifications/$")
STEP_MS = 250


class Outage:
    """Answer the bell's sockets as a server with Redis down (accept, then close) until ``over``."""

    def __init__(self) -> None:
        self.over = False
        self.attempts: list[int] = []  # the page clock's ms at each attempt (to within one STEP_MS)
        self.now = 0
        self.live: list[WebSocketRoute] = []
        self.accepted: list[WebSocketRoute] = []

    def route(self, ws: WebSocketRoute) -> None:
        self.attempts.append(self.now)
        if self.over:
            ws.connect_to_server()
            self.live.append(ws)
        else:
            self.accepted.append(ws)  # the page sees it open; the next step closes it

    def drop_accepted(self) -> None:
        while self.accepted:
            self.accepted.pop().close(code=1011)


def _advance(page, outage: Outage, ms: int) -> None:
    """Move the page's clock on by ``ms``, a step at a time, letting its sockets' events through."""
    for _ in range(ms // STEP_MS):
        page.clock.run_for(STEP_MS)
        outage.now += STEP_MS
        page.wait_for_timeout(15)  # real time for the route and the socket events of this step
        outage.drop_accepted()


def test_the_bell_backs_off_to_30_seconds_during_an_outage_and_starts_over_after_a_good_connection(
        page, live_daphne, transactional_db):
    page.set_default_timeout(30_000)
    page.base_url = live_daphne
    student = UserFactory()
    log_in(page, student.username)
    outage = Outage()
    page.route_web_socket(BELL_SOCKET, outage.route)
    page.clock.install()
    page.goto(f"{live_daphne}/")

    _advance(page, outage, 180_000)

    gaps = [later - earlier for earlier, later in zip(outage.attempts, outage.attempts[1:])]
    # 1 s doubling with jitter (each wait between half and all of its step) to 30 s: a dozen attempts in
    # three minutes where the bell once made about 180.
    assert 8 <= len(outage.attempts) <= 14, outage.attempts
    growing = gaps[:next(index for index, gap in enumerate(gaps) if gap >= 15_000 - STEP_MS) + 1]
    assert all(later >= earlier - STEP_MS for earlier, later in zip(growing, growing[1:])), gaps  # below the cap
    assert all(15_000 - STEP_MS <= gap <= 30_000 + 2 * STEP_MS for gap in gaps[len(growing):]), gaps  # at the cap

    outage.over = True
    _advance(page, outage, 31_000)
    assert outage.live, "the bell came back once the outage was over"
    assert page.locator("[data-bell]").get_attribute("data-live") == "1"

    _advance(page, outage, 11_000)  # stays up past the 10 s that count as a good connection
    reconnects_from = len(outage.attempts)
    outage.live[-1].close(code=1012)  # the server restarts
    _advance(page, outage, 1_500)
    assert len(outage.attempts) == reconnects_from + 1, "a good connection resets the wait to about a second"
