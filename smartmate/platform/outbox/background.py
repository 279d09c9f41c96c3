"""Background hand-off for embedded defaults: slow consumers run beside the request, not inside it.

With a broker, an event goes to a worker's queue and the publishing request or turn never waits.
On embedded defaults Celery is eager: a consumer runs inline, in the thread that committed the
event. For most topics that is what an operator expects (the effect is there when the request
returns), but a topic registered with ``background=True`` calls a language model (a conversation's
title, memory extraction): run inline, it held a finished turn's ``turn.done`` and kept the
conversation locked for as long as the model took. Such events are handed to this small bounded
pool instead; the outbox's claim, retry and ordering rules are unchanged.

A thread inside ``background_held()`` (an assistant turn) keeps what it hands over until it leaves:
the turn's title and memory work then starts after its ``turn.done`` and the conversation's release,
not beside its last steps, where it competed with them for the cores.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import contextmanager

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_futures: set[Future[None]] = set()
_held = threading.local()  # .works: what this thread handed over inside background_held()


@contextmanager
def background_held() -> Iterator[None]:
    """Hold the work this thread hands over until the block ends, then start it all (also on errors)."""
    if getattr(_held, "works", None) is not None:  # nested: the outer block starts everything
        yield
        return
    _held.works = []
    try:
        yield
    finally:
        works, _held.works = _held.works, None
        for work in works:
            background_submit(work)


def background_submit(work: Callable[[], object]) -> Future[None] | None:
    """Run ``work`` on the bounded background pool (threads: ``OUTBOX_BACKGROUND_THREADS``); inside
    ``background_held()`` keep it for the block's end instead (and return None)."""
    held = getattr(_held, "works", None)
    if held is not None:
        held.append(work)
        return None
    with _lock:
        global _pool
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=settings.OUTBOX_BACKGROUND_THREADS,
                                       thread_name_prefix="outbox-background")
        future = _pool.submit(_run, work)
        _futures.add(future)
    future.add_done_callback(_forget)
    return future


def background_join(timeout: float | None = 30.0) -> bool:
    """Wait for the background work submitted so far; True when all of it finished (tests, shutdown)."""
    with _lock:
        pending = set(_futures)
    if not pending:
        return True
    _done, not_done = wait(pending, timeout=timeout)
    return not not_done


def _run(work: Callable[[], object]) -> None:
    close_old_connections()
    try:
        work()
    except Exception:  # the outbox row records the failure; keep the pool alive
        log.exception("outbox: background work failed")
    finally:
        close_old_connections()


def _forget(future: Future[None]) -> None:
    with _lock:
        _futures.discard(future)
