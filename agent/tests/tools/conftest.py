"""Fixtures of the tool tests: a student with a timetable, a study plan, a clock and a loaded board."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from agent.flow.working import Working
from agent.tools.support.base import ToolContext
from agent.tools.support.working_schedule import working_load
from schedule.core.board import Board, Entry, Kind, Position
from schedule.models import Course
from schedule.tests.factories import custom_event, import_csv, make_task_class

# Monday of week 2 (2026-09-14), 07:00; the plan's window is weeks 3-4 (2026-09-21 .. 2026-10-04).
NOW = datetime(2026, 9, 14, 7, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
WEEK3_MON, WEEK3_TUE, WEEK3_THU, WEEK3_FRI = "2026-09-21", "2026-09-22", "2026-09-24", "2026-09-25"


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch) -> datetime:
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    return NOW


@pytest.fixture
def timetable(user):
    """Week 3: 高等数学 Mon 1-2 (a course), 形势与政策 Tue 1-2 (a filler course), 社团活动 Tue 5-6 (custom)."""
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,3", "形势与政策,2,1,2,赵立新,二教1102,3")
    Course.objects.filter(user=user, name="形势与政策").update(is_filler=True)
    custom_event(user, title="社团活动", week=3, day=2, start=5, end=6)
    return user


@pytest.fixture
def plan(timetable):
    return make_task_class(timetable, name="概率论复习", items=4, start=date(2026, 9, 21), end=date(2026, 10, 4))


def make_ctx(user, *, call_id: str = "call-1", allow_reorder: bool = False, task_class_ids=()) -> ToolContext:
    return ToolContext(user_id=user.pk, conversation_id=1, call_id=call_id, now=NOW,
                       task_class_ids=tuple(task_class_ids), allow_reorder=allow_reorder)


@pytest.fixture
def ctx(user):
    return make_ctx(user)


def load_working(user, class_ids=()) -> Working:
    """The working schedule loaded at NOW."""
    return working_load(user=user, now=NOW, task_class_ids=list(class_ids))


@pytest.fixture
def working(plan):
    return load_working(plan.user, [plan.pk])


def board_of(working: Working) -> Board:
    return working.board


def entry_named(working: Working, name: str) -> Entry:
    return next(e for e in board_of(working).entries if e.name == name)


def item_entry(working: Working, order: int) -> Entry:
    return next(e for e in board_of(working).entries if e.kind is Kind.STUDY and e.order == order)


def at(day: str, start: int, end: int | None = None, host: int | None = None) -> Position:
    return Position(date.fromisoformat(day), start, start + 1 if end is None else end, host)
