"""Warm start: a fresh server loads the model client, the embedder and the vector store before any turn."""

from __future__ import annotations

import time

import pytest

from smartmate.tests.live_server import daphne_serving
from smartmate.warmup import warm_start_enabled


def test_the_test_suite_runs_without_warm_start():
    assert not warm_start_enabled()


@pytest.mark.django_db(transaction=True)
def test_a_fresh_server_warms_up_before_the_first_student(tmp_path):
    from django.db import connection

    log = tmp_path / "daphne.log"
    env = {"SMARTMATE_WARM_START": "1", "SMARTMATE_VAR_DIR": str(tmp_path), "LLM_BASE_URL": "http://127.0.0.1:9/v1",
           "LLM_API_KEY": "test"}
    with daphne_serving(str(connection.settings_dict["NAME"]), log, extra_env=env):
        deadline = time.monotonic() + 60
        while "Warm start done" not in log.read_text(errors="replace") and time.monotonic() < deadline:
            time.sleep(0.2)
    line = next(line for line in log.read_text(errors="replace").splitlines() if "Warm start done" in line)
    for step in ("database", "llm client", "embedder", "vector store"):
        assert f"{step} " in line, line
