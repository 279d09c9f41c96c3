"""What the schedule does when other apps announce something."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from accounts.signals import PASSWORD_CHANGED
from schedule.models import CalendarFeed
from schedule.services.calendar import calendar_settings_ensure
from schedule.services.feeds import calendar_feed_regenerate


def calendar_create_on_registration(sender: Any, *, user: Any, **kwargs: Any) -> None:
    """A new student starts with default calendar settings (a guessed semester, the 12-section day)."""
    calendar_settings_ensure(user=user)


def feed_rotate_on_password_change(sender: Any, *, user: Any, reason: str, **kwargs: Any) -> str | None:
    """A new password gives the calendar feed a new secret address (whoever had the old one loses it).

    Returns what the student should be told, or None when they had no feed.
    """
    if reason != PASSWORD_CHANGED or not CalendarFeed.objects.filter(user=user).exists():
        return None
    calendar_feed_regenerate(user=user)
    return _("Your calendar subscription link has changed and the old one no longer works. "
             "Copy the new link from the import page into your calendar app.")


def filler_mark_on_course_created(sender: Any, *, instance: Any, created: bool, raw: bool = False,
                                  **kwargs: Any) -> None:
    """A course the new timetable brings is filler when a course of its name was, if the student chose so.

    Raw saves (fixtures, undoing a semester start) put rows back as they were and are left alone.
    """
    if created and not raw:
        from schedule.semesters.filler import semester_filler_marks_apply

        semester_filler_marks_apply(course=instance)
