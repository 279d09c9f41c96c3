"""Send turn events to the websocket group of a conversation, from any thread or process.

The turn runs in a Celery worker or in a thread of the web process; ``smartmate.platform.channel_send``
hands each send to the right event loop (and keeps events in order).
"""

from __future__ import annotations

import logging
from typing import Any

from smartmate.platform.channel_send import group_send

log = logging.getLogger("agent.broadcast")

EVENT_MESSAGE_TYPE = "agent.event"  # handled by AgentConsumer.agent_event


def conversation_group(conversation_id: int) -> str:
    """Return the channel-layer group of a conversation's sockets."""
    return f"conversation.{conversation_id}"


def broadcast(conversation_id: int, frame: dict[str, Any]) -> None:
    """Send ``frame`` to every socket following the conversation; never raises (events are stored first)."""
    group = conversation_group(conversation_id)
    try:
        group_send(group, {"type": EVENT_MESSAGE_TYPE, "frame": frame})
    except Exception as exc:  # noqa: BLE001 - a lost live event is replayed from the timeline by seq
        # One line, no traceback: while Redis restarts every event of every running turn lands here.
        log.warning("Could not broadcast event %s to %s (%s: %s); the page replays it from the timeline",
                    frame.get("seq"), group, type(exc).__name__, exc)
