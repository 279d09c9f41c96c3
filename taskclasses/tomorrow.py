"""Tomorrow, the evening before: what tomorrow holds, with the school calendar applied.

``tomorrow_preview(user=..., today=...)`` is the one reader: the dashboard shows it after the time
the student chose (``CalendarSettings.preview_after``, 20:00 by default; ``tomorrow_preview_due``),
and the reminders can send it as an in-app notice (``tomorrow_notice_text`` is its one line).
The course meetings on the board already follow the school calendar (a holiday's are suspended,
a make-up day has the other day's), so tomorrow's rows are read as they are; the calendar adds the
headline: "明天按第 3 周周五上课", "明天放假（国庆节）".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.academic_calendar import DayKind, ResolvedDay
from schedule.exams.models import Exam
from schedule.exams.selectors import exams_between
from schedule.messages import day_label
from schedule.models import ScheduleEvent, ScheduleSlot
from schedule.selectors import calendar_settings_get, school_calendar_get
from taskclasses.models import Task


@dataclass(frozen=True)
class TomorrowPreview:
    """Tomorrow's date and what it holds; ``headline`` says what the school calendar changes, if anything."""

    on: date
    week: int | None
    day: int
    headline: str = ""
    holiday: bool = False
    courses: list[ScheduleEvent] = field(default_factory=list)
    blocks: list[ScheduleEvent] = field(default_factory=list)       # study blocks and quick notes placed
    embedded: list[tuple[ScheduleEvent, str]] = field(default_factory=list)  # (filler meeting, block content)
    events: list[ScheduleEvent] = field(default_factory=list)       # the student's own events
    deadlines: list[Task] = field(default_factory=list)
    exams: list[Exam] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        return not (self.courses or self.blocks or self.embedded or self.events or self.deadlines or self.exams)


def tomorrow_preview(*, user: User, today: date) -> TomorrowPreview:
    """What the day after ``today`` holds for the student."""
    calendar = calendar_settings_get(user=user)
    semester = calendar.semester(user.time_zone)
    on = today + timedelta(days=1)
    exams = exams_between(user=user, first=on, last=on)
    deadlines = _deadlines(user, on, semester.zone)
    if not semester.contains(on):
        return TomorrowPreview(on=on, week=None, day=on.isoweekday(), deadlines=deadlines, exams=exams)
    week, day = semester.week_day_of(on)
    resolved = school_calendar_get(user=user, calendar=calendar).day(on)
    rows = list(ScheduleEvent.objects.filter(user=user, week=week, day=day).select_related("course")
                .order_by("start_section"))
    return TomorrowPreview(
        on=on, week=week, day=day, headline=_headline(resolved), holiday=bool(resolved and resolved.suspended),
        courses=[e for e in rows if e.kind == ScheduleEvent.Kind.COURSE],
        blocks=[e for e in rows if e.kind in (ScheduleEvent.Kind.TASK_ITEM, ScheduleEvent.Kind.QUICK_NOTE)],
        embedded=_embedded(user, week, day), events=[e for e in rows if e.kind == ScheduleEvent.Kind.CUSTOM],
        deadlines=deadlines, exams=exams)


def tomorrow_preview_due(*, user: User, now: datetime | None = None) -> TomorrowPreview | None:
    """Tomorrow's preview once today has reached the student's preview time, else None."""
    calendar = calendar_settings_get(user=user)
    local = timezone.localtime(now or timezone.now(), calendar.semester(user.time_zone).zone)
    if local.time() < calendar.preview_after:
        return None
    return tomorrow_preview(user=user, today=local.date())


def tomorrow_notice_text(preview: TomorrowPreview) -> str:
    """One line for an in-app notice: the calendar's headline, then what the day holds."""
    counts = _("Classes: %(courses)d · study blocks: %(blocks)d · deadlines: %(deadlines)d · exams: %(exams)d") % {
        "courses": len(preview.courses), "blocks": len(preview.blocks) + len(preview.embedded),
        "deadlines": len(preview.deadlines), "exams": len(preview.exams)}
    return f"{preview.headline} {counts}" if preview.headline else counts


def _headline(resolved: ResolvedDay | None) -> str:
    if resolved is None:
        return ""
    if resolved.runs is not None:
        week, weekday = resolved.runs
        return _("Tomorrow runs the classes of week %(week)s, %(weekday)s.") % {
            "week": week, "weekday": day_label(weekday)}
    holiday = next((label.name for label in resolved.labels if label.kind == DayKind.HOLIDAY), None)
    if resolved.suspended and holiday is not None:
        return _("Tomorrow is a holiday (%(name)s).") % {"name": holiday}
    exam_week = next((label.name for label in resolved.labels if label.kind == DayKind.EXAM), None)
    return _("Tomorrow is in %(name)s.") % {"name": exam_week} if exam_week else ""


def _embedded(user: User, week: int, day: int) -> list[tuple[ScheduleEvent, str]]:
    slots = (ScheduleSlot.objects.filter(user=user, week=week, day=day, embedded_item__isnull=False)
             .select_related("event", "embedded_item").order_by("section"))
    seen: dict[int, tuple[ScheduleEvent, str]] = {}
    for slot in slots:
        assert slot.embedded_item is not None  # filtered above
        seen.setdefault(slot.embedded_item.pk, (slot.event, slot.embedded_item.content))
    return list(seen.values())


def _deadlines(user: User, on: date, zone) -> list[Task]:
    start = datetime.combine(on, datetime.min.time(), tzinfo=zone)
    return list(Task.objects.filter(user=user, completed=False, deadline__gte=start,
                                    deadline__lt=start + timedelta(days=1)).order_by("deadline"))
