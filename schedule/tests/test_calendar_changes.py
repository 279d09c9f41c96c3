"""Changing the semester or section times keeps the board consistent."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from schedule.models import ScheduleEvent
from schedule.services.calendar import calendar_settings_update
from schedule.tests.factories import custom_event, import_csv


def test_moving_the_semester_start_retimes_every_event(user):
    import_csv(user, "高等数学A(下),1,1,2,王建华,二教2305,1")
    calendar_settings_update(user=user, semester_start=date(2026, 9, 14))
    assert ScheduleEvent.objects.get(user=user).starts_at.date() == date(2026, 9, 14)


def test_changing_a_section_time_retimes_events_in_that_section(user):
    custom_event(user, week=1, day=1, start=1, end=2)
    times = [["08:30", "09:15"], ["09:20", "10:05"]] + [[f"{10 + n}:30", f"{10 + n}:55"] for n in range(10)]
    calendar_settings_update(user=user, section_times=times)
    event = ScheduleEvent.objects.get(user=user)
    assert event.starts_at.isoformat() == "2026-09-07T00:30:00+00:00"


def test_dropping_sections_the_board_uses_is_refused(user):
    custom_event(user, week=1, day=1, start=11, end=12)
    with pytest.raises(ValidationError) as error:
        calendar_settings_update(user=user, section_times=[["08:00", "08:45"], ["08:55", "09:40"]])
    assert error.value.message_dict == {
        "section_times": ["Your schedule uses section 12; keep at least that many sections."]}


def test_dropping_weeks_the_board_uses_is_refused(user):
    import_csv(user, "高等数学A(下),1,1,2,王建华,二教2305,1-16")
    with pytest.raises(ValidationError) as error:
        calendar_settings_update(user=user, semester_weeks=12)
    assert error.value.message_dict == {"semester_weeks": ["Your schedule uses week 16; keep at least that many weeks."]}


def test_deleting_a_student_removes_everything_they_own(user, before_week_three):
    from board.planning import preview_create
    from board.previews import preview_apply
    from schedule.models import Course, ScheduleSlot
    from schedule.tests.factories import make_task_class
    from taskclasses.notes.services import task_create, task_schedule

    import_csv(user, "形势与政策,1,1,2,赵立新,二教1101,3-4")
    Course.objects.update(is_filler=True)
    task_class = make_task_class(user, items=6, strategy="rapid")
    preview_apply(user=user, preview_id=preview_create(user=user, task_class_ids=[task_class.pk]).pk)
    note = task_create(user=user, title="整理桌面", quadrant=3)
    task_schedule(user=user, task_id=note.pk)
    user.delete()
    assert not ScheduleEvent.objects.exists() and not ScheduleSlot.objects.exists()


def test_deleting_a_course_removes_its_meetings(user):
    from schedule.models import Course
    from schedule.services.courses import course_delete

    import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-16")
    assert course_delete(user=user, course_id=Course.objects.get().pk) == 16
    assert not ScheduleEvent.objects.exists()
