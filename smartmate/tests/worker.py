"""A real Celery worker child process for tests marked ``worker`` (and for ``bench.outbox_bench``)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def worker_start(*, log: IO[bytes], database_name: str | None = None, pool: str = "solo",
                 name: str | None = None) -> subprocess.Popen:
    """Start ``celery worker`` on every queue; ``database_name`` points it at a test database."""
    env = dict(os.environ)
    if database_name:
        env["DATABASE_NAME_OVERRIDE"] = database_name
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "smartmate", "worker", f"--pool={pool}", "-Q", "default,agent,memory",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO",
         "-n", name or f"test-{os.getpid()}@%h"],
        cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )


def worker_stop(process: subprocess.Popen) -> None:
    """Stop a worker warmly (its unfinished task goes back to the queue), or kill it after 15 s."""
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture
def celery_worker_process(transactional_db, tmp_path) -> Iterator[subprocess.Popen]:
    """Start ``celery worker --pool=solo`` on the test database; stop it afterwards."""
    from django.conf import settings
    from django.db import connection

    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("no broker configured: the real-worker tests run in the MariaDB + Redis CI pass")
    with open(tmp_path / "worker.log", "wb") as log:
        process = worker_start(log=log, database_name=str(connection.settings_dict["NAME"]))
        time.sleep(0.5)
        try:
            yield process
        finally:
            worker_stop(process)
