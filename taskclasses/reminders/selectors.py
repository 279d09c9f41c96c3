"""Reminder reads, always for one student."""

from __future__ import annotations

from django.db.models import QuerySet

from accounts.models import User
from taskclasses.reminders.models import Reminder

LIST_LIMIT = 30


def reminder_list(*, user: User, limit: int = LIST_LIMIT) -> list[Reminder]:
    """The student's latest reminders, newest first."""
    return list(Reminder.objects.filter(user=user).order_by("-created_at", "-pk")[:limit])


def reminder_unread_count(*, user: User) -> int:
    return _unread(user).count()


def reminder_get(*, user: User, reminder_id: int) -> Reminder | None:
    return Reminder.objects.filter(user=user, pk=reminder_id).first()


def _unread(user: User) -> QuerySet[Reminder]:
    return Reminder.objects.filter(user=user, read_at__isnull=True)
