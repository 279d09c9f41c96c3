"""Tomorrow, the evening before: courses with the school calendar applied (a make-up Sunday runs Friday's, a
holiday has none), study blocks, deadlines and exams, shown from the student's chosen time on."""

from __future__ import annotations

from datetime import date, datetime, time

import pytest
from django.utils import translation

from schedule.exams.models import Exam
from schedule.exams.services import preview_time_set
from schedule.services.academic_calendar import DayInput, calendar_day_create, school_calendar_switch
from schedule.tests.factories import import_csv
from taskclasses.tests.factories import SHANGHAI, make_task, make_task_class, place_item
from taskclasses.tomorrow import tomorrow_notice_text, tomorrow_preview, tomorrow_preview_due


@pytest.fixture
def school_calendar(user):
    """Physics on Fridays, maths on Mondays; National Day week off, Sunday 2026-10-11 runs week 5's Friday."""
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,1-16", "大学物理,5,3,4,李老师,二教1201,1-16")
    calendar_day_create(user=user, day=DayInput("holiday", "国庆节", date(2026, 10, 1), date(2026, 10, 7)))
    calendar_day_create(user=user, day=DayInput("makeup", "调休", date(2026, 10, 11), date(2026, 10, 11), 5, 5))
    school_calendar_switch(user=user, follows=True)
    return user


def test_a_makeup_sunday_runs_fridays_courses(school_calendar):
    preview = tomorrow_preview(user=school_calendar, today=date(2026, 10, 10))
    assert preview.on == date(2026, 10, 11) and (preview.week, preview.day) == (5, 7)
    assert preview.headline == "Tomorrow runs the classes of week 5, Friday."
    assert [e.title for e in preview.courses] == ["大学物理"]
    with translation.override("zh-hans"):
        preview = tomorrow_preview(user=school_calendar, today=date(2026, 10, 10))
        assert preview.headline == "明天按第 5 周周五上课。"
        assert tomorrow_notice_text(preview) == "明天按第 5 周周五上课。 课程 1 · 学习块 0 · 截止 0 · 考试 0"


def test_a_holiday_has_no_courses_and_says_so(school_calendar):
    preview = tomorrow_preview(user=school_calendar, today=date(2026, 9, 30))
    assert preview.holiday and preview.courses == []
    assert preview.headline == "Tomorrow is a holiday (国庆节)."
    with translation.override("zh-hans"):
        assert tomorrow_preview(user=school_calendar, today=date(2026, 9, 30)).headline == "明天放假（国庆节）。"


def test_an_ordinary_day_lists_courses_blocks_deadlines_and_exams(user):
    import_csv(user, "高等数学,2,1,2,王老师,二教1101,1-16")
    task_class = make_task_class(user, items=1)
    place_item(task_class.items.get(), week=3, day=2, start=5)          # Tuesday 2026-09-22
    make_task(user, title="交实验报告", deadline=datetime(2026, 9, 22, 18, 0, tzinfo=SHANGHAI))
    make_task(user, title="后天的", deadline=datetime(2026, 9, 23, 9, 0, tzinfo=SHANGHAI))
    make_task(user, title="已完成", deadline=datetime(2026, 9, 22, 9, 0, tzinfo=SHANGHAI), completed=True)
    Exam.objects.create(user=user, title="英语口语", date=date(2026, 9, 22), start_time=time(14), end_time=time(15))
    preview = tomorrow_preview(user=user, today=date(2026, 9, 21))
    assert preview.headline == "" and not preview.holiday
    assert [e.title for e in preview.courses] == ["高等数学"]
    assert [e.task_item.content for e in preview.blocks] == ["概率论复习 #1"]
    assert [t.title for t in preview.deadlines] == ["交实验报告"]
    assert [e.title for e in preview.exams] == ["英语口语"]


def test_the_preview_shows_from_the_students_time_on(user):
    evening = datetime(2026, 9, 21, 19, 59, tzinfo=SHANGHAI)
    assert tomorrow_preview_due(user=user, now=evening) is None
    shown = tomorrow_preview_due(user=user, now=datetime(2026, 9, 21, 20, 0, tzinfo=SHANGHAI))
    assert shown is not None and shown.on == date(2026, 9, 22)
    preview_time_set(user=user, preview_after=time(18, 30))
    assert tomorrow_preview_due(user=user, now=datetime(2026, 9, 21, 18, 45, tzinfo=SHANGHAI)) is not None


def test_outside_the_semester_there_are_no_courses(user):
    preview = tomorrow_preview(user=user, today=date(2027, 3, 1))
    assert preview.week is None and preview.courses == [] and preview.is_empty
