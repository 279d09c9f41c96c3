"""Read the live semester into its frozen document (``schedule.core.semester_archive``)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta
from itertools import groupby

from django.utils import timezone

from accounts.models import User
from schedule.core.semester_archive import (
    ArchivedCalendarDay,
    ArchivedCourse,
    ArchivedEvent,
    ArchivedExam,
    ArchivedItem,
    ArchivedNote,
    ArchivedPlan,
    SemesterArchive,
    season_of,
)
from schedule.core.time_model import span_bounds
from schedule.exams.models import Exam
from schedule.models import CalendarDay, CalendarSettings, Course, ScheduleEvent, ScheduleSlot
from schedule.student_rules.models import StudyRules
from taskclasses.models import Task, TaskClass


def semester_archive_build(*, user: User, calendar: CalendarSettings, leaving_before: date,
                           notes_left: Iterable[Task], restore: list[dict]) -> SemesterArchive:
    """The live semester as a document: every block and plan, and the exams and school-calendar days
    dated before ``leaving_before`` (the next semester's week 1; later ones belong to it)."""
    year, season = season_of(calendar.semester_start)
    return SemesterArchive(
        season=season, year=year, first_monday=calendar.semester_start, weeks=calendar.semester_weeks,
        time_zone=user.time_zone, section_times=tuple(tuple(pair) for pair in calendar.section_times),
        courses=tuple(ArchivedCourse(name=c.name, teacher=c.teacher, location=c.location, is_filler=c.is_filler)
                      for c in Course.objects.filter(user=user).order_by("name", "teacher")),
        events=_events(user, calendar) + _embedded_blocks(user, calendar),
        plans=_plans(user),
        exams=tuple(_exam(e) for e in Exam.objects.filter(user=user, date__lt=leaving_before).select_related("course")),
        calendar_days=tuple(ArchivedCalendarDay(kind=d.kind, name=d.name, first_day=d.first_date, last_day=d.last_date,
                                                runs_week=d.runs_week, runs_day=d.runs_day)
                            for d in CalendarDay.objects.filter(user=user, first_date__lt=leaving_before)),
        notes=tuple(ArchivedNote(title=n.title, quadrant=n.quadrant,
                                 deadline=timezone.localtime(n.deadline, user.zone).isoformat() if n.deadline else None)
                    for n in notes_left),
        rules=_rules(user), restore=tuple(restore))


def _day_of(calendar: CalendarSettings, week: int, day: int) -> date:
    return calendar.semester_start + timedelta(weeks=week - 1, days=day - 1)


def _events(user: User, calendar: CalendarSettings) -> tuple[ArchivedEvent, ...]:
    zone = user.zone
    rows = ScheduleEvent.objects.filter(user=user).select_related("course", "task_item__task_class")
    return tuple(ArchivedEvent(
        kind=e.kind, title=e.title, week=e.week, day=e.day, first=e.start_section, last=e.end_section,
        on=_day_of(calendar, e.week, e.day), starts_at=timezone.localtime(e.starts_at, zone).isoformat(),
        ends_at=timezone.localtime(e.ends_at, zone).isoformat(), location=e.location,
        teacher=e.course.teacher if e.course else "", course=e.course.name if e.course else "",
        plan=e.task_item.task_class.name if e.task_item else "", status=e.task_item.status if e.task_item else "")
        for e in rows)


def _embedded_blocks(user: User, calendar: CalendarSettings) -> tuple[ArchivedEvent, ...]:
    """Study blocks inside filler courses: one record per block, over the sections it took of its host."""
    semester, template = calendar.semester(user.time_zone), calendar.template()
    slots = (ScheduleSlot.objects.filter(user=user, embedded_item__isnull=False)
             .select_related("event__course", "embedded_item__task_class").order_by("event_id", "embedded_item_id",
                                                                                     "section"))
    blocks = []
    for _key, group in groupby(slots, key=lambda s: (s.event_id, s.embedded_item_id)):
        held = list(group)
        first, item, host = held[0], held[0].embedded_item, held[0].event
        assert item is not None  # the query keeps only embedded slots
        starts_at, ends_at = span_bounds(semester, template, first.week, first.day, first.section, held[-1].section)
        blocks.append(ArchivedEvent(
            kind=ScheduleEvent.Kind.TASK_ITEM, title=item.content, week=first.week, day=first.day,
            first=first.section, last=held[-1].section, on=_day_of(calendar, first.week, first.day),
            starts_at=starts_at.isoformat(), ends_at=ends_at.isoformat(), location=host.location,
            course=host.course.name if host.course else "", plan=item.task_class.name, status=item.status,
            embedded=True))
    return tuple(blocks)


def _plans(user: User) -> tuple[ArchivedPlan, ...]:
    return tuple(ArchivedPlan(
        name=p.name, strategy=p.strategy, first_day=p.start_date, last_day=p.end_date,
        items=tuple(ArchivedItem(order=i.order, content=i.content, sections=i.sections, status=i.status)
                    for i in p.items.all()))
        for p in TaskClass.objects.filter(user=user).prefetch_related("items"))


def _exam(exam: Exam) -> ArchivedExam:
    return ArchivedExam(
        title=exam.title, on=exam.date, start_time=exam.start_time.strftime("%H:%M") if exam.start_time else None,
        end_time=exam.end_time.strftime("%H:%M") if exam.end_time else None, place=exam.place,
        course=exam.course.name if exam.course else "")


def _rules(user: User) -> dict:
    rules = StudyRules.objects.filter(user=user).first()
    if rules is None:
        return {}
    return {"daily_cap": rules.daily_cap, "buffer_sections": rules.buffer_sections,
            "latest_section": rules.latest_section, "protected_times": rules.protected_times}
