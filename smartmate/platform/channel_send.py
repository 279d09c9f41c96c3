"""Send to a channel-layer group from any thread or process (the assistant's events, reminders).

Work that pushes to sockets runs in a Celery worker (Redis layer, any process) or in a thread of the
web process (embedded defaults: the in-memory layer). The in-memory layer lives on the server's event
loop and is not thread-safe: its queues must only be touched from that loop. So a consumer registers
its running loop here when a socket connects, and a producer thread hands each send to that loop
(``run_coroutine_threadsafe``) and waits for it, which also keeps its messages in order.

Without a registered loop (a Celery worker, a management command) a cross-process layer (Redis) is
sent to through one event loop per process, kept in a daemon thread (``SenderLoop``). The usual
``async_to_sync`` would start a thread and an event loop for every send, and channels-redis keeps its
connection pool per event loop, so every send also opened (and dropped) a Redis connection: about
4.6 ms of wall time and 2.9 ms of CPU per event against 0.6 and 0.5 ms through one loop (see
docs/worker-throughput.md). Those sends are queued, not waited for: the sender loop sends them one
by one in the order they were queued (so a turn's frames keep their order), and a failure is logged
there (callers never relied on it: a lost live frame is replayed from the database). A worker task
calls ``sends_flush()`` before it ends. The in-memory layer without a registered loop (a test without
sockets) keeps ``async_to_sync``: its queues belong to whichever loop reads them.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from concurrent.futures import Future
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

log = logging.getLogger("smartmate.channel_send")

SEND_TIMEOUT_SECONDS = 10.0

_server_loop: asyncio.AbstractEventLoop | None = None


def server_loop_register(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the event loop the sockets of this process run on."""
    global _server_loop
    _server_loop = loop


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` from whatever thread this is.

    On the server's loop or the in-memory layer: waits, and raises what the layer raises. Otherwise
    (a worker, the Redis layer): queued on this process's sender loop, in order; failures are logged.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop
    if loop is not None and loop.is_running() and not _on_loop(loop):
        asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(SEND_TIMEOUT_SECONDS)
    elif isinstance(layer, InMemoryChannelLayer) or _in_event_loop():
        async_to_sync(layer.group_send)(group, message)  # refuses a running loop's thread, as before
    else:
        sender_loop().enqueue(layer, group, message)


def sends_flush(timeout: float = SEND_TIMEOUT_SECONDS) -> bool:
    """Wait until every send this process queued so far has been tried; False if that took too long."""
    sender = _sender
    if sender is None or sender.pid != os.getpid():
        return True
    return sender.flush(timeout)


class SenderLoop:
    """An event loop in a daemon thread of this process that sends queued messages one at a time, in order,
    over the layer's connections for that loop (kept, not reopened per send)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self._queue: asyncio.Queue[tuple[Any, str, dict[str, Any]] | Future[None]] = asyncio.Queue()
        self._thread = threading.Thread(target=self._run, name="channel-sender", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.create_task(self._drain())
        self.loop.run_forever()

    def enqueue(self, layer: Any, group: str, message: dict[str, Any]) -> None:
        self.loop.call_soon_threadsafe(self._queue.put_nowait, (layer, group, message))

    def flush(self, timeout: float) -> bool:
        marker: Future[None] = Future()
        self.loop.call_soon_threadsafe(self._queue.put_nowait, marker)
        try:
            marker.result(timeout)
        except TimeoutError:
            log.warning("Channel-layer sends still queued after %.1f s; they go on in the background", timeout)
            return False
        return True

    async def _drain(self) -> None:
        while True:
            item = await self._queue.get()
            if isinstance(item, Future):
                item.set_result(None)
                continue
            layer, group, message = item
            try:
                await asyncio.wait_for(layer.group_send(group, message), SEND_TIMEOUT_SECONDS)
            except Exception as exc:  # noqa: BLE001 - a lost live frame is replayed from the database
                # One line, no traceback: while Redis restarts every queued send lands here.
                log.warning("Could not send %s to %s (%s: %s); the page replays it from the database",
                            message.get("type"), group, type(exc).__name__, exc)


_sender: SenderLoop | None = None
_sender_lock = threading.Lock()


def sender_loop() -> SenderLoop:
    """Return this process's sender loop, starting it on first use (again in a forked child: a Celery
    prefork pool process inherits the parent's object but not its thread)."""
    global _sender
    sender = _sender
    if sender is not None and sender.pid == os.getpid():
        return sender
    with _sender_lock:
        if _sender is None or _sender.pid != os.getpid():
            _sender = SenderLoop()
        return _sender


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _in_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
