"""Reads about a student: calendar settings, where today falls in the semester, the token quota."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.utils import timezone

from accounts.models import CalendarSettings, User
from accounts.services import TOKEN_WINDOW


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


@dataclass(frozen=True)
class TokenQuota:
    """The assistant's weekly token quota as the student sees it; ``resets_at`` is None before the first use."""

    used: int
    limit: int
    resets_at: datetime | None

    @property
    def left(self) -> int:
        return max(0, self.limit - self.used)

    @property
    def percent_used(self) -> int:
        return 100 if self.limit <= 0 else min(100, round(100 * self.used / self.limit))


def token_quota_get(*, user: User, now: datetime | None = None) -> TokenQuota:
    """Return the quota of the current window; a window past its end counts as a fresh one (it resets on use)."""
    moment = now or timezone.now()
    started = user.token_window_started_at
    if started is None or started <= moment - TOKEN_WINDOW:
        return TokenQuota(used=0, limit=user.token_limit, resets_at=None)
    return TokenQuota(used=user.token_usage, limit=user.token_limit, resets_at=started + TOKEN_WINDOW)
