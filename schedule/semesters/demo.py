"""The demo student's finished past semester (spring 2026): a timetable, two study plans with blocks done
and missed, exams and holidays, frozen as a start of the next semester would have left it.

Built as a document (the live tables hold the demo's current semester); it carries no rows to put back,
so it cannot be "undone". Idempotent: made once, found again by its week 1 on every later run.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from accounts.models import User
from schedule.core.semester_archive import (
    ArchivedCalendarDay,
    ArchivedCourse,
    ArchivedEvent,
    ArchivedExam,
    ArchivedItem,
    ArchivedPlan,
    SemesterArchive,
    season_of,
)
from schedule.models import CalendarSettings, default_section_times
from schedule.semesters.models import Semester

PAST_WEEKS = 18
# name, teacher, room, weekday, first section, filler
PAST_COURSES = (
    ("高等数学（下）", "王建华", "二教2305", 1, 1, False), ("大学物理", "李明", "二教1201", 2, 3, False),
    ("大学英语（二）", "陈静", "三教101", 3, 1, False), ("中国近现代史纲要", "周宏", "一教3101", 4, 5, False),
    ("形势与政策", "赵立新", "二教1101", 5, 9, True),
)
# plan, blocks: (week, weekday, first section, status) — inside a filler course when it meets there then
PAST_PLANS = (
    ("高数复习", [(w, 3, 5, "missed" if w in (6, 11) else "placed" if w == 16 else "done") for w in range(3, 17)]),
    ("英语四级单词", [(w, 5, 9, "missed" if w == 9 else "done") for w in range(2, 10)]),
)


def seed_demo_past_semester(user: User) -> str:
    """Give the demo student their spring semester, ended, before the current one."""
    current = CalendarSettings.objects.for_user(user).semester_start
    first_monday = current - timedelta(weeks=27)
    if not Semester.objects.filter(user=user, first_monday=first_monday).exists():
        archive = _archive(user, first_monday)
        Semester.objects.create(
            user=user, year=archive.year, season=archive.season, first_monday=first_monday, weeks=PAST_WEEKS,
            section_times=default_section_times(), document=archive.to_json(), next_first_monday=current,
            next_weeks=20, after_digest="")
    return f"past semester: spring from {first_monday.isoformat()} ({PAST_WEEKS} weeks)"


def _archive(user: User, first_monday: date) -> SemesterArchive:
    year, season = season_of(first_monday)
    grid = default_section_times()
    return SemesterArchive(
        season=season, year=year, first_monday=first_monday, weeks=PAST_WEEKS, time_zone=user.time_zone,
        section_times=tuple((a, b) for a, b in grid),
        courses=tuple(ArchivedCourse(name=n, teacher=t, location=r, is_filler=f) for n, t, r, _d, _s, f in PAST_COURSES),
        events=_meetings(user, first_monday, grid) + _blocks(user, first_monday, grid),
        plans=tuple(ArchivedPlan(name=name, strategy="steady", first_day=first_monday,
                                 last_day=first_monday + timedelta(weeks=16, days=-1),
                                 items=tuple(ArchivedItem(order=n, content=f"{name} #{n}", sections=2, status=status)
                                             for n, (_w, _d, _s, status) in enumerate(blocks, start=1)))
                    for name, blocks in PAST_PLANS),
        exams=(ArchivedExam(title="高等数学（下）期末考试", on=first_monday + timedelta(weeks=17, days=1),
                            start_time="09:00", end_time="11:00", place="二教2305", course="高等数学（下）"),
               ArchivedExam(title="大学物理期末考试", on=first_monday + timedelta(weeks=17, days=3),
                            start_time="14:00", end_time="16:00", place="二教1201", course="大学物理")),
        calendar_days=(ArchivedCalendarDay(kind="holiday", name="劳动节", first_day=date(year, 5, 1),
                                           last_day=date(year, 5, 5)),))


def _event(user: User, first_monday: date, grid: list[list[str]], week: int, day: int, first: int,
           **fields: object) -> ArchivedEvent:
    on = first_monday + timedelta(weeks=week - 1, days=day - 1)
    zone = ZoneInfo(user.time_zone)
    start, end = (datetime.combine(on, time.fromisoformat(grid[s - 1][i]), zone) for s, i in ((first, 0), (first + 1, 1)))
    return ArchivedEvent(week=week, day=day, first=first, last=first + 1, on=on, starts_at=start.isoformat(),
                         ends_at=end.isoformat(), **fields)  # type: ignore[arg-type]


def _meetings(user: User, first_monday: date, grid: list[list[str]]) -> tuple[ArchivedEvent, ...]:
    return tuple(_event(user, first_monday, grid, week, day, first, kind="course", title=name, location=room,
                        teacher=teacher, course=name)
                 for name, teacher, room, day, first, _filler in PAST_COURSES for week in range(1, 17))


def _blocks(user: User, first_monday: date, grid: list[list[str]]) -> tuple[ArchivedEvent, ...]:
    """Study blocks: on their own in free sections, or inside 形势与政策 on Friday evenings (a filler course)."""
    return tuple(_event(user, first_monday, grid, week, day, first, kind="task_item", title=f"{name} #{n}", plan=name,
                        status=status, embedded=(day, first) == (5, 9),
                        course="形势与政策" if (day, first) == (5, 9) else "", location="")
                 for name, blocks in PAST_PLANS for n, (week, day, first, status) in enumerate(blocks, start=1))
