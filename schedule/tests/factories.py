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


def make_task_class(user: User, *, name: str = "概率论复习", items: int = 4, strategy: str = "steady",
                    start=None, end=None, excluded_pairs=(), excluded_days=(), allow_filler: bool = True):
    """Create a study plan with ``items`` blocks named "<name> #n" (default window: weeks 3-4)."""
    from datetime import date

    from taskclasses.models import TaskClass, TaskItem

    task_class = TaskClass.objects.create(
        user=user, name=name, strategy=strategy, start_date=start or date(2026, 9, 21),
        end_date=end or date(2026, 10, 4), excluded_pairs=list(excluded_pairs), excluded_days=list(excluded_days),
        allow_filler=allow_filler)
    TaskItem.objects.bulk_create(TaskItem(task_class=task_class, order=n, content=f"{name} #{n}")
                                 for n in range(1, items + 1))
    return task_class
