"""Warm start: load what the first assistant turn needs while the server waits for its first student.

Left lazy, the first message after a start paid for importing the OpenAI client, loading the
embedding model, starting Milvus Lite and the first database connection (seconds on a busy
machine) before its first model call. ``warm_up_in_background()`` does that work on a daemon
thread as the ASGI application loads. Each step is best effort: a failure is logged and the step
happens lazily on first use, as before.

``SMARTMATE_WARM_START=0`` turns it off (the test suite does; it is read from the environment at
call time so a test process can set it before the application module is imported).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


def warm_start_enabled() -> bool:
    return os.environ.get("SMARTMATE_WARM_START", "1") != "0"


def warm_up_in_background() -> threading.Thread | None:
    """Start the warm-up on a daemon thread (None when switched off)."""
    if not warm_start_enabled():
        return None
    thread = threading.Thread(target=warm_up, name="warm-up", daemon=True)
    thread.start()
    return thread


def warm_up() -> dict[str, float]:
    """Run every warm-up step; return each step's seconds (a failed step is left out)."""
    timings = {}
    for name, step in WARM_UP_STEPS:
        started = time.perf_counter()
        try:
            step()
        except Exception as exc:  # noqa: BLE001 - best effort: the step happens lazily instead
            log.warning("Warm start: %s failed (%s); it will load on first use", name, exc)
            continue
        timings[name] = round(time.perf_counter() - started, 3)
    log.info("Warm start done: %s", ", ".join(f"{name} {seconds:.2f} s" for name, seconds in timings.items()))
    return timings


def _database() -> None:
    from django.db import close_old_connections, connection

    connection.ensure_connection()
    close_old_connections()


def _llm_client() -> None:
    from smartmate.llm import LLMNotConfigured, get_llm_client

    try:
        get_llm_client()  # imports the openai package and builds the HTTP client
    except LLMNotConfigured:
        pass


def _embedder() -> None:
    from memory.embeddings import get_embedder

    get_embedder().embed_queries(["预热"])


def _vector_store() -> None:
    from memory.vectorstore import get_vector_store

    get_vector_store().count(0)  # opens the store (starts Milvus Lite)


WARM_UP_STEPS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("database", _database), ("llm client", _llm_client), ("embedder", _embedder), ("vector store", _vector_store),
)
