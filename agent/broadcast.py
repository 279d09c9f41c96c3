"""Send turn events to the websocket group of a conversation, from any thread or process.

A turn runs in a Celery worker (broker configured: Redis layer, any process) or in a thread of the
web process (embedded mode: in-memory layer). The in-memory layer lives on the server's event loop
and is not thread-safe: its queues must only be touched from that loop. So the consumer registers
its running loop here when a socket connects, and a turn thread hands each send to that loop
(``run_coroutine_threadsafe``) and waits for it, which also keeps events in order. Without a
registered loop (a Celery worker, a test without sockets) the usual ``async_to_sync`` is used.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger("agent.broadcast")

EVENT_MESSAGE_TYPE = "agent.event"  # handled by AgentConsumer.agent_event
SEND_TIMEOUT_SECONDS = 10.0

_server_loop: asyncio.AbstractEventLoop | None = None


def conversation_group(conversation_id: int) -> str:
    """Return the channel-layer group of a conversation's sockets."""
    return f"conversation.{conversation_id}"


def server_loop_register(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the event loop the sockets of this process run on."""
    global _server_loop
    _server_loop = loop


def broadcast(conversation_id: int, frame: dict[str, Any]) -> None:
    """Send ``frame`` to every socket following the conversation; never raises (events are stored first)."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": EVENT_MESSAGE_TYPE, "frame": frame}
    group = conversation_group(conversation_id)
    try:
        loop = _server_loop
        if loop is not None and loop.is_running() and not _on_loop(loop):
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(SEND_TIMEOUT_SECONDS)
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception as exc:  # noqa: BLE001 - a lost live event is replayed from the timeline by seq
        # One line, no traceback: while Redis restarts every event of every running turn lands here.
        log.warning("Could not broadcast event %s to %s (%s: %s); the page replays it from the timeline",
                    frame.get("seq"), group, type(exc).__name__, exc)


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
