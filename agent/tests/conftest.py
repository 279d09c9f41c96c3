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


@pytest.fixture(scope="module")
def chat_server(django_db_setup, django_db_blocker, tmp_path_factory):
    """A daphne child whose model is a fake LLM in this process, in embedded mode (turns in threads), for
    the chat page tests; yields (base URL, the fake)."""
    import urllib.request

    from django.db import connection

    from bench.fake_model import FakeLLMServer
    from smartmate.tests.live_server import daphne_serving

    with django_db_blocker.unblock():
        database_name = str(connection.settings_dict["NAME"])
    fake = FakeLLMServer().start()
    # The child reads its settings from the environment: point it at the fake, and keep it embedded
    # even in the Redis CI pass (no Celery worker runs beside these tests). Automatic titles and memory
    # extraction are off: their model calls would take scripted replies meant for the next turn.
    extra_env = {"LLM_BASE_URL": fake.base_url, "LLM_API_KEY": "test", "REDIS_URL": "", "CELERY_BROKER_URL": "",
                 "AGENT_AUTO_TITLES": "false", "MEMORY_ENABLED": "false"}
    try:
        with daphne_serving(database_name, tmp_path_factory.mktemp("chat") / "daphne.log", extra_env) as base_url:
            # Warm it up (the first request loads templates and URLconfs) so a busy machine does not eat
            # into the page's own timeouts.
            urllib.request.urlopen(f"{base_url}/accounts/login/", timeout=60).close()
            yield base_url, fake
    finally:
        fake.stop()
