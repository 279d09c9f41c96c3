"""Accounts: the student, their token quota, and their semester calendar."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from schedule.core.time_model import SectionTemplate, Semester
from smartmate.platform.dates import EARLIEST_YEAR, LATEST_YEAR

MAX_SECTIONS = 16
MAX_SEMESTER_WEEKS = 30

# The 12-section CQUPT day, the default template (original spec §1).
DEFAULT_SECTION_TIMES: list[list[str]] = [
    ["08:00", "08:45"], ["08:55", "09:40"], ["10:15", "11:00"], ["11:10", "11:55"],
    ["14:00", "14:45"], ["14:55", "15:40"], ["16:15", "17:00"], ["17:10", "17:55"],
    ["19:00", "19:45"], ["19:55", "20:40"], ["20:50", "21:35"], ["21:45", "22:30"],
]


def default_section_times() -> list[list[str]]:
    return [list(pair) for pair in DEFAULT_SECTION_TIMES]


def default_token_limit() -> int:
    return settings.TOKEN_LIMIT_DEFAULT


def validate_time_zone(value: str) -> None:
    """Accept only IANA zone names this machine knows (e.g. Asia/Shanghai)."""
    if value not in available_timezones():
        raise ValidationError(_("%(zone)s is not a known time zone."), params={"zone": value}, code="time_zone")
    try:
        ZoneInfo(value)
    except ZoneInfoNotFoundError:
        raise ValidationError(_("%(zone)s is not a known time zone."), params={"zone": value}, code="time_zone")


def parse_clock(value: str) -> time:
    """Parse ``HH:MM`` into a time, raising ValidationError with the offending text."""
    try:
        return datetime.strptime(value.strip(), "%H:%M").time()
    except (ValueError, AttributeError):
        raise ValidationError(_("%(value)s is not a time like 08:00."), params={"value": value}, code="clock")


def validate_section_times(value: object) -> None:
    """Require 1-16 sections, each ``[start, end]`` with start < end, in order, not overlapping."""
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_SECTIONS:
        raise ValidationError(
            _("A day has between 1 and %(max)s sections."), params={"max": MAX_SECTIONS}, code="section_count"
        )
    previous_end: time | None = None
    for number, pair in enumerate(value, start=1):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ValidationError(_("Section %(n)s needs a start and an end."), params={"n": number}, code="section")
        start, end = parse_clock(pair[0]), parse_clock(pair[1])
        if start >= end:
            raise ValidationError(
                _("Section %(n)s ends before it starts."), params={"n": number}, code="section_order"
            )
        if previous_end is not None and start < previous_end:
            raise ValidationError(
                _("Section %(n)s starts before section %(prev)s ends."),
                params={"n": number, "prev": number - 1},
                code="section_overlap",
            )
        previous_end = end


class User(AbstractUser):
    """A student. The token quota resets lazily, a week after its window opened."""

    time_zone = models.CharField(
        _("time zone"), max_length=64, default="Asia/Shanghai", validators=[validate_time_zone]
    )
    token_limit = models.PositiveIntegerField(_("weekly token limit"), default=default_token_limit)
    token_usage = models.PositiveIntegerField(_("tokens used this window"), default=0)
    token_window_started_at = models.DateTimeField(_("token window started at"), null=True, blank=True)

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)


class CalendarSettings(models.Model):
    """One student's semester (Monday of week 1, number of weeks) and section-time template."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="calendar"
    )
    semester_start = models.DateField(_("Monday of week 1"))
    semester_weeks = models.PositiveSmallIntegerField(_("number of weeks"), default=20)
    section_times = models.JSONField(
        _("section times"), default=default_section_times, validators=[validate_section_times]
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("calendar settings")
        verbose_name_plural = _("calendar settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(semester_weeks__gte=1) & Q(semester_weeks__lte=MAX_SEMESTER_WEEKS),
                name="calendar_weeks_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.semester_start} · {self.semester_weeks}w"

    def clean(self) -> None:
        # A year far away overflows the date arithmetic of the weeks (a 500 on the settings page).
        if self.semester_start and not EARLIEST_YEAR <= self.semester_start.year <= LATEST_YEAR:
            raise ValidationError({"semester_start": _("Use a date from {earliest} to {latest}.").format(
                earliest=EARLIEST_YEAR, latest=LATEST_YEAR)}, code="out_of_range")
        if self.semester_start and self.semester_start.weekday() != 0:
            raise ValidationError({"semester_start": _("Week 1 must start on a Monday.")}, code="not_monday")

    def semester(self, time_zone: str) -> Semester:
        """Return the pure-core semester for conversions."""
        return Semester(start_monday=self.semester_start, weeks=self.semester_weeks, tz=time_zone)

    def template(self) -> SectionTemplate:
        """Return the pure-core section template."""
        return SectionTemplate.from_hhmm(tuple(pair) for pair in self.section_times)

    @property
    def section_count(self) -> int:
        return len(self.section_times)

    @property
    def semester_end(self) -> date:
        return self.semester_start + timedelta(weeks=self.semester_weeks, days=-1)
