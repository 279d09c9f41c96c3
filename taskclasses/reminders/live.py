"""Send a reminder to every open notifications socket of a student, from any thread or process.

``smartmate.platform.channel_send`` hands the send to the server's event loop (embedded defaults) or
queues it on the process's sender loop (a Celery worker, the Redis layer), as the assistant's events do.
"""

from __future__ import annotations

import logging

from smartmate.platform.channel_send import group_send

log = logging.getLogger("taskclasses.reminders")

NOTIFY_MESSAGE_TYPE = "reminder.notify"  # handled by NotificationsConsumer.reminder_notify


def notifications_group(user_id: int) -> str:
    """The channel-layer group of a student's notification sockets (one per open tab)."""
    return f"notifications-{user_id}"


def reminder_send(*, user_id: int, reminder_id: int) -> None:
    """Tell the student's open tabs about a reminder; never raises (the bell lists it from the database anyway)."""
    group = notifications_group(user_id)
    try:
        group_send(group, {"type": NOTIFY_MESSAGE_TYPE, "reminder_id": reminder_id})
    except Exception as exc:  # noqa: BLE001 - a lost live frame is shown by the bell's next list
        log.warning("Could not send reminder %s to %s (%s: %s)", reminder_id, group, type(exc).__name__, exc)
