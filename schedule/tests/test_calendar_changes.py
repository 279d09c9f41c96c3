"""Changing the semester or section times keeps the board consistent."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from accounts.services import calendar_settings_update
from schedule.models import ScheduleEvent
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
