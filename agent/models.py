"""Conversations with the assistant: messages, the numbered event timeline, checkpoints and tickets."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Conversation(models.Model):
    """One chat thread of a student; at most one turn runs in it at a time (``running_turn_id``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations")
    title = models.CharField(_("title"), max_length=100, blank=True)
    archived = models.BooleanField(_("archived"), default=False)
    # The running turn's lock: taken with a conditional UPDATE (NULL -> id), released the same way.
    running_turn_id = models.UUIDField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    cancel_requested = models.BooleanField(default=False)
    # The turn is a lease, not a lock (agent.services.leases): the row, not the Celery message, is the
    # truth. ``turn_sent_at``: when the turn was last handed to a worker; ``lease_expires_at``: NULL
    # until a worker starts it, then renewed by that worker's heartbeat (``lease_owner`` names the
    # attempt); ``turn_attempts``: hand-offs so far; ``turn_language``: what a re-sent turn runs in.
    turn_sent_at = models.DateTimeField(null=True, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    lease_owner = models.CharField(max_length=32, blank=True, default="")
    turn_attempts = models.PositiveSmallIntegerField(default=0)
    turn_language = models.CharField(max_length=16, blank=True, default="")
    # Quota the running turn's model calls have reserved and not yet settled (accounts.quota). A worker
    # killed mid-call leaves it here; the next attempt (or the sweeper ending the turn) gives it back,
    # so the call that is made again is not paid for twice.
    turn_reserved_tokens = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("conversation")
        verbose_name_plural = _("conversations")
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["user", "archived", "-updated_at"], name="conversation_user_list"),
                   # The turn sweeper looks only at conversations with a running turn.
                   models.Index(fields=["running_turn_id"], name="conversation_running_turn")]

    def __str__(self) -> str:
        return self.title or f"#{self.pk}"

    @property
    def is_running(self) -> bool:
        return self.running_turn_id is not None


class Message(models.Model):
    """A message of the dialogue as the student sees it (and as the model gets it back as history)."""

    class Role(models.TextChoices):
        USER = "user", _("Student")
        ASSISTANT = "assistant", _("Assistant")
        TOOL = "tool", _("Tool")
        SYSTEM = "system", _("System")

    class Outcome(models.TextChoices):
        COMPLETED = "completed", _("Completed")
        FAILED = "failed", _("Failed")
        CANCELLED = "cancelled", _("Stopped")
        INTERRUPTED = "interrupted", _("Waiting for the student")
        # Cut at the model's length limit: the answer is stored as far as it went, and said so.
        TRUNCATED = "truncated", _("Cut off at the length limit")

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="messages")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)
    content = models.TextField(_("content"), blank=True)
    reasoning = models.TextField(_("reasoning"), blank=True)
    turn_id = models.UUIDField(null=True, blank=True)
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    # The page's choices sent with a student's message: task_class_ids, thinking, always_execute.
    options = models.JSONField(default=dict, blank=True)
    # How the turn that wrote an assistant message ended ("" for messages from outside a turn).
    outcome = models.CharField(_("outcome"), max_length=16, blank=True, default="", choices=Outcome.choices)
    # The page's own id of a student's message (chat.send's client_message_id): its idempotency key, so a
    # resend after a dropped socket finds the stored message instead of starting a second turn. NULL when
    # the client gave none: NULLs never collide, as with turn_id above, where "" would (MariaDB has no
    # conditional unique constraint to leave "" out).
    client_message_id = models.CharField(  # noqa: DJ001 - NULL, not "": NULLs never collide
        max_length=64, null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        ordering = ["id"]
        constraints = [
            # A re-run turn (crash recovery) updates its answer instead of adding a second one.
            # (NULL turn ids never collide, so messages from outside a turn are unaffected.)
            models.UniqueConstraint(fields=["turn_id", "role"], name="message_one_per_role_and_turn"),
            models.UniqueConstraint(fields=["conversation", "client_message_id"],
                                    name="message_client_id_once_per_conversation"),
        ]


class TimelineEvent(models.Model):
    """A server event exactly as sent; ``seq`` numbers a conversation's events 1, 2, 3 …"""

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    turn_id = models.UUIDField()
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("timeline event")
        verbose_name_plural = _("timeline events")
        ordering = ["conversation", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["conversation", "seq"], name="timeline_event_seq_unique"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="timeline_event_seq_positive"),
        ]


class Checkpoint(models.Model):
    """The state of a conversation's latest turn, written after every node (see ``agent.runtime``)."""

    conversation = models.OneToOneField(Conversation, on_delete=models.CASCADE, related_name="checkpoint")
    turn_id = models.UUIDField()
    phase = models.CharField(max_length=32)
    state = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("checkpoint")
        verbose_name_plural = _("checkpoints")


class WebsocketTicket(models.Model):
    """A single-use, short-lived pass that lets an API client open ``/ws/agent/`` (only its hash is kept)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    digest = models.CharField(max_length=64, unique=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("websocket ticket")
        verbose_name_plural = _("websocket tickets")
