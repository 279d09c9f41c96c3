"""The account itself and the shared records that name the student (idempotency keys, outbox events)."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext_lazy

from accounts.data_ports import DataArea, Tables, data_area_register
from accounts.models import User
from smartmate.platform.models import ConsumerReceipt, IdempotencyRecord, OutboxEvent


def _outbox_naming(user: User):
    return OutboxEvent.objects.filter(Q(payload__user_id=user.pk) | Q(aggregate=f"user:{user.pk}"))


def _tables(user: User) -> Tables:
    return {
        "user": User.objects.filter(pk=user.pk),
        "idempotencyrecord": IdempotencyRecord.objects.filter(user=user).order_by("pk"),
        "outboxevent": _outbox_naming(user).order_by("pk"),
    }


def _erase_rows(user: User) -> None:
    events = _outbox_naming(user)
    ConsumerReceipt.objects.filter(event_uuid__in=list(events.values_list("uuid", flat=True))).delete()
    events.delete()


# The line for this file in the archive's 说明.txt.
SUMMARY = gettext_lazy("Your account: name, e-mail, language and time zone, and your assistant quota.")

# Idempotency records hold replayed responses and outbox events are delivery bookkeeping: counted and
# deleted, not exported.
data_area_register(DataArea(name="account", tables=_tables, erase_rows=_erase_rows, order=10,
                            summary=SUMMARY,
                            counted_only=frozenset({"idempotencyrecord", "outboxevent"})))
