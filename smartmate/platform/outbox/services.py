"""The outbox flow: publish in the caller's transaction, dispatch on commit, consume once, sweep.

Every state change is a conditional UPDATE on the event row, so concurrent relays, sweepers and
workers (and duplicate Celery messages) can race without double effects: a consumer's effect is
guarded by its receipt, written in the same transaction (see ``_apply``).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from smartmate.platform import metrics
from smartmate.platform.models import ConsumerReceipt, IdempotencyRecord, OutboxEvent
from smartmate.platform.outbox import registry
from smartmate.platform.outbox.background import background_submit
from smartmate.platform.outbox.backoff import retry_delay
from smartmate.platform.task_queue import task_send

logger = logging.getLogger(__name__)

CONSUME_TASK = "smartmate.outbox_consume"  # registered by outbox.tasks, which imports this module

Status = OutboxEvent.Status
# A message may reach a worker slightly before the event is due by another host's clock.
EARLY_TOLERANCE = timedelta(milliseconds=500)
CLEANUP_BATCH = 5000


# --- Publish and dispatch ------------------------------------------------------------------------

def outbox_publish(*, topic: str, aggregate: str, payload: dict[str, Any]) -> OutboxEvent:
    """Write an event in the caller's transaction; it is handed to Celery once that commits.

    Preconditions: called inside ``transaction.atomic()`` together with the business change, and
    ``topic`` is registered. If the transaction rolls back, the event never existed.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("outbox_publish must be called inside the caller's transaction.atomic().")
    if registry.topic_get(topic) is None:
        raise ValueError(f"Unknown outbox topic {topic!r}: register it in smartmate.platform.outbox.registry.")
    event = OutboxEvent.objects.create(topic=topic, aggregate=aggregate, payload=payload,
                                       next_attempt_at=timezone.now())
    transaction.on_commit(partial(outbox_dispatch, event_ids=[event.pk]), robust=True)
    return event


def outbox_dispatch(*, event_ids: Iterable[int]) -> int:
    """Hand pending events that are due to Celery; return how many were sent.

    An event not yet due (a retry, an order recheck) waits in the table, and the sweeper hands it over
    once due: no message with a countdown is ever held by a worker, unacknowledged, when Redis goes
    away (holding one crashed the worker; see CELERY_TASK_ACKS_LATE in settings).
    """
    now = timezone.now()
    rows = OutboxEvent.objects.filter(pk__in=list(event_ids), status=Status.PENDING).order_by("pk")
    sent = 0
    for pk, event_uuid, topic, due in rows.values_list("pk", "uuid", "topic", "next_attempt_at"):
        if due > now:
            continue
        marked = OutboxEvent.objects.filter(pk=pk, status=Status.PENDING).update(
            status=Status.DISPATCHED, dispatched_at=now, updated_at=now)
        if marked and _send(pk, event_uuid, topic):
            sent += 1
    return sent


def _send(pk: int, event_uuid: uuid.UUID, topic: str) -> bool:
    spec = registry.topic_get(topic)
    queue = spec.queue if spec else "default"
    if spec is not None and spec.background and _celery_is_eager() and settings.OUTBOX_BACKGROUND_IN_PROCESS:
        # Eager Celery would run the slow consumer right here, in the publisher's thread.
        background_submit(partial(task_send, CONSUME_TASK, args=[str(event_uuid)], queue=queue))
        metrics.OUTBOX_DISPATCHED.labels(topic).inc()
        return True
    try:
        task_send(CONSUME_TASK, args=[str(event_uuid)], queue=queue)
    except Exception:  # a broker outage must not fail the committed business request
        logger.exception("outbox: could not hand event %s to Celery; it stays pending", pk)
        OutboxEvent.objects.filter(pk=pk, status=Status.DISPATCHED).update(
            status=Status.PENDING, next_attempt_at=timezone.now() + timedelta(seconds=settings.OUTBOX_RETRY_BASE_DELAY),
            updated_at=timezone.now())
        return False
    metrics.OUTBOX_DISPATCHED.labels(topic).inc()
    return True


def _celery_is_eager() -> bool:
    return bool(current_app.conf.task_always_eager)


# --- Consume -------------------------------------------------------------------------------------

def outbox_event_consume(*, event_uuid: str) -> str:
    """Claim one event, run each of its consumers once, record the outcome; return what happened.

    Safe to call any number of times for the same event (duplicate or redelivered messages): the
    outcome is one of ``consumed``, ``retry``, ``dead``, ``waiting`` (an earlier event of the same
    aggregate is unfinished), ``skipped`` (finished or claimed elsewhere), ``early`` or ``missing``.
    """
    now = timezone.now()
    token = uuid.uuid4().hex
    # Claim first (one conditional UPDATE), read after: the common path costs two queries.
    claimed = OutboxEvent.objects.filter(
        uuid=event_uuid, status__in=[Status.PENDING, Status.DISPATCHED], next_attempt_at__lte=now + EARLY_TOLERANCE,
    ).update(status=Status.PROCESSING, locked_at=now, locked_by=token, attempts=F("attempts") + 1, updated_at=now)
    event = OutboxEvent.objects.filter(uuid=event_uuid).first()
    if event is None:
        return "missing"
    if not claimed:
        # Finished or claimed elsewhere; or a duplicate ahead of its backoff, whose due message
        # (or the sweeper) comes later.
        return "early" if event.status in (Status.PENDING, Status.DISPATCHED) else "skipped"
    spec = registry.topic_get(event.topic)
    if spec is None or not spec.consumers:
        return _finish_dead(event, token, "No consumer is registered for this topic.")
    if spec.ordered and _blocker(event) is not None:
        return _park(event, token)
    marked = False
    try:
        for index, consumer in enumerate(spec.consumers):
            marked = _apply(consumer, event, finish=index == len(spec.consumers) - 1)
    except registry.PermanentError as exc:
        return _finish_dead(event, token, _describe(exc))
    except Exception as exc:  # noqa: BLE001 - any consumer error is retried, then dead-lettered
        return _fail(event, token, exc)
    if marked:
        metrics.OUTBOX_CONSUMED.labels(event.topic).inc()
        _hand_off(event)
    return "consumed"


def _apply(consumer: registry.Consumer, event: OutboxEvent, *, finish: bool) -> bool:
    """Run one consumer with its receipt in one transaction; with ``finish``, mark the event consumed
    in that same transaction. Return whether this call marked it."""
    try:
        with transaction.atomic():
            ConsumerReceipt.objects.create(consumer=consumer.name, event_uuid=event.uuid)
            consumer.handle(event)
            return finish and _mark_consumed(event)
    except IntegrityError:
        if not ConsumerReceipt.objects.filter(consumer=consumer.name, event_uuid=event.uuid).exists():
            raise
    # It had run already (an earlier delivery, or a concurrent one that committed first, in which
    # case ours rolled back with its effect).
    return finish and _mark_consumed(event)


def _mark_consumed(event: OutboxEvent) -> bool:
    # Every consumer has a receipt by now, so the event is done whoever holds the claim.
    now = timezone.now()
    return bool(OutboxEvent.objects.filter(pk=event.pk, status__in=OutboxEvent.UNFINISHED).update(
        status=Status.CONSUMED, consumed_at=now, locked_at=None, locked_by="", updated_at=now))


def _fail(event: OutboxEvent, token: str, exc: Exception) -> str:
    if event.attempts >= settings.OUTBOX_MAX_ATTEMPTS:
        return _finish_dead(event, token, _describe(exc))
    now = timezone.now()
    delay = retry_delay(event.attempts, base=settings.OUTBOX_RETRY_BASE_DELAY, cap=settings.OUTBOX_RETRY_MAX_DELAY)
    retried = OutboxEvent.objects.filter(pk=event.pk, status=Status.PROCESSING, locked_by=token).update(
        status=Status.PENDING, next_attempt_at=now + timedelta(seconds=delay), last_error=_describe(exc),
        locked_at=None, locked_by="", updated_at=now)
    if retried:
        metrics.OUTBOX_RETRIED.labels(event.topic).inc()
        logger.warning("outbox: event %s (%s) failed attempt %s, retrying in %.1f s: %s", event.pk, event.topic,
                       event.attempts, delay, _describe(exc))
        outbox_dispatch(event_ids=[event.pk])
    return "retry"


def _finish_dead(event: OutboxEvent, token: str, error: str) -> str:
    now = timezone.now()
    dead = OutboxEvent.objects.filter(pk=event.pk, status=Status.PROCESSING, locked_by=token).update(
        status=Status.DEAD, last_error=error, locked_at=None, locked_by="", updated_at=now)
    if dead:
        _count_dead(event, error)
    return "dead"


def _count_dead(event: OutboxEvent, error: str) -> None:
    metrics.OUTBOX_DEAD.labels(event.topic).inc()
    logger.error("outbox: event %s (%s, %s) is dead after %s attempts: %s", event.pk, event.topic,
                 event.aggregate, event.attempts, error)
    _hand_off(event)


def _describe(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"[:2000]


# --- Per-aggregate order -------------------------------------------------------------------------
# For an ordered topic, event n+1 of an aggregate runs only once every earlier event of that topic
# and aggregate is consumed or dead. A blocked event parks (pending, due later); the blocker wakes
# its successor when it finishes, and the parked event checks again after parking, so a wake-up
# cannot fall between the two. Order is the id order, i.e. the commit order when producers
# serialise writes per aggregate (they lock the aggregate's row), as they should.

def _blocker(event: OutboxEvent) -> int | None:
    earlier = OutboxEvent.objects.filter(topic=event.topic, aggregate=event.aggregate, pk__lt=event.pk,
                                         status__in=OutboxEvent.UNFINISHED)
    return earlier.order_by("pk").values_list("pk", flat=True).first()


def _park(event: OutboxEvent, token: str) -> str:
    now = timezone.now()
    parked = OutboxEvent.objects.filter(pk=event.pk, status=Status.PROCESSING, locked_by=token).update(
        status=Status.PENDING, attempts=F("attempts") - 1, locked_at=None, locked_by="", updated_at=now,
        next_attempt_at=now + timedelta(seconds=settings.OUTBOX_ORDER_RECHECK))
    if parked and _blocker(event) is None:
        _wake(event.pk)
    return "waiting"


def _hand_off(event: OutboxEvent) -> None:
    spec = registry.topic_get(event.topic)
    if spec is None or not spec.ordered:
        return
    later = OutboxEvent.objects.filter(topic=event.topic, aggregate=event.aggregate, pk__gt=event.pk,
                                       status__in=OutboxEvent.UNFINISHED)
    successor = later.order_by("pk").values_list("pk", "status").first()
    if successor is not None and successor[1] == Status.PENDING:
        _wake(successor[0])


def _wake(pk: int) -> None:
    OutboxEvent.objects.filter(pk=pk, status=Status.PENDING).update(next_attempt_at=timezone.now())
    outbox_dispatch(event_ids=[pk])


# --- Sweep and re-drive --------------------------------------------------------------------------

def outbox_sweep() -> dict[str, int]:
    """Reclaim expired claims, re-dispatch lost hand-offs, dispatch due events, clean up; return counts."""
    now = timezone.now()
    summary = {"reclaimed": 0, "dead": 0}
    for outcome in _reclaim(now):
        summary[outcome] += 1
    summary["redispatched"] = _requeue_stale_dispatched(now, older_than=settings.OUTBOX_DISPATCH_TIMEOUT)
    due = OutboxEvent.objects.filter(status=Status.PENDING, next_attempt_at__lte=now).order_by("next_attempt_at")
    summary["dispatched"] = outbox_dispatch(event_ids=due.values_list("pk", flat=True)[:settings.OUTBOX_SWEEP_BATCH])
    summary.update(_clean_up(now))
    if any(summary.values()):
        logger.info("outbox: sweep %s", summary)
    return summary


def _reclaim(now: datetime) -> list[str]:
    """Free events whose worker claimed them and never finished (killed, lost, hung)."""
    cutoff = now - timedelta(seconds=settings.OUTBOX_CLAIM_TIMEOUT)
    stuck = OutboxEvent.objects.filter(status=Status.PROCESSING, locked_at__lt=cutoff).order_by("locked_at")
    outcomes = []
    for event in stuck[:settings.OUTBOX_SWEEP_BATCH]:
        claim = OutboxEvent.objects.filter(pk=event.pk, status=Status.PROCESSING, locked_by=event.locked_by)
        error = f"The claim expired after {settings.OUTBOX_CLAIM_TIMEOUT} s (attempt {event.attempts}): worker lost?"
        if event.attempts >= settings.OUTBOX_MAX_ATTEMPTS:
            if claim.update(status=Status.DEAD, last_error=error, locked_at=None, locked_by="", updated_at=now):
                _count_dead(event, error)
                outcomes.append("dead")
        elif claim.update(status=Status.PENDING, next_attempt_at=now, last_error=error, locked_at=None,
                          locked_by="", updated_at=now):
            metrics.OUTBOX_RECLAIMED.labels(event.topic).inc()
            outcomes.append("reclaimed")
    return outcomes


def _requeue_stale_dispatched(now: datetime, *, older_than: float) -> int:
    """Put back events handed off ``older_than`` seconds ago and never taken (the message was lost)."""
    cutoff = now - timedelta(seconds=older_than)
    return OutboxEvent.objects.filter(status=Status.DISPATCHED, next_attempt_at__lt=cutoff).update(
        status=Status.PENDING, next_attempt_at=now, updated_at=now)


def outbox_resend_after_broker_loss() -> int:
    """Hand every event that is waiting for a worker to Celery again; return how many were sent.

    Called when a worker connects to the broker (smartmate.platform.broker): Redis may have come back
    empty, and the sweep would only notice the lost messages OUTBOX_DISPATCH_TIMEOUT later, which
    delayed everything downstream (memory extraction, reminders) by minutes after each restart. A
    message that did survive is harmless twice: consuming is claimed and receipted.
    """
    now = timezone.now()
    _requeue_stale_dispatched(now, older_than=0)
    due = OutboxEvent.objects.filter(status=Status.PENDING, next_attempt_at__lte=now).order_by("next_attempt_at")
    return outbox_dispatch(event_ids=due.values_list("pk", flat=True)[:settings.OUTBOX_SWEEP_BATCH])


def _clean_up(now: datetime) -> dict[str, int]:
    kept_since = now - timedelta(days=settings.OUTBOX_RETENTION_DAYS)
    consumed = OutboxEvent.objects.filter(status=Status.CONSUMED, consumed_at__lt=kept_since)
    receipts = ConsumerReceipt.objects.filter(created_at__lt=kept_since)
    expired = IdempotencyRecord.objects.filter(expires_at__lt=now)
    return {"events_deleted": _delete_batch(consumed), "receipts_deleted": _delete_batch(receipts),
            "idempotency_deleted": _delete_batch(expired)}


def _delete_batch(queryset: QuerySet[Any]) -> int:
    pks = list(queryset.values_list("pk", flat=True)[:CLEANUP_BATCH])
    return queryset.model.objects.filter(pk__in=pks).delete()[0] if pks else 0


def outbox_event_redrive(*, event_ids: Iterable[int]) -> int:
    """Send dead events round again from attempt zero; return how many were re-driven.

    Events that are not dead are left alone. A re-driven event of an ordered topic goes ahead of
    its aggregate's later events that are still unfinished; later events that already ran stay run.
    """
    now = timezone.now()
    with transaction.atomic():
        dead = OutboxEvent.objects.select_for_update().filter(pk__in=list(event_ids), status=Status.DEAD)
        pks = list(dead.values_list("pk", flat=True))
        OutboxEvent.objects.filter(pk__in=pks).update(status=Status.PENDING, attempts=0, next_attempt_at=now,
                                                      updated_at=now)
        transaction.on_commit(partial(outbox_dispatch, event_ids=pks), robust=True)
    logger.info("outbox: re-drove %s dead events", len(pks))
    return len(pks)
