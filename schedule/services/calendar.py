"""Writes of the student's calendar: default settings on first use, and changes to the semester or
section times (which retime every event on the board)."""

from __future__ import annotations

from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.models import CalendarSettings
from schedule.selectors import schedule_extent_get
from schedule.services.academic_calendar import academic_calendar_sync
from schedule.services.events import events_retime


def calendar_settings_ensure(*, user: User, today: date | None = None) -> CalendarSettings:
    """Return the student's calendar settings, creating defaults (a guessed semester) if missing."""
    return CalendarSettings.objects.for_user(user, today=today)


@transaction.atomic
def calendar_settings_update(
    *,
    user: User,
    semester_start: date | None = None,
    semester_weeks: int | None = None,
    section_times: list[list[str]] | None = None,
    later_sections: tuple[list[list[str]], date | None] | None = None,
) -> CalendarSettings:
    """Change the semester and section template; validates everything before saving, then retimes the events.

    ``later_sections`` is the school's second grid and the date it starts (``([], None)`` drops it).
    """
    calendar = calendar_settings_ensure(user=user)
    calendar = CalendarSettings.objects.select_for_update().get(pk=calendar.pk)
    if semester_start is not None:
        calendar.semester_start = semester_start
        calendar.semester_confirmed_at = calendar.semester_confirmed_at or timezone.now()
    if semester_weeks is not None:
        calendar.semester_weeks = semester_weeks
    if section_times is not None:
        calendar.section_times = [[start.strip(), end.strip()] for start, end in section_times]
    if later_sections is not None:
        calendar.later_section_times = [[start.strip(), end.strip()] for start, end in later_sections[0]]
        calendar.later_sections_from = later_sections[1]
    calendar.full_clean(exclude=["user"])
    _ensure_schedule_still_fits(user=user, calendar=calendar)
    calendar.save()
    events_retime(user=user)
    # Holidays are dates: a moved semester moves them to other (week, weekday)s.
    academic_calendar_sync(user=user)
    return calendar


def _ensure_schedule_still_fits(*, user: User, calendar: CalendarSettings) -> None:
    """Refuse to drop weeks or sections that events on the board still use."""
    last_week, last_section = schedule_extent_get(user=user)
    errors = {}
    if last_week > calendar.semester_weeks:
        errors["semester_weeks"] = _("Your schedule uses week %(week)s; keep at least that many weeks.") % {
            "week": last_week}
    if last_section > len(calendar.section_times):
        errors["section_times"] = _("Your schedule uses section %(section)s; keep at least that many sections.") % {
            "section": last_section}
    if errors:
        raise ValidationError(errors)
