"""Course changes and re-imports while the student follows the school calendar: the diff reads the
timetable as imported (a holiday's meetings kept aside count, make-up copies do not), the calendar
is applied again after every change and after its undo, and undo brings back the very rows."""

from __future__ import annotations

from datetime import date

import pytest

from board.previews import changeset_undo
from board.timetable_edits import course_remove, meeting_remove, timetable_sync
from schedule.models import CalendarDay, Course, ScheduleEvent, SuspendedMeeting
from schedule.services.academic_calendar import DayInput, calendar_day_create, school_calendar_switch
from schedule.tests.factories import csv_bytes, import_csv
from smartmate.platform.exceptions import AppError

pytestmark = pytest.mark.usefixtures("before_week_three")

# Monday 英语 1-2, Thursday 高等数学 1-2, Friday 大学物理 3-4, every week. Week 4 is 09-28..10-04.
TIMETABLE = ("英语,1,1,2,陈老师,一教101,1-16", "高等数学,4,1,2,王老师,二教1101,1-16",
             "大学物理,5,3,4,李老师,二教1201,1-16")
NATIONAL_DAY = DayInput(CalendarDay.Kind.HOLIDAY, "国庆节", date(2026, 10, 1), date(2026, 10, 7))
MAKEUP_SUNDAY = DayInput(CalendarDay.Kind.MAKEUP, "调休", date(2026, 10, 11), date(2026, 10, 11), 5, 5)


def follow_calendar(user) -> None:
    calendar_day_create(user=user, day=NATIONAL_DAY)
    calendar_day_create(user=user, day=MAKEUP_SUNDAY)
    school_calendar_switch(user=user, follows=True)


@pytest.fixture
def student(user):
    import_csv(user, *TIMETABLE)
    follow_calendar(user)
    return user


def rows(user) -> list:
    """The course meetings on the board and those kept aside, with their ids."""
    events = sorted(ScheduleEvent.objects.filter(user=user, kind="course").values_list(
        "pk", "title", "week", "day", "start_section", "source"))
    aside = sorted(SuspendedMeeting.objects.filter(user=user).values_list(
        "pk", "course_id", "week", "day", "start_section", "event_pk"))
    return [events, aside]


def on_board(user, title: str, week: int, day: int) -> bool:
    return ScheduleEvent.objects.filter(user=user, kind="course", title=title, week=week, day=day).exists()


def test_reimporting_the_same_file_changes_nothing_while_meetings_are_kept_aside(student):
    assert SuspendedMeeting.objects.filter(user=student).count() == 3  # Thu 10-01, Fri 10-02, Mon 10-05

    plan = timetable_sync(user=student, data=csv_bytes(*TIMETABLE), fmt="csv", dry_run=True).plan

    assert plan is not None and not plan.has_changes and plan.courses == []


def test_dropping_a_course_drops_its_kept_aside_meetings_and_copies_and_undo_brings_them_back(student):
    before = rows(student)
    assert on_board(student, "大学物理", 5, 7)  # the make-up Sunday 10-11 (week 5) runs Friday's 大学物理

    data = csv_bytes(*TIMETABLE[:2])
    digest = timetable_sync(user=student, data=data, fmt="csv", dry_run=True).plan.digest
    result = timetable_sync(user=student, data=data, fmt="csv", expected=digest)

    assert not Course.objects.filter(user=student, name="大学物理").exists()
    assert not SuspendedMeeting.objects.filter(user=student, title="大学物理").exists()
    assert not on_board(student, "大学物理", 5, 7)
    changeset_undo(user=student, changeset_id=result.changeset_id)
    assert rows(student)[1] == before[1]  # the kept-aside rows, with their ids
    assert {e[1:] for e in rows(student)[0]} == {e[1:] for e in before[0]}  # the copy is made again
    assert [e for e in rows(student)[0] if e[5] != "calendar"] == [e for e in before[0] if e[5] != "calendar"]


def test_a_new_course_on_a_holiday_is_kept_aside_and_undo_removes_it_entirely(student):
    data = csv_bytes(*TIMETABLE, "体育,3,5,6,赵老师,操场,1-16")  # Wednesdays; 10-07 is National Day

    result = timetable_sync(user=student, data=data, fmt="csv")

    assert on_board(student, "体育", 4, 3) and not on_board(student, "体育", 5, 3)  # 09-30 and 10-07
    assert SuspendedMeeting.objects.filter(user=student, title="体育", week=5, day=3).exists()
    changeset_undo(user=student, changeset_id=result.changeset_id)
    assert not Course.objects.filter(user=student, name="体育").exists()
    assert not SuspendedMeeting.objects.filter(user=student, title="体育").exists()


def test_deleting_a_course_and_undoing_it_keeps_the_calendar_applied(student):
    before = rows(student)
    physics = Course.objects.get(user=student, name="大学物理")

    result = course_remove(user=student, course_id=physics.pk)

    assert not SuspendedMeeting.objects.filter(user=student, title="大学物理").exists()
    changeset_undo(user=student, changeset_id=result.changeset_id)
    assert rows(student)[1] == before[1]
    assert on_board(student, "大学物理", 5, 7) and not on_board(student, "大学物理", 4, 5)  # 10-11, not 10-02


def test_a_make_up_copy_is_not_deleted_as_a_meeting(student):
    copy = ScheduleEvent.objects.get(user=student, kind="course", source="calendar", title="大学物理")

    with pytest.raises(AppError) as refused:
        meeting_remove(user=student, event_id=copy.pk)

    assert refused.value.code == "makeup_meeting"
    assert ScheduleEvent.objects.filter(pk=copy.pk).exists()


def test_a_first_import_while_following_the_calendar_is_applied_at_once(user):
    follow_calendar(user)

    import_csv(user, *TIMETABLE)

    assert not on_board(user, "高等数学", 4, 4) and on_board(user, "高等数学", 3, 4)  # 10-01 is National Day
    assert on_board(user, "大学物理", 5, 7)
