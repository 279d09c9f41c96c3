"""Test data builders for quick notes."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from taskclasses.models import Task

SHANGHAI = ZoneInfo("Asia/Shanghai")
# Wednesday of week 13 of the factory semester (week 1 starts 2026-09-07).
NOW = datetime(2026, 12, 2, 10, 15, tzinfo=SHANGHAI)


def make_task(user, *, title: str = "交概率论作业", quadrant: int = 2, deadline: datetime | None = None,
              threshold: datetime | None = None, completed: bool = False) -> Task:
    return Task.objects.create(
        user=user, title=title, quadrant=quadrant, deadline=deadline,
        urgency_threshold_at=threshold if threshold is not None else (deadline - timedelta(hours=48) if deadline else None),
        completed=completed, completed_at=NOW if completed else None,
    )
