"""Fixtures of the assistant's tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_turn_left_running():
    """Fail a test that leaves a turn thread running (it would write into the next test's database)."""
    yield
    from agent.services import turn_threads_join

    assert turn_threads_join(timeout=20), "a turn thread was still running after the test"
