"""Readiness checks for /healthz: each dependency reports ok or down, quickly."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from asgiref.sync import async_to_sync
from celery import current_app
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import connection


@dataclass(frozen=True)
class CheckResult:
    name: str
    ok: bool
    required: bool
    latency_ms: float
    error: str = ""

    def as_dict(self) -> dict:
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
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.send)(channel, {"type": "health.ping"})
    if async_to_sync(layer.receive)(channel).get("type") != "health.ping":
        raise RuntimeError("channel layer returned a different message")


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


def run_checks() -> list[CheckResult]:
    """Run every configured check and time it; a failing check never raises."""
    results = []
    for name, check, required in _checks():
        started = time.perf_counter()
        try:
            check()
        except Exception as exc:  # noqa: BLE001 - the point is to report any failure
            results.append(CheckResult(name, False, required, _ms(started), f"{type(exc).__name__}: {exc}"))
        else:
            results.append(CheckResult(name, True, required, _ms(started)))
    return results


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
