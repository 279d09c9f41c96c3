"""The read tools name the student's rules, pins and the school calendar when those are why a time is not
offered or a block cannot move (get_overview, query_available_slots)."""

from __future__ import annotations

from datetime import date

from agent.tests.tools.conftest import item_entry, load_working
from agent.tools.get_overview import TOOL as OVERVIEW
from agent.tools.query_available_slots import TOOL as SLOTS
from schedule.models import CalendarDay
from schedule.services.academic_calendar import DayInput, calendar_days_add, school_calendar_switch
from schedule.student_rules.models import StudyRules
from taskclasses.models import TaskItem
from taskclasses.tests.factories import place_item

LUNCH = {"name": "午饭", "first": 5, "last": 5, "days": [1, 2, 3, 4, 5, 6, 7]}


def _ruled_working(plan):
    user = plan.user
    first = plan.items.order_by("order").first()
    place_item(first, week=3, day=2, start=7)
    TaskItem.objects.filter(pk=first.pk).update(status=TaskItem.Status.PLACED)
    StudyRules.objects.create(user=user, daily_cap=2, latest_section=10, protected_times=[LUNCH],
                              pinned_items=[first.pk])
    school_calendar_switch(user=user, follows=True)
    calendar_days_add(user=user, days=[
        DayInput(kind=CalendarDay.Kind.HOLIDAY, name="国庆节", first_date=date(2026, 10, 1),
                 last_date=date(2026, 10, 3)),
        DayInput(kind=CalendarDay.Kind.MAKEUP, name="国庆调休", first_date=date(2026, 9, 27),
                 last_date=date(2026, 9, 27), runs_week=3, runs_day=5)])
    return load_working(user, [plan.pk])


def test_the_overview_names_the_rules_the_pins_and_the_calendar(plan, ctx):
    working = _ruled_working(plan)
    content = OVERVIEW.run({}, ctx, working).content
    assert "每天最多 2 个学习块" in content and "学习块最晚到第 10 节结束" in content
    assert "保护时段「午饭」第5节（每天）" in content or "保护时段「午饭」" in content
    assert "已固定的块" in content and "概率论复习 #1" in content
    assert "是假日「国庆节」：课程停上" in content, content
    assert "是调休日：按第 3 周周五上课" in content, content


def test_the_free_time_search_says_a_pin_and_the_rules_keep_times_out(plan, ctx):
    working = _ruled_working(plan)
    pinned = item_entry(working, 1)
    result = SLOTS.run({"task_id": pinned.id, "date": "2026-10-01"}, ctx, working)
    assert "已固定：在学生取消固定之前不能移动" in result.content
    assert "保护时段「午饭」" in result.content and "是假日「国庆节」" in result.content


def test_without_rules_nothing_is_added(working, ctx):
    content = OVERVIEW.run({}, ctx, working).content
    assert "学生的规则" not in content and "已固定" not in content and "假日" not in content
