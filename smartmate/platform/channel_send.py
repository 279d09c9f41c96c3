"""Send to a channel-layer group from any thread or process (the assistant's events, reminders).

Work that pushes to sockets runs in a Celery worker (Redis layer, any process) or in a thread of the
web process (embedded defaults: the in-memory layer). The in-memory layer lives on the server's event
loop and is not thread-safe: its queues must only be touched from that loop. So a consumer registers
its running loop here when a socket connects, and a producer thread hands each send to that loop
(``run_coroutine_threadsafe``) and waits for it, which also keeps its messages in order. Without a
registered loop (a Celery worker, a test without sockets) the usual ``async_to_sync`` is used.
"""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

SEND_TIMEOUT_SECONDS = 10.0

_server_loop: asyncio.AbstractEventLoop | None = None


def server_loop_register(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the event loop the sockets of this process run on."""
    global _server_loop
    _server_loop = loop


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` from whatever thread this is; raises what the layer raises."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop
    if loop is not None and loop.is_running() and not _on_loop(loop):
        asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(SEND_TIMEOUT_SECONDS)
    else:
        async_to_sync(layer.group_send)(group, message)


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
