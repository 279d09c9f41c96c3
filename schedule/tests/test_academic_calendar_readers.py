"""Every reader sees the same resolved calendar: National Day week without courses, a make-up Sunday
with Friday's courses (the week board, the day agenda, the .ics export and feed, the planner's free
time, the board loaded for direct edits, the assistant's tools, now/next); switching off restores
the timetable as imported."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar

from agent.tools.query_range import TOOL as QUERY_RANGE
from agent.tools.support.base import ToolContext
from agent.tools.support.working_schedule import working_load
from board.agenda_presenter import agenda_days
from board.boards import board_load
from board.planning import planning_instance_build
from board.week_presenter import board_rows
from schedule.core.board import Kind
from schedule.models import CalendarDay, Course, ScheduleEvent, ScheduleSlot
from schedule.now_next import now_next_get
from schedule.selectors import week_board_get
from schedule.services.academic_calendar import DayInput, calendar_day_create, school_calendar_switch
from schedule.services.feeds import calendar_feed_ensure, calendar_feed_read, schedule_ics_build
from schedule.tests.factories import import_csv

SHANGHAI = ZoneInfo("Asia/Shanghai")
BEFORE = datetime(2026, 9, 28, 7, 0, tzinfo=SHANGHAI)  # Monday of week 4
FIRST, LAST = date(2026, 9, 28), date(2026, 10, 11)  # weeks 4 and 5 (the assistant sees 14 days)

NATIONAL_DAY = DayInput(CalendarDay.Kind.HOLIDAY, "国庆节", date(2026, 10, 1), date(2026, 10, 7))
MAKEUP_SUNDAY = DayInput(CalendarDay.Kind.MAKEUP, "调休", date(2026, 10, 11), date(2026, 10, 11), 5, 5)

# Monday 英语 1-2, Thursday 高等数学 1-2, Friday 大学物理 3-4, every week.
TIMETABLE = ("英语,1,1,2,陈老师,一教101,1-16", "高等数学,4,1,2,王老师,二教1101,1-16",
             "大学物理,5,3,4,李老师,二教1201,1-16")


def as_imported() -> set[tuple[date, str]]:
    """The meetings of weeks 4-5, as the timetable says."""
    titles = {1: "英语", 4: "高等数学", 5: "大学物理"}
    days = (FIRST + timedelta(days=n) for n in range((LAST - FIRST).days + 1))
    return {(on, titles[on.isoweekday()]) for on in days if on.isoweekday() in titles}


def resolved() -> set[tuple[date, str]]:
    """National Day (10-01..10-07) without courses; Sunday 10-11 runs Friday's 大学物理."""
    kept = {(on, title) for on, title in as_imported() if not date(2026, 10, 1) <= on <= date(2026, 10, 7)}
    return kept | {(date(2026, 10, 11), "大学物理")}


@pytest.fixture
def student(user):
    import_csv(user, *TIMETABLE)
    return user


def switch_on(user) -> None:
    calendar_day_create(user=user, day=NATIONAL_DAY)
    calendar_day_create(user=user, day=MAKEUP_SUNDAY)
    school_calendar_switch(user=user, follows=True)


# --- The readers, each reduced to {(date, course title)} over FIRST..LAST --------------------------

def in_window(pairs) -> set[tuple[date, str]]:
    return {(on, title) for on, title in pairs if FIRST <= on <= LAST}


def week_board_reader(user) -> set[tuple[date, str]]:
    pairs = set()
    for week in (4, 5, 6):
        board = week_board_get(user=user, week=week, now=BEFORE)
        pairs |= {(board.dates[e.day - 1], e.title) for e in board.events if e.kind == ScheduleEvent.Kind.COURSE}
    return in_window(pairs)


def agenda_reader(user) -> set[tuple[date, str]]:
    pairs = set()
    for week in (4, 5, 6):
        board = week_board_get(user=user, week=week, now=BEFORE)
        for day in agenda_days(board, board_rows(board), {n: str(n) for n in range(1, 8)}):
            pairs |= {(day.date, item.cell.event.title) for item in day.items
                      if item.cell.event is not None and item.cell.event.kind == ScheduleEvent.Kind.COURSE}
    return in_window(pairs)


def ics_pairs(data: bytes) -> set[tuple[date, str]]:
    events = Calendar.from_ical(data).walk("VEVENT")
    return in_window((e.decoded("DTSTART").astimezone(SHANGHAI).date(), str(e.get("SUMMARY"))) for e in events)


def export_reader(user) -> set[tuple[date, str]]:
    return ics_pairs(schedule_ics_build(user=user, now=BEFORE))


def feed_reader(user) -> set[tuple[date, str]]:
    return ics_pairs(calendar_feed_read(token=calendar_feed_ensure(user=user).token, now=BEFORE))


def planner_reader(user) -> set[tuple[date, str]]:
    instance = planning_instance_build(user=user, task_classes=[], now=BEFORE)
    start = instance.semester_start
    assert start is not None
    return in_window((start + timedelta(days=(row.week - 1) * 7 + row.day - 1), row.name)
                     for row in instance.occupied if row.event_id > 0)


def board_reader(user) -> set[tuple[date, str]]:
    board = board_load(user=user, now=BEFORE, first=FIRST, last=LAST, pending_notes=False)
    return {(e.place.day, e.name) for e in board.entries if e.kind == Kind.COURSE and e.place is not None}


def assistant_reader(user) -> set[tuple[date, str]]:
    ctx = ToolContext(user_id=user.pk, conversation_id=1, call_id="c", now=BEFORE, task_class_ids=(),
                      allow_reorder=False)
    working = working_load(user=user, now=BEFORE)
    pairs = set()
    for offset in range((LAST - FIRST).days + 1):
        on = FIRST + timedelta(days=offset)
        content = QUERY_RANGE.run({"date": on.isoformat()}, ctx, working).content
        pairs |= {(on, title) for title in ("英语", "高等数学", "大学物理") if title in content}
    return pairs


def now_next_reader(user) -> set[tuple[date, str]]:
    pairs = set()
    for offset in range((LAST - FIRST).days + 1):
        on = FIRST + timedelta(days=offset)
        upcoming = now_next_get(user=user, now=datetime.combine(on, datetime.min.time(), SHANGHAI)).next
        if upcoming is not None and upcoming.kind == ScheduleEvent.Kind.COURSE:
            pairs.add((on, upcoming.title))
    return pairs


READERS = [week_board_reader, agenda_reader, export_reader, feed_reader, planner_reader, board_reader,
           assistant_reader, now_next_reader]


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
def test_each_reader_sees_the_resolved_calendar_and_the_timetable_again_when_off(student, reader):
    assert reader(student) == as_imported()
    switch_on(student)
    assert reader(student) == resolved()
    school_calendar_switch(user=student, follows=False)
    assert reader(student) == as_imported()


def test_the_holiday_time_is_free_and_the_makeup_sunday_taken_for_writers(student):
    switch_on(student)
    held = set(ScheduleSlot.objects.filter(user=student, week__in=[4, 5]).values_list("week", "day", "section"))
    assert (4, 4, 1) not in held and (5, 1, 1) not in held  # National Day's 高等数学 and 英语: free
    assert {(5, 7, 3), (5, 7, 4)} <= held  # Sunday runs Friday's 大学物理
    sunday = ScheduleEvent.objects.get(user=student, week=5, day=7)
    assert (sunday.source, sunday.course.name, sunday.starts_at) == (
        ScheduleEvent.Source.CALENDAR, "大学物理", datetime(2026, 10, 11, 10, 15, tzinfo=SHANGHAI))


def test_the_week_board_labels_the_days(student):
    switch_on(student)
    week_five = week_board_get(user=student, week=5, now=BEFORE)
    assert [n.short for n in week_five.day_notes[0]] == ["国庆节 · no classes"]
    assert [n.long for n in week_five.day_notes[6]] == ["Make-up day: classes of week 5, Friday"]
    assert week_five.day_notes[3] == ()


def test_a_study_block_embedded_in_a_suspended_meeting_stays_visible_and_goes_back(student):
    from schedule.tests.factories import make_task_class

    Course.objects.filter(user=student, name="高等数学").update(is_filler=True)
    plan = make_task_class(student, items=1)
    item = plan.items.get()
    meeting = ScheduleEvent.objects.get(user=student, week=4, day=4)
    ScheduleSlot.objects.filter(event=meeting).update(embedded_item=item)
    switch_on(student)
    block = ScheduleEvent.objects.get(user=student, week=4, day=4)
    assert (block.kind, block.task_item_id, block.start_section, block.end_section) == (
        ScheduleEvent.Kind.TASK_ITEM, item.pk, 1, 2)
    school_calendar_switch(user=student, follows=False)
    back = ScheduleEvent.objects.get(user=student, week=4, day=4)
    assert back.kind == ScheduleEvent.Kind.COURSE and back.title == "高等数学"
    assert set(ScheduleSlot.objects.filter(event=back).values_list("embedded_item_id", flat=True)) == {item.pk}


def test_now_next_and_the_assistant_name_the_day(student):
    switch_on(student)
    sunday = datetime(2026, 10, 11, 7, 0, tzinfo=SHANGHAI)
    assert [n.long for n in now_next_get(user=student, now=sunday).notes] == ["Make-up day: classes of week 5, Friday"]
    ctx = ToolContext(user_id=student.pk, conversation_id=1, call_id="c", now=BEFORE, task_class_ids=(),
                      allow_reorder=False)
    content = QUERY_RANGE.run({"date": "2026-10-01"}, ctx, working_load(user=student, now=BEFORE)).content
    assert "校历：国庆节 · 停课" in content
    assert "校历" not in QUERY_RANGE.run({"date": "2026-09-29"}, ctx, working_load(user=student, now=BEFORE)).content


def test_the_calendar_bench_runs(capsys):
    from bench.calendar_bench import main

    assert main(["--runs", "3", "--checks"]) == 0
    assert "autumn term: 6 entries" in capsys.readouterr().out
