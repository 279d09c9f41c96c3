"""A real Celery worker child process for tests marked ``worker``."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def celery_worker_process(transactional_db, tmp_path) -> Iterator[subprocess.Popen]:
    """Start ``celery worker --pool=solo`` on the test database; stop it afterwards."""
    from django.conf import settings
    from django.db import connection

    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("no broker configured: the real-worker tests run in the MariaDB + Redis CI pass")
    env = {**os.environ, "DATABASE_NAME_OVERRIDE": str(connection.settings_dict["NAME"])}
    log = open(tmp_path / "worker.log", "wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "smartmate", "worker", "--pool=solo", "-Q", "default,agent,memory",
         "--without-gossip", "--without-mingle", "--loglevel=INFO", "-n", f"test-{os.getpid()}@%h"],
        cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    time.sleep(0.5)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
