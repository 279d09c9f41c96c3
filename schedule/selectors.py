"""Reads of the schedule: the calendar (time frame, semester week), week boards, today, courses,
and what occupies a slot."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Count, Max, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.calendar_labels import DayNote, day_notes
from schedule.core.academic_calendar import CalendarDay as CoreCalendarDay
from schedule.core.academic_calendar import DayKind, ResolvedCalendar, calendar_resolve
from schedule.core.time_model import SectionTemplate, Semester
from schedule.models import CalendarDay, CalendarSettings, Course, ScheduleEvent, ScheduleSlot
from smartmate.platform.exceptions import NotFoundError


@dataclass(frozen=True)
class SectionRow:
    number: int
    start: str
    end: str


@dataclass(frozen=True)
class WeekBoard:
    """Everything a week view needs, in one read."""

    week: int
    weeks: int
    dates: tuple[date, ...]
    today: date
    sections: tuple[SectionRow, ...]
    events: tuple[ScheduleEvent, ...]
    embedded: dict[int, list[str]]  # event id -> contents of study blocks embedded in it
    # Per day (Monday first): what the school calendar says ("国庆节 · 停课", "调休 · 按周五上课").
    day_notes: tuple[tuple[DayNote, ...], ...] = ()


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
    """Return the student's calendar settings (made with defaults on first use, see the model's manager)."""
    return CalendarSettings.objects.for_user(user)


def time_frame_get(*, user: User) -> tuple[Semester, SectionTemplate]:
    """Return the student's semester and section template as pure-core types."""
    calendar = calendar_settings_get(user=user)
    return calendar.semester(user.time_zone), calendar.template()


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


def week_board_get(*, user: User, week: int | None = None, now: datetime | None = None) -> WeekBoard:
    """Return week ``week`` (default: the current week, clamped into the semester)."""
    calendar = calendar_settings_get(user=user)
    semester, template = calendar.semester(user.time_zone), calendar.template()
    moment = now or timezone.now()
    if week is None:
        week = semester.current_week(moment, clamp=True)
        assert week is not None  # clamped into the semester
    semester.check_week(week)
    events = tuple(
        ScheduleEvent.objects.filter(user=user, week=week).select_related("course").order_by("day", "start_section")
    )
    return WeekBoard(
        week=week,
        weeks=semester.weeks,
        dates=tuple(semester.date_of(week, day) for day in range(1, 8)),
        today=semester.local_date(moment),
        sections=_section_rows(template.in_force(semester.monday_of(week))),
        events=events,
        embedded=_embedded_blocks(user=user, week=week),
        day_notes=_week_notes(school_calendar_get(user=user, calendar=calendar), semester, week),
    )


def _section_rows(grid: SectionTemplate) -> tuple[SectionRow, ...]:
    # A week shows the grid in force on its Monday: schools switch to winter hours at a week's start.
    return tuple(SectionRow(n, start, end) for n, (start, end) in enumerate(grid.to_hhmm(), start=1))


def _week_notes(calendar: ResolvedCalendar, semester: Semester, week: int) -> tuple[tuple[DayNote, ...], ...]:
    return tuple(day_notes(calendar.day(semester.date_of(week, day))) for day in range(1, 8))


def calendar_days_list(*, user: User) -> list[CalendarDay]:
    """The student's holidays, make-up days and exam weeks, in date order."""
    return list(CalendarDay.objects.filter(user=user).order_by("first_date", "kind", "pk"))


def core_calendar_day(row: CalendarDay) -> CoreCalendarDay:
    """A calendar day row as the pure resolver reads it."""
    return CoreCalendarDay(DayKind(row.kind), row.name, row.first_date, row.last_date, row.runs_week, row.runs_day,
                           row.pk)


def school_calendar_get(*, user: User, calendar: CalendarSettings | None = None) -> ResolvedCalendar:
    """The student's school calendar resolved against their semester (nothing applies with the switch off).

    The course meetings on the board already follow it (see schedule/services/academic_calendar.py);
    this is for what the rows cannot say: each date's labels.
    """
    calendar = calendar or calendar_settings_get(user=user)
    rows = calendar_days_list(user=user) if calendar.follows_school_calendar else []
    return calendar_resolve(calendar.semester(user.time_zone), [core_calendar_day(r) for r in rows],
                            follows=calendar.follows_school_calendar)


def day_notes_get(*, user: User, on: date) -> tuple[DayNote, ...]:
    """What the school calendar says about one date (the agenda, now/next, the assistant)."""
    return day_notes(school_calendar_get(user=user).day(on))


def _embedded_blocks(*, user: User, week: int) -> dict[int, list[str]]:
    rows = (ScheduleSlot.objects.filter(user=user, week=week, embedded_item__isnull=False)
            .order_by("section").values_list("event_id", "embedded_item__content"))
    embedded: dict[int, list[str]] = {}
    for event_id, content in rows:
        if content not in embedded.setdefault(event_id, []):
            embedded[event_id].append(content)
    return embedded


def today_events_list(*, user: User, now: datetime | None = None) -> list[ScheduleEvent]:
    """Return today's events in the student's time zone, in order."""
    semester, _template = time_frame_get(user=user)
    return days_events_list(user=user, semester=semester, days=[semester.local_date(now or timezone.now())])[0]


def days_events_list(*, user: User, semester: Semester, days: Sequence[date]) -> list[list[ScheduleEvent]]:
    """Return the events of each of ``days`` (local dates), each day's in order, with one query; a day
    outside the semester has none."""
    slots = [semester.week_day_of(day) if semester.contains(day) else None for day in days]
    by_slot: dict[tuple[int, int], list[ScheduleEvent]] = {slot: [] for slot in slots if slot is not None}
    if by_slot:
        which = Q()
        for week, day in by_slot:
            which |= Q(week=week, day=day)
        for event in ScheduleEvent.objects.filter(which, user=user).select_related("course").order_by("start_section"):
            by_slot[(event.week, event.day)].append(event)
    return [by_slot[slot] if slot is not None else [] for slot in slots]


def event_get(*, user: User, event_id: int) -> ScheduleEvent:
    """Return one of the student's events; another student's id is simply not found."""
    event = ScheduleEvent.objects.filter(user=user, pk=event_id).select_related("course").first()
    if event is None:
        raise NotFoundError(_("Not found."), code="event_not_found")
    return event


def course_get(*, user: User, course_id: int) -> Course:
    course = Course.objects.filter(user=user, pk=course_id).first()
    if course is None:
        raise NotFoundError(_("Not found."), code="course_not_found")
    return course


def course_list(*, user: User) -> QuerySet[Course]:
    """Return the student's courses with how many meetings each has."""
    return Course.objects.filter(user=user).annotate(meetings=Count("events")).order_by("name", "teacher")


def slot_occupants_get(*, user: User, week: int, day: int, sections: range) -> list[ScheduleSlot]:
    """Return the slots already held in a span, with their events."""
    return list(ScheduleSlot.objects.filter(user=user, week=week, day=day, section__in=list(sections))
                .select_related("event").order_by("section"))


def schedule_extent_get(*, user: User) -> tuple[int, int]:
    """Return the highest week and section any event uses (0, 0 when empty)."""
    extent = ScheduleEvent.objects.filter(user=user).aggregate(week=Max("week"), section=Max("end_section"))
    return extent["week"] or 0, extent["section"] or 0
