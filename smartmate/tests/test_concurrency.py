"""The HTTP concurrency cap: requests beyond the limit wait, websockets pass, nothing is dropped."""

from __future__ import annotations

import asyncio

import pytest

from smartmate.platform.concurrency import HttpConcurrencyLimit

pytestmark = pytest.mark.asyncio


async def test_no_more_than_the_limit_run_at_once_and_every_request_is_served():
    running, peak, served = 0, 0, []

    async def app(scope, receive, send):
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.01)
        running -= 1
        served.append(scope["path"])

    limited = HttpConcurrencyLimit(app, limit=3)
    await asyncio.gather(*(limited({"type": "http", "path": f"/{n}"}, None, None) for n in range(20)))

    assert peak == 3 and sorted(served) == sorted(f"/{n}" for n in range(20))


async def test_websockets_are_not_held_back():
    entered = asyncio.Event()

    async def app(scope, receive, send):
        if scope["type"] == "http":
            await entered.wait()
        else:
            entered.set()

    limited = HttpConcurrencyLimit(app, limit=1)
    http = asyncio.create_task(limited({"type": "http", "path": "/"}, None, None))
    await asyncio.wait_for(limited({"type": "websocket", "path": "/ws/agent/"}, None, None), timeout=1)
    await asyncio.wait_for(http, timeout=1)
