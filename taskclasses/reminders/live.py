"""Send a reminder to every open notifications socket of a student, from any thread or process.

Like the assistant's broadcast (agent/broadcast.py, which this app may not import): the in-memory
channel layer (embedded defaults) lives on the server's event loop and is not thread-safe, so the
consumer registers that loop and a producer thread hands its send to it; a Celery worker (Redis layer)
or a test without sockets uses ``async_to_sync``.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger("taskclasses.reminders")

NOTIFY_MESSAGE_TYPE = "reminder.notify"  # handled by NotificationsConsumer.reminder_notify
SEND_TIMEOUT_SECONDS = 10.0

_server_loop: asyncio.AbstractEventLoop | None = None


def notifications_group(user_id: int) -> str:
    """The channel-layer group of a student's notification sockets (one per open tab)."""
    return f"notifications-{user_id}"


def server_loop_register(loop: asyncio.AbstractEventLoop) -> None:
    global _server_loop
    _server_loop = loop


def reminder_send(*, user_id: int, reminder_id: int) -> None:
    """Tell the student's open tabs about a reminder; never raises (the bell lists it from the database anyway)."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": NOTIFY_MESSAGE_TYPE, "reminder_id": reminder_id}
    group = notifications_group(user_id)
    try:
        loop = _server_loop
        if loop is not None and loop.is_running() and not _on_loop(loop):
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(SEND_TIMEOUT_SECONDS)
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception:  # a lost live frame is shown by the bell's next list
        log.warning("Could not send reminder %s to %s", reminder_id, group, exc_info=True)


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
