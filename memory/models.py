"""Long-term memory: versioned facts about a student, the jobs that extract them, and their audit trail.

A memory is never silently destroyed. An update closes the old row (``valid_to``, ``superseded_by``,
status ``archived``) and adds a new one; an invalidation closes it without a successor; a student's
delete is a soft ``deleted`` that can be restored. Only a forget removes rows for good: "forget"
removes one memory with all its versions (the student wants it gone, unlike an invalidation, which
says it stopped being true), "forget everything" removes them all.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

MAX_CONTENT_LENGTH = 300


class MemoryItem(models.Model):
    """One thing the assistant remembers about a student, valid from ``valid_from`` until ``valid_to``."""

    class Type(models.TextChoices):
        PREFERENCE = "preference", _("Preference")
        CONSTRAINT = "constraint", _("Constraint")
        FACT = "fact", _("Fact")
        GOAL = "goal", _("Goal")

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        ARCHIVED = "archived", _("History")
        DELETED = "deleted", _("Deleted")

    class Origin(models.TextChoices):
        EXTRACTED = "extracted", _("Learned from a conversation")
        USER = "user", _("Edited by you")
        ADDED = "added", _("Added by you")

    class VectorState(models.TextChoices):
        PENDING = "pending", _("Pending")
        SYNCED = "synced", _("Synced")
        FAILED = "failed", _("Failed")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memories")
    memory_type = models.CharField(_("type"), max_length=16, choices=Type.choices)
    content = models.CharField(_("content"), max_length=MAX_CONTENT_LENGTH)
    content_hash = models.CharField(max_length=64, db_index=True)
    importance = models.FloatField(_("importance"), default=0.5)
    confidence = models.FloatField(_("confidence"), default=0.8)
    origin = models.CharField(max_length=16, choices=Origin.choices, default=Origin.EXTRACTED)
    source_message = models.ForeignKey("agent.Message", on_delete=models.SET_NULL, null=True, blank=True,
                                       related_name="+")
    valid_from = models.DateTimeField(_("valid from"), default=timezone.now)
    valid_to = models.DateTimeField(_("valid to"), null=True, blank=True)
    superseded_by = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                                      related_name="supersedes")
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.ACTIVE)
    # The vector store follows the row: active rows have a vector, others none. A failed sync (or
    # one that never ran) is retried by the maintenance task, so a store outage loses no vector.
    vector_state = models.CharField(max_length=16, choices=VectorState.choices, default=VectorState.PENDING)
    vector_attempts = models.PositiveIntegerField(default=0)
    vector_error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("memory")
        verbose_name_plural = _("memories")
        ordering = ["-updated_at", "-id"]
        # Reading what a student told the assistant is its own permission: an operator who manages
        # accounts, jobs or quotas sees that memories exist, not what they say.
        permissions = [("view_memory_text", _("Can read what memories say"))]
        indexes = [
            models.Index(fields=["user", "status", "memory_type"], name="memory_user_status_type"),
            # The read path's structured rows: walked in order, so LIMIT stops early at 10,000 rows.
            models.Index(fields=["user", "status", "-importance", "-updated_at"], name="memory_recall_order"),
            models.Index(fields=["vector_state", "updated_at"], name="memory_vector_state"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(importance__gte=0) & Q(importance__lte=1),
                                   name="memory_importance_0_1"),
            models.CheckConstraint(condition=Q(confidence__gte=0) & Q(confidence__lte=1),
                                   name="memory_confidence_0_1"),
            models.CheckConstraint(condition=Q(valid_to__isnull=True) | Q(valid_to__gte=F("valid_from")),
                                   name="memory_valid_to_after_from"),
            # Active means currently valid; history always says when it stopped being true.
            models.CheckConstraint(condition=~Q(status="active") | Q(valid_to__isnull=True),
                                   name="memory_active_is_open"),
            models.CheckConstraint(condition=~Q(status="archived") | Q(valid_to__isnull=False),
                                   name="memory_archived_is_closed"),
            # "Not superseded by itself" is kept by the services, not a CHECK: MariaDB refuses a CHECK
            # on an AUTO_INCREMENT column (error 1901).
        ]

    def __str__(self) -> str:
        # No content: this name shows in admin headers, lists of related rows and the admin's log.
        return f"memory {self.pk} ({self.memory_type}, {self.status})"

    @property
    def is_superseded(self) -> bool:
        return self.superseded_by_id is not None


class MemoryJob(models.Model):
    """One extraction of a finished turn: claimed with a lease, retried with backoff, reclaimed when stuck."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        SUCCEEDED = "succeeded", _("Succeeded")
        FAILED = "failed", _("Failed (will retry)")
        DEAD = "dead", _("Dead")
        SKIPPED = "skipped", _("Skipped")

    UNFINISHED = (Status.PENDING, Status.RUNNING, Status.FAILED)

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory_jobs")
    event_uuid = models.UUIDField(unique=True, null=True, blank=True)
    conversation_id = models.BigIntegerField(null=True, blank=True)
    user_message = models.ForeignKey("agent.Message", on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="+")
    assistant_message = models.ForeignKey("agent.Message", on_delete=models.SET_NULL, null=True, blank=True,
                                          related_name="+")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    locked_at = models.DateTimeField(null=True, blank=True)
    locked_by = models.CharField(max_length=32, blank=True)
    last_error = models.CharField(max_length=2000, blank=True)
    result = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("memory job")
        verbose_name_plural = _("memory jobs")
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="memory_job_due")]

    def __str__(self) -> str:
        return f"memory job {self.pk} ({self.status})"


class MemoryAudit(models.Model):
    """Who changed which memory how and why; ``before`` / ``after`` hold the row's visible fields."""

    class Operation(models.TextChoices):
        CREATE = "create", _("Created")
        UPDATE = "update", _("Updated")
        INVALIDATE = "invalidate", _("Invalidated")
        DELETE = "delete", _("Deleted")
        RESTORE = "restore", _("Restored")
        FORGET = "forget", _("Forgotten")
        FORGET_ALL = "forget_all", _("Forgot everything")
        SETTINGS = "settings", _("Settings changed")

    class Operator(models.TextChoices):
        SYSTEM = "system", _("System")
        USER = "user", _("Student")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory_audits")
    memory = models.ForeignKey(MemoryItem, on_delete=models.SET_NULL, null=True, blank=True, related_name="audits")
    job = models.ForeignKey(MemoryJob, on_delete=models.SET_NULL, null=True, blank=True, related_name="audits")
    operation = models.CharField(max_length=16, choices=Operation.choices)
    operator = models.CharField(max_length=16, choices=Operator.choices)
    reason = models.CharField(max_length=200, blank=True)
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("memory audit entry")
        verbose_name_plural = _("memory audit entries")
        ordering = ["-id"]


class MemorySettings(models.Model):
    """A student's memory switches, and the vector deletions still owed after a forget."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory_settings")
    enabled = models.BooleanField(_("memory enabled"), default=True)
    # Off: the write gate refuses sensitive facts about the student (health, beliefs …). Secrets,
    # instructions and other people's sensitive facts are refused either way (memory.core.gate).
    sensitive_memory_enabled = models.BooleanField(_("remember sensitive information"), default=False)
    vector_purge_pending = models.BooleanField(default=False)
    # Ids of forgotten memories whose vectors the store refused to delete: the rows are gone, so
    # only this list lets maintenance finish the job.
    vector_forget_pending = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("memory settings")
        verbose_name_plural = _("memory settings")

    def __str__(self) -> str:
        return f"memory settings of {self.user_id}"


class MemoryRefusal(models.Model):
    """A memory write the gate refused: who, which rule, what kind of fact, when, and from where.

    Deliberately without the refused text (or any part of it): keeping it would store exactly what
    the gate exists to keep out.
    """

    class Source(models.TextChoices):
        EXTRACTION = "extraction", _("Learned from a conversation")
        ADDED = "added", _("Added by hand")
        EDITED = "edited", _("Edited by hand")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory_refusals")
    category = models.CharField(_("category"), max_length=32)
    rule = models.CharField(_("rule"), max_length=48)
    source = models.CharField(_("source"), max_length=16, choices=Source.choices)
    job = models.ForeignKey(MemoryJob, on_delete=models.SET_NULL, null=True, blank=True, related_name="refusals")
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("memory refusal")
        verbose_name_plural = _("memory refusals")
        ordering = ["-id"]
        indexes = [models.Index(fields=["rule", "created_at"], name="memory_refusal_rule")]

    def __str__(self) -> str:
        return f"refused {self.rule} ({self.category}) for {self.user_id}"
