"""Reach every open websocket of one student, e.g. to close them all when they sign out.

Each socket joins its student's channel-layer group when it connects (agent/consumers.py); a
``user.close`` message sent to that group makes every socket of the student close with 4401, in
any process (Redis layer) or in this one (in-memory layer).
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger("accounts.sockets")

USER_CLOSE_MESSAGE_TYPE = "user.close"  # handled by AgentConsumer.user_close


def user_group(user_id: int) -> str:
    """Return the channel-layer group of every socket of a student."""
    return f"user-{user_id}"


def user_sockets_close(*, user_id: int, reason: str = "signed_out") -> None:
    """Ask every open socket of the student to close; never raises (a lost message leaves an idle socket).

    Call from synchronous code (a view, a service); inside a request on daphne the send runs on the
    server's event loop, where the in-memory layer lives.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(user_group(user_id), {"type": USER_CLOSE_MESSAGE_TYPE, "reason": reason})
    except Exception:  # signing out must not fail because the channel layer is down
        log.warning("Could not close the sockets of user %s", user_id, exc_info=True)
