"""``reminders.deliver``: each produced reminder is announced once, whatever redelivers its event.

The producer publishes the event in the transaction that creates the reminder. The consumer runs in
the outbox's receipt transaction (a redelivered event, a restarted worker: no second effect) and also
claims the reminder itself (``delivered_at``), so even two events for one reminder announce it once.
The socket send happens only after that transaction commits.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.utils import timezone

from smartmate.platform.models import OutboxEvent
from smartmate.platform.outbox.registry import consumes, topic_register
from taskclasses.reminders.live import reminder_send
from taskclasses.reminders.models import Reminder

TOPIC = "reminders.deliver"

topic_register(TOPIC, queue="default")


@consumes(TOPIC, name="reminders.deliver")
def reminder_deliver(event: OutboxEvent) -> None:
    """Mark the reminder delivered and, once that commits, tell the student's open tabs."""
    reminder_id = event.payload["reminder_id"]
    row = Reminder.objects.filter(pk=reminder_id).values_list("user_id", flat=True).first()
    if row is None:
        return  # deleted meanwhile (the student deleted their account): nothing to say
    claimed = Reminder.objects.filter(pk=reminder_id, delivered_at__isnull=True).update(delivered_at=timezone.now())
    if claimed:
        transaction.on_commit(partial(reminder_send, user_id=row, reminder_id=reminder_id), robust=True)
