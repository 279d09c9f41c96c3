"""The calendar feed carries the reminders as VALARMs, valid iCalendar that our own importer reads back."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import translation
from icalendar import Calendar

from schedule.models import CalendarFeed, Course
from schedule.services.feeds import calendar_feed_ensure, calendar_feed_read, calendar_feed_revoke
from schedule.services.imports import timetable_import
from schedule.tests.factories import import_csv
from smartmate.platform.exceptions import NotFoundError
from taskclasses.reminders.services import reminder_settings_update
from taskclasses.tests.factories import NOW, SHANGHAI, make_task, make_task_class, place_item


@pytest.fixture
def student(user):
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,1-16")
    place_item(make_task_class(user, name="概率论复习", items=1).items.get(), week=13, day=3, start=5)
    make_task(user, title="交概率论作业", deadline=datetime(2026, 12, 4, 18, 0, tzinfo=SHANGHAI))
    return user


def events_of(data: bytes) -> dict[str, object]:
    calendar = Calendar.from_ical(data)
    return {str(event["SUMMARY"]): event for event in calendar.walk("VEVENT")}


def alarms(event) -> list[tuple[str, str]]:
    return [(str(alarm["ACTION"]), alarm["TRIGGER"].to_ical().decode()) for alarm in event.walk("VALARM")]


def feed(user) -> bytes:
    with translation.override("zh-hans"):  # a phone's calendar app asking in Chinese
        return calendar_feed_read(token=calendar_feed_ensure(user=user).token, now=NOW)


def test_a_study_block_rings_ten_minutes_before_by_default(student):
    events = events_of(feed(student))
    assert alarms(events["概率论复习 #1"]) == [("DISPLAY", "-PT10M")]
    assert b"BEGIN:VALARM" in feed(student) and b"TRIGGER:-PT10M" in feed(student)


def test_a_note_deadline_rings_at_nine_on_its_day(student):
    deadline = events_of(feed(student))["截止：交概率论作业"]
    # 09:00 in Shanghai is 01:00 UTC; an absolute trigger is written in UTC with VALUE=DATE-TIME.
    assert alarms(deadline) == [("DISPLAY", "20261204T010000Z")]
    assert b"TRIGGER;VALUE=DATE-TIME:20261204T010000Z" in feed(student)


def test_courses_ring_only_when_turned_on(student):
    course = next(e for name, e in events_of(feed(student)).items() if name == "高等数学")
    assert alarms(course) == []
    reminder_settings_update(user=student, courses_enabled=True, course_lead_minutes=20)
    course = next(e for name, e in events_of(feed(student)).items() if name == "高等数学")
    assert alarms(course) == [("DISPLAY", "-PT20M")]


def test_the_students_lead_time_is_in_the_feed(student):
    reminder_settings_update(user=student, block_lead_minutes=45, deadlines_enabled=False)
    events = events_of(feed(student))
    assert alarms(events["概率论复习 #1"]) == [("DISPLAY", "-PT45M")]
    assert alarms(events["截止：交概率论作业"]) == []


def test_every_alarm_is_valid_icalendar(student):
    for event in Calendar.from_ical(feed(student)).walk("VEVENT"):
        for alarm in event.walk("VALARM"):
            assert {"ACTION", "TRIGGER", "DESCRIPTION"} <= set(alarm)  # RFC 5545 3.6.6: DISPLAY needs all three
            assert alarm["TRIGGER"].dt is not None
            if isinstance(alarm["TRIGGER"].dt, timedelta):
                assert alarm["TRIGGER"].dt < timedelta(0)


def test_a_feed_of_courses_and_blocks_with_alarms_imports_back_with_our_own_importer(user):
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,1-16")
    place_item(make_task_class(user, name="概率论复习", items=1).items.get(), week=13, day=3, start=5)
    reminder_settings_update(user=user, courses_enabled=True)
    data = feed(user)
    assert data.count(b"BEGIN:VALARM") == 17  # 16 course meetings and the block
    other = type(user).objects.create_user(username="copycat", password="pw-copy-123456")
    done = timetable_import(user=other, data=data, fmt="ics")
    assert (done.created_courses, done.created_events) == (2, 17)
    assert set(Course.objects.filter(user=other).values_list("name", "teacher")) == {
        ("高等数学", "王老师"), ("概率论复习 #1", "")}


def test_our_importer_reads_a_feed_with_deadlines_and_names_only_the_deadline_as_off_grid(student):
    other = type(student).objects.create_user(username="copycat", password="pw-copy-123456")
    with translation.override("zh-hans"):
        outcome = timetable_import(user=other, data=feed(student), fmt="ics", dry_run=True, fit="mine")
    # Under the student's own sections the deadline (18:00-18:15, between two sections) is the one event
    # that fits nowhere: it is left out by name; the course and the study block are read.
    assert [(group.code, group.count) for group in outcome.skipped] == [("outside_sections", 1)]
    assert "“截止：交概率论作业”（18:00–18:15）" in outcome.skipped[0].examples[0]
    assert not any(course.notices for course in outcome.courses)


def test_a_revoked_feed_is_not_found(student):
    token = calendar_feed_ensure(user=student).token
    calendar_feed_revoke(user=student)
    with pytest.raises(NotFoundError):
        calendar_feed_read(token=token)
    assert not CalendarFeed.objects.filter(token=token).exists()
