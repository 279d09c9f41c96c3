"""Producing reminders: each kind once per subject, under the student's lead times and quiet hours."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

import pytest

from smartmate.platform.models import OutboxEvent
from taskclasses.models import Task, TaskItem
from taskclasses.reminders.models import Reminder, ReminderSettings
from taskclasses.reminders.presenters import reminder_text
from taskclasses.reminders.rules import in_quiet_hours
from taskclasses.reminders.services import (
    ReminderSettingsInvalid,
    reminder_settings_get,
    reminder_settings_update,
    reminders_produce,
)
from taskclasses.tests.factories import SHANGHAI, make_task, make_task_class, place_item

Kind = Reminder.Kind


@pytest.fixture
def block(user):
    """A placed study block in week 13 (Wednesday, sections 5-6)."""
    item = make_task_class(user, name="概率论复习", items=1).items.get()
    return place_item(item, week=13, day=3, start=5)


def kinds(user) -> list[tuple[str, str]]:
    return sorted(Reminder.objects.filter(user=user).values_list("kind", "key"))


# --- Quiet hours (pure) ------------------------------------------------------------------------------

@pytest.mark.parametrize(("clock", "quiet"), [
    (time(22, 59), False), (time(23, 0), True), (time(0, 30), True), (time(6, 59), True), (time(7, 0), False),
    (time(12, 0), False),
])
def test_quiet_hours_that_cross_midnight_cover_the_night(clock, quiet):
    assert in_quiet_hours(clock, time(23, 0), time(7, 0)) is quiet


@pytest.mark.parametrize(("clock", "quiet"), [(time(12, 59), False), (time(13, 0), True), (time(13, 59), True),
                                              (time(14, 0), False)])
def test_quiet_hours_within_a_day_cover_their_span(clock, quiet):
    assert in_quiet_hours(clock, time(13, 0), time(14, 0)) is quiet


def test_no_quiet_hours_are_never_quiet():
    assert in_quiet_hours(time(3, 0), None, None) is False


# --- Blocks and courses ------------------------------------------------------------------------------

def test_a_block_starting_within_ten_minutes_is_reminded_once(user, block):
    now = block.starts_at - timedelta(minutes=8)
    assert reminders_produce(now=now) == 1
    assert reminders_produce(now=now + timedelta(minutes=1)) == 0  # the next beat, and the next
    reminder = Reminder.objects.get(user=user)
    assert (reminder.kind, reminder.link, reminder.silent) == (Kind.BLOCK_STARTING, "/board/?week=13", False)
    starts = block.starts_at.astimezone(SHANGHAI)
    assert reminder_text(reminder, SHANGHAI) == f"Study block “概率论复习 #1” starts at {starts:%H:%M}."
    assert OutboxEvent.objects.filter(topic="reminders.deliver", payload={"reminder_id": reminder.pk}).count() == 1


def test_a_block_further_away_than_the_lead_time_waits(user, block):
    assert reminders_produce(now=block.starts_at - timedelta(minutes=11)) == 0
    assert reminders_produce(now=block.starts_at - timedelta(minutes=10)) == 1


def test_a_block_that_already_started_is_not_reminded(user, block):
    assert reminders_produce(now=block.starts_at + timedelta(minutes=1)) == 0


def test_the_students_own_lead_time_is_used(user, block):
    reminder_settings_update(user=user, block_lead_minutes=30)
    assert reminders_produce(now=block.starts_at - timedelta(minutes=29)) == 1


def test_block_reminders_can_be_turned_off(user, block):
    reminder_settings_update(user=user, blocks_enabled=False)
    assert reminders_produce(now=block.starts_at - timedelta(minutes=5)) == 0


def test_a_moved_block_is_reminded_at_its_new_time(user, block):
    reminders_produce(now=block.starts_at - timedelta(minutes=5))
    later = block.starts_at + timedelta(days=1)
    type(block).objects.filter(pk=block.pk).update(starts_at=later, ends_at=later + timedelta(minutes=95))
    assert reminders_produce(now=later - timedelta(minutes=5)) == 1
    assert Reminder.objects.filter(user=user, kind=Kind.BLOCK_STARTING).count() == 2


def test_courses_are_reminded_only_when_turned_on(user):
    from schedule.models import ScheduleEvent
    from schedule.tests.factories import import_csv

    import_csv(user, "高等数学,3,1,2,王老师,二教1101,13")
    course = ScheduleEvent.objects.get(user=user, kind=ScheduleEvent.Kind.COURSE)
    assert reminders_produce(now=course.starts_at - timedelta(minutes=5)) == 0
    reminder_settings_update(user=user, courses_enabled=True)
    assert reminders_produce(now=course.starts_at - timedelta(minutes=5)) == 1
    assert Reminder.objects.get(user=user).kind == Kind.COURSE_STARTING


# --- Deadlines, urgent notes, missed blocks ------------------------------------------------------

def test_a_deadline_today_is_reminded_from_nine_in_the_students_zone(user):
    make_task(user, title="交概率论作业", deadline=datetime(2026, 12, 2, 18, 0, tzinfo=SHANGHAI),
              threshold=datetime(2027, 1, 1, tzinfo=SHANGHAI))
    assert reminders_produce(now=datetime(2026, 12, 2, 8, 59, tzinfo=SHANGHAI)) == 0
    assert reminders_produce(now=datetime(2026, 12, 2, 9, 0, tzinfo=SHANGHAI)) == 1
    reminder = Reminder.objects.get(user=user)
    assert reminder.kind == Kind.DEADLINE_TODAY
    assert reminder_text(reminder, SHANGHAI) == "“交概率论作业” is due today at 18:00."


def test_a_deadline_tomorrow_is_not_today(user):
    make_task(user, deadline=datetime(2026, 12, 3, 8, 0, tzinfo=SHANGHAI), threshold=datetime(2027, 1, 1, tzinfo=SHANGHAI))
    reminders_produce(now=datetime(2026, 12, 2, 20, 0, tzinfo=SHANGHAI))
    assert kinds(user) == [(Kind.TOMORROW, "day:2026-12-03")]  # in tomorrow's preview instead


def test_a_note_promoted_to_urgent_is_announced(user):
    now = datetime(2026, 12, 2, 10, 0, tzinfo=SHANGHAI)
    task = make_task(user, title="写实验报告", quadrant=2, deadline=now + timedelta(days=1),
                     threshold=now - timedelta(minutes=1))
    assert reminders_produce(now=now) == 1
    task.refresh_from_db()
    assert task.quadrant == Task.Quadrant.IMPORTANT_URGENT
    assert task.auto_changed_at == now
    assert kinds(user) == [(Kind.NOTE_URGENT, f"task:{task.pk}:{task.auto_changed_at.isoformat()}")]


def test_missed_blocks_are_reminded_once_a_day_with_a_link_to_the_first_on_the_board(user):
    plan = make_task_class(user, items=3, start_date=date(2026, 9, 14), end_date=date(2026, 12, 31))
    first, second, _third = plan.items.order_by("order")
    place_item(first, week=3, day=2, start=5, status=TaskItem.Status.MISSED)
    place_item(second, week=4, day=1, start=1, status=TaskItem.Status.MISSED)
    morning = datetime(2026, 12, 2, 8, 0, tzinfo=SHANGHAI)
    assert reminders_produce(now=morning) == 1
    assert reminders_produce(now=morning + timedelta(hours=3)) == 0
    assert reminders_produce(now=morning + timedelta(days=1)) == 1
    reminder = Reminder.objects.filter(user=user).first()
    assert reminder is not None and reminder.link == f"/board/?week=3&day=2&block=item-{first.pk}"
    assert reminder_text(reminder, SHANGHAI) == "2 missed study blocks are waiting to be planned again."


def test_missed_blocks_of_a_plan_that_has_ended_are_not_reminded(user):
    """Catch-up cannot place them (the plan's window is over), so the bell does not promise it."""
    plan = make_task_class(user, items=2)  # weeks 3-4 of the autumn semester
    plan.items.update(status=TaskItem.Status.MISSED)
    assert reminders_produce(now=datetime(2026, 12, 2, 8, 0, tzinfo=SHANGHAI)) == 0


# --- Quiet hours -------------------------------------------------------------------------------------

def test_a_reminder_in_quiet_hours_across_midnight_is_kept_silent(user):
    reminder_settings_update(user=user, quiet_start=time(23, 0), quiet_end=time(7, 0))
    make_task(user, deadline=datetime(2026, 12, 3, 0, 30, tzinfo=SHANGHAI), threshold=datetime(2027, 1, 1, tzinfo=SHANGHAI))
    assert reminders_produce(now=datetime(2026, 12, 3, 0, 5, tzinfo=SHANGHAI)) == 1
    assert Reminder.objects.get(user=user).silent is True


def test_a_reminder_outside_quiet_hours_is_announced(user, block):
    reminder_settings_update(user=user, quiet_start=time(23, 0), quiet_end=time(7, 0))
    reminders_produce(now=block.starts_at - timedelta(minutes=5))  # 14:xx in Shanghai
    assert Reminder.objects.get(user=user).silent is False


# --- Settings ------------------------------------------------------------------------------------

def test_the_defaults_are_ten_minutes_nine_oclock_and_courses_off(user):
    prefs = reminder_settings_get(user=user)
    assert (prefs.block_lead_minutes, prefs.deadline_time, prefs.courses_enabled, prefs.quiet_start) == \
        (10, time(9, 0), False, None)


@pytest.mark.parametrize("minutes", [0, -5, 721, 100000])
def test_lead_times_out_of_range_are_refused_and_nothing_is_saved(user, minutes):
    with pytest.raises(ReminderSettingsInvalid) as refused:
        reminder_settings_update(user=user, block_lead_minutes=minutes, courses_enabled=True)
    assert refused.value.code == "lead_time_out_of_range"
    assert refused.value.message == f"A reminder comes 1 to 720 minutes ahead; {minutes} is out of range."
    assert not ReminderSettings.objects.filter(user=user).exists()


def test_quiet_hours_crossing_midnight_are_saved(user):
    saved = reminder_settings_update(user=user, quiet_start=time(22, 30), quiet_end=time(6, 45))
    assert (saved.quiet_start, saved.quiet_end) == (time(22, 30), time(6, 45))


def test_half_quiet_hours_are_refused(user):
    with pytest.raises(ReminderSettingsInvalid) as refused:
        reminder_settings_update(user=user, quiet_start=time(22, 0))
    assert refused.value.code == "quiet_hours_incomplete"


def test_quiet_hours_that_start_when_they_end_are_refused(user):
    with pytest.raises(ReminderSettingsInvalid) as refused:
        reminder_settings_update(user=user, quiet_start=time(22, 0), quiet_end=time(22, 0))
    assert refused.value.code == "quiet_hours_empty"


# --- Tomorrow ------------------------------------------------------------------------------------

def test_tomorrow_is_previewed_once_from_eight_in_the_evening(user):
    from django.utils import translation

    from schedule.tests.factories import import_csv

    import_csv(user, "高等数学,4,1,2,王老师,二教1101,13")  # Thursday of week 13: tomorrow
    assert reminders_produce(now=datetime(2026, 12, 2, 19, 59, tzinfo=SHANGHAI)) == 0
    assert reminders_produce(now=datetime(2026, 12, 2, 20, 0, tzinfo=SHANGHAI)) == 1
    assert reminders_produce(now=datetime(2026, 12, 2, 21, 30, tzinfo=SHANGHAI)) == 0
    reminder = Reminder.objects.get(user=user, kind=Kind.TOMORROW)
    assert (reminder.key, reminder.link) == ("day:2026-12-03", "/board/?week=13")
    with translation.override("zh-hans"):
        assert reminder_text(reminder, SHANGHAI) == "明天（2026-12-03）：课程 1 节，学习块 0 个，截止 0 项，考试 0 场。"


def test_an_empty_tomorrow_is_not_previewed(user):
    reminders_produce(now=datetime(2026, 12, 2, 20, 0, tzinfo=SHANGHAI))
    assert not Reminder.objects.filter(kind=Kind.TOMORROW).exists()
