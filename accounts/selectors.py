"""Reads about a student: calendar settings and where today falls in the semester."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.utils import timezone

from accounts.models import CalendarSettings, User


@dataclass(frozen=True)
class SemesterWeek:
    """Where a date falls in the semester; ``week`` is None outside it."""

    today: date
    week: int | None
    day_of_week: int
    weeks: int
    before_start: bool
    after_end: bool


def calendar_settings_get(*, user: User) -> CalendarSettings:
    """Return the student's calendar settings, creating the defaults on first use."""
    from accounts.services import calendar_settings_ensure

    return calendar_settings_ensure(user=user)


def semester_week_get(*, user: User, now: datetime | None = None) -> SemesterWeek:
    """Return the semester week of ``now`` (default: the current time) in the student's zone."""
    calendar = calendar_settings_get(user=user)
    semester = calendar.semester(user.time_zone)
    moment = now or timezone.now()
    today = semester.local_date(moment)
    return SemesterWeek(
        today=today,
        week=semester.current_week(moment),
        day_of_week=today.isoweekday(),
        weeks=calendar.semester_weeks,
        before_start=today < calendar.semester_start,
        after_end=today > semester.last_day,
    )
