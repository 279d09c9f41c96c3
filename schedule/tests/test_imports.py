"""Timetable import through the service: all or nothing, dry runs, clashes and re-imports."""

from __future__ import annotations

from datetime import date

import pytest
from django.utils import translation

from schedule.exceptions import ImportRejectedError, ImportTooComplexError
from schedule.models import CalendarDay, Course, ScheduleEvent, ScheduleSlot
from schedule.services import imports
from schedule.services.academic_calendar import DayInput, calendar_day_create, school_calendar_switch
from schedule.services.feeds import schedule_ics_build
from schedule.services.imports import timetable_import
from schedule.tests.factories import DEMO_CSV, csv_bytes, custom_event, import_csv


def test_importing_the_demo_csv_fills_sixteen_weeks(user):
    outcome = timetable_import(user=user, data=DEMO_CSV.read_bytes(), fmt="csv")
    assert outcome.created_courses == Course.objects.filter(user=user).count() == 21
    assert outcome.created_events == ScheduleEvent.objects.filter(user=user).count()
    per_week = [ScheduleSlot.objects.filter(user=user, week=w).count() for w in range(1, 17)]
    assert all(20 <= n <= 30 for n in per_week), per_week


def test_an_odd_week_course_meets_only_in_odd_weeks(user):
    import_csv(user, "离散数学,1,5,6,黄磊,二教3306,1-16单")
    weeks = sorted(ScheduleEvent.objects.filter(user=user).values_list("week", flat=True))
    assert weeks == [1, 3, 5, 7, 9, 11, 13, 15]


def test_events_carry_absolute_times_in_the_students_zone(user):
    import_csv(user, "高等数学A(下),1,1,2,王建华,二教2305,1")
    event = ScheduleEvent.objects.get(user=user)
    assert event.starts_at.isoformat() == "2026-09-07T00:00:00+00:00"  # 08:00 in Shanghai
    assert event.ends_at.isoformat() == "2026-09-07T01:40:00+00:00"    # 09:40 in Shanghai


def test_a_dry_run_reports_and_writes_nothing(user):
    outcome = timetable_import(user=user, data=csv_bytes("线性代数,2,1,2,陈志强,二教2412,1-16"), fmt="csv",
                               dry_run=True)
    assert [(c.name, c.new_meetings) for c in outcome.courses] == [("线性代数", 16)]
    assert not ScheduleEvent.objects.exists() and not Course.objects.exists()


def test_a_bad_row_rejects_the_whole_file_with_each_problem(user):
    with pytest.raises(ImportRejectedError) as error:
        import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-16", "大学物理,9,3,4,刘海燕,二教3108,1-16",
                   "体育,3,13,14,孙伟,操场,1-16")
    problems = error.value.detail["problems"]
    assert {(p["row"], p["code"]) for p in problems} == {(3, "invalid_day"), (4, "unknown_section")}
    assert not ScheduleEvent.objects.exists()


def test_rows_at_the_same_time_are_both_imported_side_by_side_with_a_notice(user):
    rows = csv_bytes("线性代数,2,1,2,陈志强,二教2412,1-16", "大学物理,2,2,3,刘海燕,二教3108,3-4")
    with translation.override("zh-hans"):
        preview = timetable_import(user=user, data=rows, fmt="csv", dry_run=True)
    (physics,) = [c for c in preview.courses if c.name == "大学物理"]
    assert physics.beside and physics.notices == (
        "大学物理与线性代数同时上课（周二，第 2–3 节），在第 3-4 周；两门都保留，并排显示。",)
    timetable_import(user=user, data=rows, fmt="csv")  # nothing left out: no consent needed
    beside = ScheduleEvent.objects.filter(user=user, title="大学物理")
    assert [(e.week, e.beside) for e in beside.order_by("week")] == [(3, True), (4, True)]
    assert not ScheduleSlot.objects.filter(event__in=beside).exists()  # 线性代数 keeps its sections
    assert ScheduleSlot.objects.filter(user=user, week=3, day=2).count() == 2


def test_importing_side_by_side_meetings_again_creates_nothing(user):
    rows = csv_bytes("线性代数,2,1,2,陈志强,二教2412,1-16", "大学物理,2,2,3,刘海燕,二教3108,3-4")
    timetable_import(user=user, data=rows, fmt="csv")
    again = timetable_import(user=user, data=rows, fmt="csv", dry_run=True)
    assert again.created_events == 0 and again.skipped_existing == 18


def test_a_clash_with_an_existing_event_names_it(user):
    custom_event(user, title="社团活动", week=3, day=2, start=1, end=2)
    with pytest.raises(ImportRejectedError) as error:
        import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-16")
    problem = error.value.detail["problems"][0]
    assert problem["code"] == "clash_with_existing"
    assert "社团活动" in problem["message"]
    assert ScheduleEvent.objects.filter(user=user).count() == 1


def test_problems_are_translated_into_chinese(user):
    from django.utils import translation

    with translation.override("zh-hans"), pytest.raises(ImportRejectedError) as error:
        import_csv(user, "大学物理,9,3,4,刘海燕,二教3108,1-16")
    assert error.value.message == "课表未导入：有 1 个问题需要修改。"
    assert "不是星期几" in error.value.detail["problems"][0]["message"]


def test_a_week_outside_the_semester_is_translated_into_chinese(user):
    from django.utils import translation

    with translation.override("zh-hans"), pytest.raises(ImportRejectedError) as error:
        import_csv(user, "线性代数,2,1,2,陈志强,二教2412,0-16")
    assert error.value.detail["problems"][0]["message"] == "第 0 周不在学期内（本学期共 20 周）。"


def test_importing_the_same_file_twice_adds_nothing(user):
    first = timetable_import(user=user, data=DEMO_CSV.read_bytes(), fmt="csv")
    second = timetable_import(user=user, data=DEMO_CSV.read_bytes(), fmt="csv")
    assert second.created_events == 0 and second.created_courses == 0
    assert second.skipped_existing == first.created_events


def test_reimporting_an_exported_ics_creates_no_duplicates(user):
    timetable_import(user=user, data=DEMO_CSV.read_bytes(), fmt="csv")
    events_before = ScheduleEvent.objects.filter(user=user).count()
    outcome = timetable_import(user=user, data=schedule_ics_build(user=user), fmt="ics")
    assert outcome.created_events == 0
    assert outcome.skipped_existing == events_before
    assert ScheduleEvent.objects.filter(user=user).count() == events_before


def test_another_students_timetable_does_not_clash(user, other_user):
    import_csv(other_user, "线性代数,2,1,2,陈志强,二教2412,1-16")
    assert import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-16").created_events == 16


def test_a_file_with_more_than_200_problems_lists_200_and_counts_them_all(user):
    rows = [f"高数{i},9,1,2,王,A101,1-16" for i in range(250)]  # every row names a day that is not one
    with pytest.raises(ImportRejectedError) as error:
        import_csv(user, *rows)
    detail = error.value.detail
    assert (len(detail["problems"]), detail["problem_count"], detail["problems_not_listed"]) == (200, 250, 50)
    assert [p["row"] for p in detail["problems"]] == list(range(2, 202))
    assert error.value.message.startswith("The timetable was not imported: 250 problems to fix")


def test_a_file_with_few_problems_lists_them_all(user):
    with pytest.raises(ImportRejectedError) as error:
        import_csv(user, "大学物理,9,3,4,刘海燕,二教3108,1-16")
    assert (error.value.detail["problem_count"], error.value.detail["problems_not_listed"]) == (1, 0)
    assert error.value.message == "The timetable was not imported: 1 problem to fix."


def test_an_import_past_its_cpu_budget_is_refused_and_writes_nothing(user, settings, monkeypatch):
    ticks = iter(range(1_000_000))
    monkeypatch.setattr(imports, "cpu_clock", lambda: float(next(ticks)))  # one second per look
    settings.IMPORT_CPU_SECONDS = 5
    with pytest.raises(ImportTooComplexError) as error:
        timetable_import(user=user, data=DEMO_CSV.read_bytes(), fmt="csv")
    assert error.value.status == 422 and error.value.detail == {"cpu_seconds_limit": 5}
    assert error.value.message == ("The timetable is too complex to check: reading it took more than 5 seconds of "
                                   "processing. Split it into smaller files or remove repeated rows.")
    assert not Course.objects.exists() and not ScheduleEvent.objects.exists()


def test_a_holiday_sets_side_by_side_meetings_aside_and_brings_both_back(user):
    # Week 5's Tuesday is 2026-10-06, inside the National Day holiday.
    import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-16", "大学物理,2,1,2,刘海燕,二教3108,5")
    school_calendar_switch(user=user, follows=True)
    calendar_day_create(user=user, day=DayInput(CalendarDay.Kind.HOLIDAY, "国庆节", date(2026, 10, 1),
                                                date(2026, 10, 7)))
    assert not ScheduleEvent.objects.filter(user=user, week=5, day=2).exists()
    school_calendar_switch(user=user, follows=False)
    back = ScheduleEvent.objects.filter(user=user, week=5, day=2).order_by("title")
    assert [(e.title, e.beside) for e in back] == [("大学物理", True), ("线性代数", False)]
    assert ScheduleSlot.objects.filter(user=user, week=5, day=2).count() == 2


def test_a_makeup_day_copies_side_by_side_meetings_of_the_holiday_it_makes_up(user):
    # The holiday's Tuesday 2026-10-06 is made up on Saturday 2026-10-10 (week 5, day 6).
    import_csv(user, "线性代数,2,1,2,陈志强,二教2412,1-16", "大学物理,2,1,2,刘海燕,二教3108,5")
    school_calendar_switch(user=user, follows=True)
    calendar_day_create(user=user, day=DayInput(CalendarDay.Kind.HOLIDAY, "国庆节", date(2026, 10, 1),
                                                date(2026, 10, 7)))
    calendar_day_create(user=user, day=DayInput(CalendarDay.Kind.MAKEUP, "调休", date(2026, 10, 10),
                                                date(2026, 10, 10), 5, 2))
    copies = ScheduleEvent.objects.filter(user=user, week=5, day=6).order_by("title")
    assert [(e.title, e.beside) for e in copies] == [("大学物理", True), ("线性代数", False)]
    assert ScheduleSlot.objects.filter(user=user, week=5, day=6).count() == 2
