"""The calendar feed's alarms (``schedule.services.feeds.FeedReminders``, registered by taskclasses/apps.py).

Study blocks ring ``block_lead_minutes`` before they start, courses ``course_lead_minutes`` before (only
when the student turned course reminders on), and each open note with a deadline becomes a short
"due" event ringing at ``deadline_time`` on the deadline's day (from midnight, if the deadline is earlier).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, time, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.ics_export import Alarm, ExportEvent, make_uid
from schedule.models import ScheduleEvent
from taskclasses.models import Task
from taskclasses.reminders.rules import deadline_reminder_time
from taskclasses.reminders.services import STUDY_KINDS, reminder_settings_get

DEADLINE_SPAN = timedelta(minutes=15)  # how long a deadline's event lasts in a phone's calendar
# Deadlines older than this are left out of the feed (a phone need not ring for last month's homework).
DEADLINE_LOOKBACK = timedelta(days=7)


class ReminderFeedAlarms:
    def alarms_for(self, *, user: User, events: Sequence[ScheduleEvent]) -> dict[int, tuple[Alarm, ...]]:
        prefs = reminder_settings_get(user=user)
        alarms: dict[int, tuple[Alarm, ...]] = {}
        for event in events:
            if event.kind in STUDY_KINDS and prefs.blocks_enabled:
                alarms[event.pk] = (Alarm(event.title, before=timedelta(minutes=prefs.block_lead_minutes)),)
            elif event.kind == ScheduleEvent.Kind.COURSE and prefs.courses_enabled:
                alarms[event.pk] = (Alarm(event.title, before=timedelta(minutes=prefs.course_lead_minutes)),)
        return alarms

    def extra_events(self, *, user: User, now: datetime) -> list[ExportEvent]:
        prefs = reminder_settings_get(user=user)
        tasks = Task.objects.filter(user=user, completed=False, deadline__gte=now - DEADLINE_LOOKBACK).order_by("pk")
        events = []
        for task in tasks:
            assert task.deadline is not None  # filtered
            title = _("Due: %(title)s") % {"title": task.title}
            alarms = (Alarm(title, at=_morning_of(task.deadline, prefs.deadline_time, user)),) \
                if prefs.deadlines_enabled else ()
            events.append(ExportEvent(uid=make_uid("task", task.pk, "deadline"), title=title, start=task.deadline,
                                      end=task.deadline + DEADLINE_SPAN, alarms=alarms))
        return events


def _morning_of(deadline: datetime, remind_at: time, user: User) -> datetime:
    local = timezone.localtime(deadline, user.zone)
    at = deadline_reminder_time(local, remind_at)
    return local.replace(hour=at.hour, minute=at.minute, second=0, microsecond=0)
