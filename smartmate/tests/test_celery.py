"""Celery runs eagerly on embedded defaults and on a real worker when a broker is configured."""

from __future__ import annotations

import os

import pytest

from smartmate.tasks import ping


def test_tasks_run_in_process_on_embedded_defaults(db):
    result = ping.delay().get(timeout=5)
    assert result["pong"] is True
    assert result["pid"] == os.getpid()


@pytest.mark.worker
def test_a_real_worker_process_runs_a_task_against_the_test_database(celery_worker_process):
    result = ping.apply_async(queue="default").get(timeout=60)
    assert result["pong"] is True
    assert result["pid"] != os.getpid()
    assert result["database"] in {"mysql", "sqlite"}
