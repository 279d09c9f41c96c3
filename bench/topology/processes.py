"""Child processes on 127.0.0.1 for running the product as separate processes: Redis, the fake model,
daphne servers, with the environment they share. The topology starts them; the load check and the
benchmarks reuse them.

Each is started inside an ``ExitStack`` that stops it (terminate, then kill after a grace period),
so a failed or interrupted run leaves nothing behind.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

HOST = "127.0.0.1"
REPO_ROOT = Path(__file__).resolve().parents[2]
LISTEN_BACKLOG = 1024  # the kernel caps it at net.core.somaxconn (4096 here)
WS_CONNECT_TIMEOUT = 30  # seconds; daphne's default is 5


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, *, timeout: float, what: str, log: Path | None = None) -> None:
    """Wait until ``process`` listens on ``port``; raise with the tail of its log if it dies or takes too long."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited early with code {process.returncode}{log_tail(log)}")
        try:
            with socket.create_connection((HOST, port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {HOST}:{port} within {timeout:.0f} s{log_tail(log)}")


def log_tail(log: Path | None) -> str:
    if log is None or not log.exists():
        return ""
    return f"\n--- {log} ---\n{log.read_text(errors='replace')[-3000:]}"


@contextmanager
def stopping(process: subprocess.Popen, grace: float = 15.0) -> Iterator[subprocess.Popen]:
    """Yield ``process``; terminate it afterwards (kill it after ``grace`` seconds)."""
    try:
        yield process
    finally:
        terminate_and_wait(process, grace)


def terminate_and_wait(process: subprocess.Popen, grace: float) -> None:
    """SIGTERM ``process`` (if it still runs) and wait for it; kill it after ``grace`` seconds."""
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def start_redis(stack: ExitStack, folder: Path) -> str:
    """Run a private, unpersisted redis-server on a free port; return its URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("REDIS_URL is not set and redis-server is missing: apt-get install redis-server, "
                           "or start the services with `bash .ci/services.sh` and set REDIS_URL.")
    port = free_port()
    log = folder / "redis.log"
    process = subprocess.Popen([binary, "--bind", HOST, "--port", str(port), "--save", "", "--appendonly", "no",
                                "--dir", str(folder), "--logfile", str(log)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.STDOUT)
    stack.enter_context(stopping(process, grace=5))
    wait_for_port(port, process, timeout=30, what="redis-server", log=log)
    return f"redis://{HOST}:{port}/0"


def fallback_reply(answer_chars: int) -> dict:
    """The fake's one reply to every call: a route object the router accepts, padded to about ``answer_chars``.

    The route stage reads it as "reply"; the answer stage streams the same text back in 4-character
    deltas; memory extraction finds no facts in it.
    """
    shell = {"route": "reply", "reason": ""}
    padding = max(0, answer_chars - len(json.dumps(shell, ensure_ascii=False)))
    text = json.dumps({**shell, "reason": ("周三晚上有空，可以复习两小时。" * (padding // 15 + 1))[:padding]},
                      ensure_ascii=False)
    return {"text": text, "chunk_size": 4}


def start_fake_llm(stack: ExitStack, folder: Path, answer_chars: int) -> str:
    """Run the fake model in a child process (not competing with the clients for our GIL); return its URL."""
    script = folder / "fake-llm.json"
    script.write_text(json.dumps({"fallback": fallback_reply(answer_chars)}, ensure_ascii=False), encoding="utf-8")
    child = subprocess.Popen([sys.executable, "-m", "bench.fake_model", "--host", HOST, "--port", "0",
                              "--script", str(script)], cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True)
    stack.enter_context(stopping(child, grace=5))
    banner = child.stdout.readline() if child.stdout else ""
    if " on " not in banner:
        raise RuntimeError(f"The fake LLM did not start: {banner!r}")
    return banner.split(" on ", 1)[1].split(" ", 1)[0]


def child_env(*, database_name: str, llm_url: str, redis_url: str) -> dict[str, str]:
    """The servers' and workers' environment: production mode on plain HTTP, the run's database and model."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="smartmate.settings", DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=os.environ.get("LOADCHECK_SECRET_KEY") or secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost", DJANGO_SECURE_SSL_REDIRECT="0",
        DATABASE_NAME_OVERRIDE=database_name, REDIS_URL=redis_url,
        LLM_BASE_URL=llm_url, LLM_API_KEY="loadcheck",
        # One Milvus Lite file cannot be opened by several processes; the fake model extracts no facts,
        # so each process's in-memory store stays empty either way.
        MILVUS_URI=os.environ.get("LOADCHECK_MILVUS_URI", "memory"),
        RATE_LIMITS_ENABLED="1", RATE_LIMIT_TRUSTED_PROXIES="1",
        LOG_LEVEL="WARNING", PYTHONUNBUFFERED="1",
    )
    env.pop("CELERY_BROKER_URL", None)  # the broker follows REDIS_URL
    return env


def daphne_command(port: int) -> list[str]:
    """A daphne process on ``port`` as production runs it (backlog and handshake time: see start_daphnes)."""
    return [sys.executable, "-m", "daphne", "-e", f"tcp:{port}:interface={HOST}:backlog={LISTEN_BACKLOG}",
            "--websocket_connect_timeout", str(WS_CONNECT_TIMEOUT), "smartmate.asgi:application"]
