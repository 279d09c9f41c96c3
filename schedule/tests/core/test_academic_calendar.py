"""The pure academic-calendar resolver: holidays suspend, make-up days run another day, problems by code."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from schedule.core.academic_calendar import (
    CalendarDay,
    DayKind,
    ProblemCode,
    calendar_problems,
    calendar_resolve,
    week_range,
)
from schedule.core.time_model import Semester

SEMESTER = Semester(date(2026, 9, 7), 20)  # week 4 Monday is 2026-09-28
NATIONAL_DAY = CalendarDay(DayKind.HOLIDAY, "国庆节", date(2026, 10, 1), date(2026, 10, 7))
MAKEUP_SUNDAY = CalendarDay(DayKind.MAKEUP, "调休", date(2026, 10, 11), date(2026, 10, 11), runs_week=5, runs_day=5)
EXAMS = CalendarDay(DayKind.EXAM, "期末考试", *week_range(SEMESTER, 19, 20))


def codes(*days: CalendarDay) -> list[ProblemCode]:
    return [p.code for p in calendar_problems(SEMESTER, days)]


def test_a_holiday_suspends_each_of_its_dates_and_labels_them():
    resolved = calendar_resolve(SEMESTER, [NATIONAL_DAY])
    assert resolved.suspended_positions() == {(4, 4), (4, 5), (4, 6), (4, 7), (5, 1), (5, 2), (5, 3)}
    first = resolved.day(date(2026, 10, 1))
    assert first is not None and first.suspended and first.runs is None
    assert [label.name for label in first.labels] == ["国庆节"]
    assert resolved.day(date(2026, 10, 8)) is None  # the day after runs as the timetable says


def test_a_makeup_day_suspends_its_own_courses_and_runs_the_target_days():
    resolved = calendar_resolve(SEMESTER, [NATIONAL_DAY, MAKEUP_SUNDAY])
    sunday = resolved.day(date(2026, 10, 11))
    assert sunday is not None and sunday.suspended and sunday.runs == (5, 5)
    assert resolved.makeup_positions() == {(5, 7): (5, 5)}
    assert sunday.labels[0].runs_week == 5 and sunday.labels[0].runs_day == 5


def test_exam_weeks_only_label():
    resolved = calendar_resolve(SEMESTER, [EXAMS])
    assert EXAMS.first == date(2027, 1, 11) and EXAMS.last == date(2027, 1, 24)
    assert resolved.suspended_positions() == frozenset()
    day = resolved.day(date(2027, 1, 12))
    assert day is not None and not day.suspended and day.labels[0].kind == DayKind.EXAM


def test_switched_off_the_timetable_runs_as_imported():
    resolved = calendar_resolve(SEMESTER, [NATIONAL_DAY, MAKEUP_SUNDAY], follows=False)
    assert resolved.days == {} and not resolved.follows


def test_problems_by_code():
    assert codes(NATIONAL_DAY, MAKEUP_SUNDAY, EXAMS) == []
    assert codes(CalendarDay(DayKind.HOLIDAY, "  ", date(2026, 10, 1), date(2026, 10, 1))) == [ProblemCode.EMPTY_NAME]
    assert codes(CalendarDay(DayKind.HOLIDAY, "x", date(2026, 10, 2), date(2026, 10, 1))) == [
        ProblemCode.RANGE_REVERSED]
    assert codes(CalendarDay(DayKind.HOLIDAY, "x", date(2026, 9, 1), date(2026, 9, 8))) == [
        ProblemCode.OUTSIDE_SEMESTER]
    overlapping = CalendarDay(DayKind.HOLIDAY, "中秋", date(2026, 10, 7), date(2026, 10, 8))
    assert codes(NATIONAL_DAY, overlapping) == [ProblemCode.HOLIDAY_OVERLAP]
    week_21 = CalendarDay(DayKind.MAKEUP, "x", date(2026, 10, 11), date(2026, 10, 11), runs_week=21, runs_day=5)
    assert codes(week_21) == [ProblemCode.MAKEUP_WEEK_OUTSIDE]
    day_8 = CalendarDay(DayKind.MAKEUP, "x", date(2026, 10, 11), date(2026, 10, 11), runs_week=5, runs_day=8)
    assert codes(day_8) == [ProblemCode.MAKEUP_DAY_INVALID]
    ranged = CalendarDay(DayKind.MAKEUP, "x", date(2026, 10, 10), date(2026, 10, 11), runs_week=5, runs_day=5)
    assert codes(ranged) == [ProblemCode.MAKEUP_RANGE]
    on_holiday = CalendarDay(DayKind.MAKEUP, "x", date(2026, 10, 3), date(2026, 10, 3), runs_week=5, runs_day=5)
    assert codes(NATIONAL_DAY, on_holiday) == [ProblemCode.MAKEUP_ON_HOLIDAY]
    at_holiday = CalendarDay(DayKind.MAKEUP, "x", date(2026, 10, 11), date(2026, 10, 11), runs_week=4, runs_day=5)
    assert codes(NATIONAL_DAY, at_holiday) == []  # the usual 调休: a holiday's classes made up on another day
    chained = CalendarDay(DayKind.MAKEUP, "y", date(2026, 10, 18), date(2026, 10, 18), runs_week=5, runs_day=7)
    assert codes(MAKEUP_SUNDAY, chained) == [ProblemCode.MAKEUP_TARGET_MAKEUP]
    assert codes(MAKEUP_SUNDAY, MAKEUP_SUNDAY) == [ProblemCode.MAKEUP_DUPLICATE]


def test_resolving_is_tolerant_of_days_the_moved_semester_left():
    moved = Semester(date(2026, 10, 5), 20)  # National Day now starts before week 1
    resolved = calendar_resolve(moved, [NATIONAL_DAY, MAKEUP_SUNDAY])
    assert {d.on for d in resolved.days.values() if d.suspended} == {
        date(2026, 10, 5), date(2026, 10, 6), date(2026, 10, 7), date(2026, 10, 11)}
    # The make-up day now points at week 5 Friday of the new semester (2026-11-06): still runnable.
    assert resolved.makeup_positions() == {(1, 7): (5, 5)}


def test_a_makeup_whose_target_became_a_holiday_still_runs_it():
    """The day off and the day that makes it up: the pair schools announce together."""
    holiday = CalendarDay(DayKind.HOLIDAY, "校庆", date(2026, 10, 9), date(2026, 10, 9))
    resolved = calendar_resolve(SEMESTER, [holiday, MAKEUP_SUNDAY])
    sunday = resolved.day(date(2026, 10, 11))
    assert sunday is not None and sunday.suspended and sunday.runs == (5, 5)


def test_a_makeup_whose_target_became_a_makeup_day_runs_nothing():
    chained = CalendarDay(DayKind.MAKEUP, "补课", date(2026, 10, 18), date(2026, 10, 18), runs_week=5, runs_day=7)
    resolved = calendar_resolve(SEMESTER, [MAKEUP_SUNDAY, chained])  # not checked: resolving never raises
    later = resolved.day(date(2026, 10, 18))
    assert later is not None and later.suspended and later.runs is None


@st.composite
def valid_calendars(draw) -> list[CalendarDay]:
    """Non-overlapping holidays, and make-up days on free dates running free (week, weekday)s."""
    days: list[CalendarDay] = []
    taken: set[date] = set()
    cursor = SEMESTER.start_monday
    for n in range(draw(st.integers(0, 6))):
        cursor += timedelta(days=draw(st.integers(0, 20)))
        length = draw(st.integers(0, 7))
        last = cursor + timedelta(days=length)
        if last > SEMESTER.last_day:
            break
        days.append(CalendarDay(DayKind.HOLIDAY, f"假{n}", cursor, last))
        taken |= {cursor + timedelta(days=k) for k in range(length + 1)}
        cursor = last + timedelta(days=1)
    for n in range(draw(st.integers(0, 4))):
        on = SEMESTER.start_monday + timedelta(days=draw(st.integers(0, SEMESTER.weeks * 7 - 1)))
        week, day = draw(st.integers(1, SEMESTER.weeks)), draw(st.integers(1, 7))
        target = SEMESTER.date_of(week, day)
        if on in taken or target in taken or target == on:
            continue
        days.append(CalendarDay(DayKind.MAKEUP, f"调{n}", on, on, runs_week=week, runs_day=day))
        taken |= {on, target}
    return days


@settings(max_examples=150, deadline=None)
@given(valid_calendars())
def test_valid_calendars_resolve_to_exactly_their_dates(days):
    assert calendar_problems(SEMESTER, days) == []
    resolved = calendar_resolve(SEMESTER, days)
    expected_suspended = {on for d in days for on in d.dates()}
    assert {d.on for d in resolved.days.values() if d.suspended} == expected_suspended
    for day in resolved.days.values():
        assert SEMESTER.week_day_of(day.on) == (day.week, day.day)
        if day.runs is not None:  # a make-up day never runs a suspended day
            assert SEMESTER.date_of(*day.runs) not in expected_suspended
    assert len(resolved.makeup_positions()) == sum(1 for d in days if d.kind == DayKind.MAKEUP)
    assert calendar_resolve(SEMESTER, days, follows=False).suspended_positions() == frozenset()


def test_the_usual_makeup_runs_a_holidays_classes():
    """"10 月 10 日（周六）补 10 月 1 日（周四）的课": the holiday stays off, Saturday runs its Thursday."""
    saturday = CalendarDay(DayKind.MAKEUP, "调休", date(2026, 10, 10), date(2026, 10, 10), runs_week=4, runs_day=4)
    resolved = calendar_resolve(SEMESTER, [NATIONAL_DAY, saturday])
    assert resolved.day(date(2026, 10, 1)).suspended
    assert resolved.makeup_positions() == {(5, 6): (4, 4)}
