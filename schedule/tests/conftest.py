"""Schedule test fixtures."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

# Monday of week 2 of the factory semester, 07:00: the factories' study windows (weeks 3-4) lie ahead.
BEFORE_WEEK_THREE = datetime(2026, 9, 14, 7, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


@pytest.fixture
def before_week_three(monkeypatch) -> datetime:
    """Freeze the clock before the factories' planning windows (the planner never plans the past)."""
    monkeypatch.setattr("django.utils.timezone.now", lambda: BEFORE_WEEK_THREE)
    return BEFORE_WEEK_THREE
