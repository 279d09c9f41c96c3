"""Readiness checks for /healthz: each dependency reports ok or down, quickly (all within HEALTH_CHECK_TIMEOUT)."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from asgiref.sync import async_to_sync
from celery import current_app
from channels.layers import DEFAULT_CHANNEL_LAYER, BaseChannelLayer, channel_layers
from django.conf import settings
from django.core.cache import cache
from django.db import connection, connections

# The longest a check's own waits may last, though /healthz stops waiting at HEALTH_CHECK_TIMEOUT.
CHECK_THREAD_LIMIT = 5.0


@dataclass(frozen=True)
class CheckResult:
    name: str
    ok: bool
    required: bool
    latency_ms: float
    error: str = ""

    def as_dict(self) -> dict[str, Any]:
        body = {"status": "ok" if self.ok else "down", "required": self.required,
                "latency_ms": round(self.latency_ms, 1)}
        if self.error:
            body["error"] = self.error
        return body


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_cache() -> None:
    key = f"healthz:{uuid.uuid4().hex}"
    cache.set(key, "1", timeout=5)
    if cache.get(key) != "1":
        raise RuntimeError("cache did not return the value it was given")
    cache.delete(key)


def check_broker() -> None:
    with current_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)


def check_channel_layer() -> None:
    """Send a message to a fresh channel and read it back, through a layer of the check's own.

    The process's layer belongs to the event loop serving the websockets: receiving on it from the
    check's loop fails ("Two event loops are trying to receive() ...") whenever a socket is open, which
    would report a healthy node down. A layer built from the same settings reaches the same Redis.
    """
    async_to_sync(_channel_layer_ping)(channel_layers.make_backend(DEFAULT_CHANNEL_LAYER))


async def _channel_layer_ping(layer: BaseChannelLayer) -> None:
    # Bounded, so a check thread left behind by run_checks' deadline still ends on its own.
    try:
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "health.ping"})
        message = await asyncio.wait_for(layer.receive(channel), timeout=CHECK_THREAD_LIMIT)
        if message.get("type") != "health.ping":
            raise RuntimeError("channel layer returned a different message")
    finally:
        close = getattr(layer, "close_pools", None)  # the Redis layer's connections, opened on this loop
        if close is not None:
            await close()


def check_vector_store() -> None:
    uri = settings.MILVUS_URI
    if urlsplit(uri).scheme in {"http", "https", "tcp", "grpc"}:
        import socket

        parts = urlsplit(uri)
        with socket.create_connection((parts.hostname, parts.port or 19530), timeout=2):
            return
    # Milvus Lite: one process owns the file, so only check that its folder is usable.
    folder = Path(uri).parent
    if not folder.is_dir():
        raise RuntimeError(f"folder {folder} does not exist")
    probe = folder / f".healthz-{uuid.uuid4().hex}"
    probe.write_text("ok")
    probe.unlink()


def _checks() -> list[tuple[str, Callable[[], None], bool]]:
    checks: list[tuple[str, Callable[[], None], bool]] = [
        ("database", check_database, True),
        ("cache", check_cache, True),
        ("channel_layer", check_channel_layer, True),
    ]
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        checks.append(("broker", check_broker, True))
    # Memory recall degrades gracefully (a turn goes on without memory), so it is not required.
    checks.append(("vector_store", check_vector_store, False))
    return checks


def run_checks(timeout: float | None = None) -> list[CheckResult]:
    """Run every configured check at once, each in its own thread; a failing or slow check never raises.

    /healthz must answer within a second even when a dependency hangs (the channel-layer check took
    up to 9 s under load): a check that has not answered within ``timeout`` (HEALTH_CHECK_TIMEOUT)
    is reported down with a TimeoutError, and its thread is left to finish on its own.
    """
    timeout = settings.HEALTH_CHECK_TIMEOUT if timeout is None else timeout
    checks = _checks()
    answers: dict[str, CheckResult] = {}
    started = time.perf_counter()
    threads = [threading.Thread(target=_run_one, args=(name, check, required, answers), daemon=True,
                                name=f"healthz-{name}") for name, check, required in checks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, timeout - (time.perf_counter() - started)))
    return [answers.get(name) or CheckResult(name, False, required, timeout * 1000,
                                             f"TimeoutError: no answer within {timeout:g} s")
            for name, _check, required in checks]


def _run_one(name: str, check: Callable[[], None], required: bool, answers: dict[str, CheckResult]) -> None:
    started = time.perf_counter()
    try:
        check()
    except Exception as exc:  # noqa: BLE001 - the point is to report any failure
        answers[name] = CheckResult(name, False, required, _ms(started), f"{type(exc).__name__}: {exc}")
    else:
        answers[name] = CheckResult(name, True, required, _ms(started))
    finally:
        connections.close_all()  # this thread's own connections; nothing else would close them


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
