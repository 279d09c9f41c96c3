"""What is on now and what comes next today, in the student's time zone (the dashboard's "现在 / 接下来")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from accounts.models import User
from schedule.calendar_labels import DayNote
from schedule.models import ScheduleEvent
from schedule.selectors import day_notes_get, time_frame_get, today_events_list


@dataclass(frozen=True)
class NowNext:
    """The event under way (a course, a study block, a custom event) and the next one to start today."""

    current: ScheduleEvent | None
    next: ScheduleEvent | None
    # What the school calendar says about today ("国庆节 · 停课", "调休：按第 5 周周五上课"). The
    # events already follow it: a holiday has no course meetings, a make-up day its target's.
    notes: tuple[DayNote, ...] = ()


def now_next_get(*, user: User, now: datetime | None = None) -> NowNext:
    """Return today's current and next events at ``now`` (default: the current time); "today" is the
    student's local day, so a course at 08:00 in Shanghai is next until 08:00 there."""
    moment = now or timezone.now()
    current: ScheduleEvent | None = None
    upcoming: ScheduleEvent | None = None
    for event in today_events_list(user=user, now=moment):
        if event.starts_at <= moment < event.ends_at:
            current = current or event
        elif event.starts_at > moment and upcoming is None:
            upcoming = event
    semester, _template = time_frame_get(user=user)
    return NowNext(current=current, next=upcoming, notes=day_notes_get(user=user, on=semester.local_date(moment)))
