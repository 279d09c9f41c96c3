"""Calendar export: the .ics file and the secret subscription feed phone calendars poll."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from schedule.core.ics_export import Alarm, ExportEvent, build_ics, make_uid
from schedule.exams.export import exam_export_events
from schedule.models import CalendarFeed, ScheduleEvent, new_feed_token
from smartmate.platform.exceptions import NotFoundError


class FeedReminders(Protocol):
    """The alarms a feed carries, from the student's reminder settings (the task classes' reminders fill
    this port in when ready, ``taskclasses/apps.py``: they sit above the schedule, README "Layout")."""

    def alarms_for(self, *, user: User, events: Sequence[ScheduleEvent]) -> dict[int, tuple[Alarm, ...]]: ...

    def extra_events(self, *, user: User, now: datetime) -> list[ExportEvent]: ...


_reminders: FeedReminders | None = None


def feed_reminders_set(provider: FeedReminders | None) -> None:
    global _reminders
    _reminders = provider


def schedule_ics_build(*, user: User, now: datetime | None = None) -> bytes:
    """Return every event of the student as an iCalendar file in their time zone, with its alarms."""
    now = now or timezone.now()
    events = list(ScheduleEvent.objects.filter(user=user).select_related("course").order_by("starts_at"))
    alarms = _reminders.alarms_for(user=user, events=events) if _reminders else {}
    extra = _reminders.extra_events(user=user, now=now) if _reminders else []
    return build_ics(
        [*(_export_event(event, alarms.get(event.pk, ())) for event in events), *extra,
         *exam_export_events(user=user)],
        generated_at=now,
        tz=user.time_zone,
        calendar_name=f"时伴 SmartMate · {user.username}",
    )


def _export_event(event: ScheduleEvent, alarms: tuple[Alarm, ...] = ()) -> ExportEvent:
    lines = []
    if event.course is not None and event.course.teacher:
        # The importer reads the teacher back from this line, so a re-import recognises the course.
        lines.append(f"老师: {event.course.teacher}")
    if event.note:
        lines.append(event.note)
    return ExportEvent(uid=make_uid("event", event.pk), title=event.title, start=event.starts_at,
                       end=event.ends_at, location=event.location, description="\n".join(lines), alarms=alarms)


def calendar_feed_ensure(*, user: User) -> CalendarFeed:
    """Return the student's subscription feed, creating it on first use."""
    feed, _created = CalendarFeed.objects.get_or_create(user=user)
    return feed


@transaction.atomic
def calendar_feed_regenerate(*, user: User) -> CalendarFeed:
    """Give the feed a new secret address; the old address stops working at once."""
    feed = calendar_feed_ensure(user=user)
    feed.token = new_feed_token()
    feed.last_fetched_at = None
    feed.save(update_fields=["token", "last_fetched_at"])
    return feed


def calendar_feed_revoke(*, user: User) -> None:
    """Turn the subscription off; a later request creates a new address."""
    CalendarFeed.objects.filter(user=user).delete()


def calendar_feed_read(*, token: str, now: datetime | None = None) -> bytes:
    """Return the .ics behind a secret token; an unknown or revoked token is not found."""
    feed = CalendarFeed.objects.filter(token=token).select_related("user").first()
    if feed is None:
        raise NotFoundError("Not found.", code="feed_not_found")
    CalendarFeed.objects.filter(pk=feed.pk).update(last_fetched_at=now or timezone.now())
    return schedule_ics_build(user=feed.user, now=now)
