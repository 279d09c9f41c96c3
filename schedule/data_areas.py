"""The student's timetable data, for "download my data" and "delete my account" (accounts.data_ports)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from accounts.data_export import ics_writer_set
from accounts.data_ports import DataArea, Tables, data_area_register, rows_with_user_field
from accounts.models import User


def _tables(user: User) -> Tables:
    return rows_with_user_field("schedule", user)


def _ics(user: User) -> bytes:
    from schedule.services.feeds import schedule_ics_build

    return schedule_ics_build(user=user)


# The line for this file in the archive's 说明.txt.
SUMMARY = gettext_lazy("Your timetable: semester and section times, courses, every meeting and own event, the school "
                       "calendar, exams, your rules, each change you can undo, and every past semester as it ended.")

# The feed's secret token and each section's slot row are bookkeeping, not the student's content.
data_area_register(DataArea(name="schedule", tables=_tables, order=20,
                            summary=SUMMARY,
                            counted_only=frozenset({"calendarfeed", "scheduleslot"})))
ics_writer_set(_ics)
