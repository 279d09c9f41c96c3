"""Tomorrow's in-app notice follows the school calendar: a holiday with nothing on it is still told."""

from __future__ import annotations

from datetime import date, datetime

from schedule.models import CalendarDay
from schedule.services.academic_calendar import DayInput, calendar_days_add, school_calendar_switch
from taskclasses.reminders.models import Reminder
from taskclasses.reminders.services import reminders_produce
from taskclasses.tests.factories import SHANGHAI


def test_a_holiday_tomorrow_is_told_even_with_nothing_on_it(user):
    school_calendar_switch(user=user, follows=True)
    calendar_days_add(user=user, days=[DayInput(kind=CalendarDay.Kind.HOLIDAY, name="校庆日",
                                                first_date=date(2026, 12, 3), last_date=date(2026, 12, 3))])
    assert reminders_produce(now=datetime(2026, 12, 2, 19, 0, tzinfo=SHANGHAI)) == 0  # before the preview time
    assert reminders_produce(now=datetime(2026, 12, 2, 20, 0, tzinfo=SHANGHAI)) == 1
    reminder = Reminder.objects.get(user=user, kind=Reminder.Kind.TOMORROW)
    assert reminder.key == "day:2026-12-03" and "校庆日" in reminder.params["headline"]


def test_an_ordinary_empty_tomorrow_is_still_not_told(user):
    reminders_produce(now=datetime(2026, 12, 2, 20, 0, tzinfo=SHANGHAI))
    assert not Reminder.objects.filter(kind=Reminder.Kind.TOMORROW).exists()
