"""The workload view: per-day load on the week board, study hours per week on the dashboard."""

from __future__ import annotations

from datetime import date

import pytest
from django.utils import timezone

from board.planning import preview_create
from board.previews import preview_apply
from board.workload import study_chart, week_strip
from schedule.tests.factories import custom_event, import_csv, make_task_class

pytestmark = pytest.mark.usefixtures("before_week_three")

WEEK3 = tuple(date(2026, 9, 21 + n) for n in range(7))
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def _full_tuesday(user):
    """Week 3's Tuesday: courses at 1-2, 3-4, 5-6 and the student's own event at 7-8 (8 of 12 sections)."""
    import_csv(user, "高等数学,2,1,2,王老师,二教1101,3", "大学物理,2,3,4,李老师,二教1102,3",
               "线性代数,2,5,6,张老师,二教1103,3")
    custom_event(user, title="社团活动", week=3, day=2, start=7, end=8)


def test_the_strip_counts_courses_events_and_study_blocks_per_day(user):
    _full_tuesday(user)
    plan = make_task_class(user, items=2, end=date(2026, 9, 27))  # both blocks in week 3
    preview_apply(user=user, preview_id=preview_create(user=user, task_class_ids=[plan.pk]).pk)
    strip = week_strip(user=user, dates=WEEK3, now=timezone.now())
    tuesday = strip.days[1]
    assert (tuesday.load.course, tuesday.load.event, tuesday.busy, tuesday.heavy) == (6, 2, 8, True)
    assert sum(day.load.study for day in strip.days) == 4 and strip.heavy_count == 1
    assert [s.kind for s in tuesday.segments] == ["course", "event"] and tuesday.segments[-1].y == pytest.approx(
        100 - 800 / 12, abs=0.01)


def test_an_open_previews_blocks_count_on_the_strip(user):
    plan = make_task_class(user, items=3)
    preview = preview_create(user=user, task_class_ids=[plan.pk])
    shown = week_strip(user=user, dates=WEEK3, now=timezone.now(), preview_id=preview.pk)
    stored = week_strip(user=user, dates=WEEK3, now=timezone.now())
    suggested_here = sum(1 for p in preview.placements if p["week"] == 3)
    assert sum(d.load.study for d in shown.days) == 2 * suggested_here and sum(d.load.study for d in stored.days) == 0


def test_the_week_board_shows_the_strip_in_chinese_with_the_heavy_day_marked(client, user):
    _full_tuesday(user)
    client.force_login(user)
    html = client.get("/board/?week=3", **ZH).content.decode()
    assert html.count('data-test="workload-day"') == 7
    assert 'data-date="2026-09-22" data-busy="8" data-heavy="1"' in html
    assert "每日负荷" in html and "1 天偏满" in html and "偏满</span>" in html and "周二" in html


def test_another_students_preview_id_adds_nothing(client, user, other_user):
    theirs = preview_create(user=other_user, task_class_ids=[make_task_class(other_user, items=3).pk])
    strip = week_strip(user=user, dates=WEEK3, now=timezone.now(), preview_id=theirs.pk)
    assert all(day.busy == 0 for day in strip.days)


def test_the_chart_stacks_study_hours_per_week_by_class(user):
    plans = [make_task_class(user, name=name, items=2) for name in ("概率论复习", "英语")]
    for plan in plans:
        preview_apply(user=user, preview_id=preview_create(user=user, task_class_ids=[plan.pk]).pk)
    chart = study_chart(user=user, now=timezone.now())
    assert [c.name for c in chart.classes] == ["概率论复习", "英语"]
    assert [c.hours for c in chart.classes] == [3.0, 3.0]  # two blocks of two 45-minute sections each
    assert len(chart.bars) == 20 and sum(bar.hours for bar in chart.bars) == 6.0


def test_the_dashboard_shows_the_chart_or_says_there_is_nothing_yet(client, user):
    client.force_login(user)
    assert 'data-test="workload-chart-empty"' in client.get("/", **ZH).content.decode()
    plan = make_task_class(user, items=2)
    preview_apply(user=user, preview_id=preview_create(user=user, task_class_ids=[plan.pk]).pk)
    html = client.get("/", **ZH).content.decode()
    assert "每周学习时间" in html and html.count('data-test="workload-week"') == 20
    assert 'data-test="workload-class"' in html and "概率论复习" in html
