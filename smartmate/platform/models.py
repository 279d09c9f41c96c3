"""Cross-cutting rows: the transactional outbox, consumer receipts and idempotency records."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class OutboxEvent(models.Model):
    """A fact written in the same transaction as the business change, delivered at least once.

    Life cycle: ``pending`` (waiting for hand-off, due at ``next_attempt_at``) → ``dispatched``
    (a Celery message exists) → ``processing`` (claimed by a worker at ``locked_at``) →
    ``consumed``; or ``dead`` after ``OUTBOX_MAX_ATTEMPTS`` attempts. The sweeper re-dispatches
    what was left behind and reclaims expired claims.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        DISPATCHED = "dispatched", _("dispatched")
        PROCESSING = "processing", _("processing")
        CONSUMED = "consumed", _("consumed")
        DEAD = "dead", _("dead")

    UNFINISHED = (Status.PENDING, Status.DISPATCHED, Status.PROCESSING)

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    topic = models.CharField(_("topic"), max_length=100)
    aggregate = models.CharField(_("aggregate"), max_length=100, help_text=_('For example "conversation:42".'))
    payload = models.JSONField(_("payload"), default=dict)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt at"))
    locked_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    locked_by = models.CharField(_("claim token"), max_length=32, blank=True)
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    dispatched_at = models.DateTimeField(_("dispatched at"), null=True, blank=True)
    consumed_at = models.DateTimeField(_("consumed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("outbox event")
        verbose_name_plural = _("outbox events")
        indexes = [
            # The sweeper: due pending rows, stale dispatched rows, expired claims.
            models.Index(fields=["status", "next_attempt_at"], name="outbox_status_due_idx"),
            models.Index(fields=["status", "locked_at"], name="outbox_status_locked_idx"),
            # Per-aggregate ordering: the earliest unfinished event of one topic and aggregate.
            models.Index(fields=["topic", "aggregate", "status"], name="outbox_topic_aggregate_idx"),
            models.Index(fields=["status", "consumed_at"], name="outbox_status_consumed_idx"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=["pending", "dispatched", "processing", "consumed", "dead"]),
                                   name="outbox_status_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.topic} {self.aggregate} #{self.pk} ({self.status})"


class ConsumerReceipt(models.Model):
    """Proof that one consumer applied one event; written in the consumer's own transaction."""

    consumer = models.CharField(_("consumer"), max_length=100)
    event_uuid = models.UUIDField(_("event"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("consumer receipt")
        verbose_name_plural = _("consumer receipts")
        constraints = [models.UniqueConstraint(fields=["consumer", "event_uuid"], name="receipt_once_per_consumer")]
        indexes = [models.Index(fields=["created_at"], name="receipt_created_idx")]

    def __str__(self) -> str:
        return f"{self.consumer} ← {self.event_uuid}"


class OutboxProbe(models.Model):
    """The effect of the ``outbox.probe`` consumer: one row per application (no uniqueness on purpose).

    Used by the chaos test and ``bench.outbox_bench`` to prove that each event takes effect exactly once.
    """

    event_uuid = models.UUIDField(db_index=True)
    aggregate = models.CharField(max_length=100)
    seq = models.PositiveIntegerField()
    worker_pid = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("outbox probe")
        verbose_name_plural = _("outbox probes")


class IdempotencyRecord(models.Model):
    """The first answer to a write sent with ``X-Idempotency-Key``, replayed for 24 hours."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("in progress")
        DONE = "done", _("done")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(_("key"), max_length=255)
    fingerprint = models.CharField(_("request fingerprint"), max_length=64)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=1000)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    response_body = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    locked_at = models.DateTimeField(_("started at"))
    expires_at = models.DateTimeField(_("expires at"))

    class Meta:
        verbose_name = _("idempotency record")
        verbose_name_plural = _("idempotency records")
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once_per_user")]
        indexes = [models.Index(fields=["expires_at"], name="idempotency_expires_idx")]

    def __str__(self) -> str:
        return f"{self.method} {self.path} [{self.key}]"
