"""A student's reminder settings and the reminders produced for them (registered by taskclasses/models.py)."""

from __future__ import annotations

from datetime import time

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# Lead times are minutes before a block or course starts: at least 1, at most 12 hours.
MIN_LEAD_MINUTES = 1
MAX_LEAD_MINUTES = 720
DEFAULT_BLOCK_LEAD = 10
DEFAULT_COURSE_LEAD = 15
DEFAULT_DEADLINE_TIME = time(9, 0)


class ReminderSettings(models.Model):
    """When to remind a student: before study blocks, on a deadline's day, before courses; and when not to."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reminder_settings")
    blocks_enabled = models.BooleanField(_("remind before study blocks"), default=True)
    block_lead_minutes = models.PositiveSmallIntegerField(_("minutes before a study block"), default=DEFAULT_BLOCK_LEAD)
    deadlines_enabled = models.BooleanField(_("remind on a deadline's day"), default=True)
    deadline_time = models.TimeField(_("time of the deadline reminder"), default=DEFAULT_DEADLINE_TIME)
    courses_enabled = models.BooleanField(_("remind before courses"), default=False)
    course_lead_minutes = models.PositiveSmallIntegerField(_("minutes before a course"),
                                                           default=DEFAULT_COURSE_LEAD)
    # Quiet hours in the student's own time; a range such as 23:00-07:00 crosses midnight.
    quiet_start = models.TimeField(_("quiet hours from"), null=True, blank=True)
    quiet_end = models.TimeField(_("quiet hours until"), null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "taskclasses"
        verbose_name = _("reminder settings")
        verbose_name_plural = _("reminder settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(block_lead_minutes__gte=MIN_LEAD_MINUTES) & Q(block_lead_minutes__lte=MAX_LEAD_MINUTES)
                & Q(course_lead_minutes__gte=MIN_LEAD_MINUTES) & Q(course_lead_minutes__lte=MAX_LEAD_MINUTES),
                name="remindersettings_leads_in_range"),
            # Both ends of the quiet hours or neither; equal ends would be an empty (or whole-day) range.
            models.CheckConstraint(
                condition=(Q(quiet_start__isnull=True) & Q(quiet_end__isnull=True))
                | (Q(quiet_start__isnull=False) & Q(quiet_end__isnull=False) & ~Q(quiet_start=models.F("quiet_end"))),
                name="remindersettings_quiet_hours_whole"),
        ]

    def __str__(self) -> str:
        return f"reminder settings of {self.user_id}"


class Reminder(models.Model):
    """One thing to tell a student, produced once per subject (``key``) and delivered once."""

    class Kind(models.TextChoices):
        BLOCK_STARTING = "block_starting", _("Study block starting")
        COURSE_STARTING = "course_starting", _("Course starting")
        DEADLINE_TODAY = "deadline_today", _("Deadline today")
        NOTE_URGENT = "note_urgent", _("Note became urgent")
        PLAN_ROTTED = "plan_rotted", _("Missed blocks waiting")
        TOMORROW = "tomorrow", _("Tomorrow")
        MEMORY_OUTDATED = "memory_outdated", _("Memories out of date")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reminders")
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    # What the reminder is about, e.g. "event:42:2026-12-02T08:00:00+00:00": the same subject never twice.
    key = models.CharField(_("subject"), max_length=120)
    # Facts the text is written from when shown (in the reader's language): title, starts_at, count...
    params = models.JSONField(_("facts"), default=dict, blank=True)
    link = models.CharField(_("link"), max_length=200, blank=True)
    # Produced during quiet hours: listed under the bell, never announced.
    silent = models.BooleanField(_("silent"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    delivered_at = models.DateTimeField(_("delivered at"), null=True, blank=True)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)

    class Meta:
        app_label = "taskclasses"
        verbose_name = _("reminder")
        verbose_name_plural = _("reminders")
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["user", "kind", "key"], name="reminder_once_per_subject")]
        indexes = [models.Index(fields=["user", "read_at"], name="reminder_user_unread")]

    def __str__(self) -> str:
        return f"{self.kind} {self.key}"
