"""Fixtures of the assistant's tests."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

# Monday of week 2 of the default semester, 07:00: study plans in weeks 3-4 are ahead.
WEEK_TWO_MONDAY = datetime(2026, 9, 14, 7, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


@pytest.fixture
def week_two(monkeypatch) -> datetime:
    """Freeze the clock (for the turn threads too) at Monday of week 2, 07:00."""
    monkeypatch.setattr("django.utils.timezone.now", lambda: WEEK_TWO_MONDAY)
    return WEEK_TWO_MONDAY


@pytest.fixture(autouse=True)
def _no_turn_left_running():
    """Stop the embedded turn pool after each test; fail one that leaves a turn running (it would write
    into the next test's database)."""
    yield
    from agent import embedded_turns

    assert embedded_turns.shutdown(timeout=20), "a turn thread was still running after the test"
