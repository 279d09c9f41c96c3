"""Test data builders for the schedule."""

from __future__ import annotations

from pathlib import Path

from accounts.models import User
from schedule.models import ScheduleEvent
from schedule.services.events import Span, event_create
from schedule.services.imports import timetable_import

DEMO_CSV = Path(__file__).resolve().parents[1] / "demo_data" / "demo_timetable.csv"
HEADER = "课程名称,星期,开始节数,结束节数,老师,地点,周数\n"


def csv_bytes(*rows: str) -> bytes:
    """Return a WakeUp CSV with the standard header and the given rows."""
    return (HEADER + "\n".join(rows) + "\n").encode("utf-8")


def import_csv(user: User, *rows: str):
    return timetable_import(user=user, data=csv_bytes(*rows), fmt="csv")


def custom_event(user: User, *, title: str = "社团活动", week: int = 3, day: int = 2, start: int = 5,
                 end: int = 6) -> ScheduleEvent:
    return event_create(user=user, title=title, span=Span(week, day, start, end))
