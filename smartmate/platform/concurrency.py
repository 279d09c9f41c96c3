"""A cap on the HTTP requests one server process handles at once.

Under daphne every request's view runs in its own thread with its own database connection, so a
burst of requests opens as many connections as there are requests in flight, and a database with
``max_connections`` 151 starts refusing logins ("Too many connections", seen by the load check at
300 simultaneous students). Requests beyond ``ASGI_MAX_CONCURRENT_HTTP`` wait their turn here
instead, which costs them a little latency and nobody an error. Websockets are not limited: an open
socket holds no database connection while it waits.

Size the database for it: ``max_connections`` >= servers x this limit + worker processes + margin.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class HttpConcurrencyLimit:
    """ASGI middleware: at most ``limit`` HTTP requests in the wrapped app at once."""

    def __init__(self, app: Callable[..., Awaitable[None]], limit: int | None = None) -> None:
        self.app = app
        self.limit = limit or settings.ASGI_MAX_CONCURRENT_HTTP
        self._semaphore: asyncio.Semaphore | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self._semaphore is None:  # created in the server's loop, on first use
            self._semaphore = asyncio.Semaphore(self.limit)
        async with self._semaphore:
            await self.app(scope, receive, send)
