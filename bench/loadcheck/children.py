"""The load check's daphne servers and Celery workers, on 127.0.0.1 (Redis and the fake model, and the
helpers that start and stop any child, are the topology's: ``bench.topology.processes``)."""

from __future__ import annotations

import secrets
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

from bench.loadcheck import LoadConfig
from bench.topology.processes import HOST, REPO_ROOT, daphne_command, free_port, log_tail, stopping, wait_for_port


def start_daphnes(stack: ExitStack, config: LoadConfig, env: dict[str, str], folder: Path) -> list[str]:
    """Start ``config.servers`` daphne processes; return their http:// base URLs."""
    started = []
    for index in range(config.servers):
        port, log_path = free_port(), folder / f"daphne-{index}.log"
        log = stack.enter_context(open(log_path, "wb"))
        # Twisted listens with a backlog of 50 unless told otherwise: hundreds of students connecting in the
        # same instant overflow it and some connections are reset. A deployment behind a proxy sees few new
        # connections; one facing clients directly needs the larger backlog too.
        # Daphne also rejects a websocket whose handshake the app has not accepted within 5 s, which a burst of
        # connects on one process (ticket redeemed in the database, group joined in Redis) passes.
        process = subprocess.Popen(daphne_command(port), cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        stack.enter_context(stopping(process))
        started.append((port, process, log_path))
    for port, process, log_path in started:
        wait_for_port(port, process, timeout=60, what="daphne", log=log_path)
    return [f"http://{HOST}:{port}" for port, _process, _log in started]


def start_workers(stack: ExitStack, config: LoadConfig, env: dict[str, str], folder: Path) -> list[str]:
    """Start ``config.workers`` Celery workers on every queue; wait until each answers a ping; return their names."""
    from smartmate.celery import app

    names = []
    for index in range(config.workers):
        name = f"loadcheck-{secrets.token_hex(3)}-{index}@{socket.gethostname()}"
        log_path = folder / f"worker-{index}.log"
        log = stack.enter_context(open(log_path, "wb"))
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "smartmate", "worker", "-Q", "default,agent,memory",
             f"--pool={config.worker_pool}", f"--concurrency={config.worker_concurrency}", "--without-gossip",
             "--without-mingle", "--without-heartbeat", "--loglevel=WARNING", "-n", name],
            cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        stack.enter_context(stopping(process, grace=30))
        names.append((name, process, log_path))
    deadline = time.monotonic() + 90
    for name, process, log_path in names:
        while not app.control.ping(destination=[name], timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"The load check's Celery worker {name} did not start{log_tail(log_path)}")
    return [name for name, _process, _log in names]
