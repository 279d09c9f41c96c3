"""Where turns run on embedded defaults: a small thread pool of the web process, shared fairly.

With a broker, turns go to Celery workers. Without one they run on ``AGENT_EMBEDDED_TURNS`` threads
here: hundreds of threads at once would starve the server's event loop (events then wait unread
until the in-memory layer drops them) and lock SQLite. A turn that waits for a thread keeps its
conversation's lock, so it still runs exactly once.

Fair share: one student runs at most ``AGENT_EMBEDDED_TURNS_PER_STUDENT`` turns at a time (1 by
default); their further turns wait in their own line. Without it, one student with four
conversations fetching slow web pages held every thread and every other student waited.

Lifecycle: this process has one pool. ``start()`` starts it (``submit()`` does on first use, so a
process that never runs a turn here never starts threads); ``join()`` waits for every submitted
turn (tests, the benchmarks); ``shutdown()`` lets them finish and stops the pool, and the next
``submit()`` starts a fresh one (tests call it after each test).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings

Work = Callable[[], None]
log = logging.getLogger(__name__)


class EmbeddedTurns:
    """A bounded pool of turn threads with a per-student line."""

    def __init__(self, *, threads: Callable[[], int], per_student: Callable[[], int]) -> None:
        self._threads = threads
        self._per_student = per_student
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._running: dict[int, int] = defaultdict(int)
        self._waiting: dict[int, deque[tuple[str, Work]]] = defaultdict(deque)
        self._unfinished: set[str] = set()

    def submit(self, *, student_id: int, turn_id: str, work: Work) -> None:
        """Run ``work`` (the turn ``turn_id`` of ``student_id``) now or when the student's line allows."""
        with self._lock:
            self._unfinished.add(turn_id)
            if self._running[student_id] >= max(1, self._per_student()):
                self._waiting[student_id].append((turn_id, work))
                return
            self._running[student_id] += 1
        self._start(student_id, turn_id, work)

    def would_wait(self, student_id: int) -> bool:
        """Tell whether a turn of ``student_id`` submitted now would wait: for the student's own line
        (fair share) or for a free thread (every thread busy)."""
        with self._lock:
            return (self._running[student_id] >= max(1, self._per_student())
                    or sum(self._running.values()) >= max(1, self._threads()))

    def pending(self, turn_id: str) -> bool:
        """Tell whether the turn ``turn_id`` is running or waiting here (it needs no second hand-off)."""
        with self._lock:
            return turn_id in self._unfinished

    def join(self, timeout: float = 30.0) -> bool:
        """Wait until every submitted turn has finished; return whether they did in time."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if not self._unfinished:
                    return True
            time.sleep(0.01)
        with self._lock:
            return not self._unfinished

    def shutdown(self, timeout: float = 30.0) -> bool:
        """Let the submitted turns finish, then stop the threads (a later submit starts a new pool)."""
        finished = self.join(timeout)
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=finished)
        return finished

    def _start(self, student_id: int, turn_id: str, work: Work) -> None:
        try:
            self._executor().submit(self._run, student_id, turn_id, work)
        except Exception:
            self._finished(student_id, turn_id)
            raise

    def _run(self, student_id: int, turn_id: str, work: Work) -> None:
        try:
            work()
        except Exception:  # a pool thread has no caller to raise to
            log.exception("Embedded turn %s failed", turn_id)
        finally:
            following = self._finished(student_id, turn_id)
            if following is not None:
                self._start(student_id, *following)

    def _finished(self, student_id: int, turn_id: str) -> tuple[str, Work] | None:
        """Mark a turn done; return the student's next waiting turn, which takes over its place."""
        with self._lock:
            self._unfinished.discard(turn_id)
            line = self._waiting[student_id]
            if line:
                return line.popleft()
            self._running[student_id] -= 1
            if not self._running[student_id]:
                del self._running[student_id]
                self._waiting.pop(student_id, None)
            return None

    def _executor(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=self._threads(), thread_name_prefix="agent-turn")
            return self._pool


# --- This process's pool ---------------------------------------------------------------------------

_process_pool: EmbeddedTurns | None = None
_process_pool_lock = threading.Lock()


def start() -> EmbeddedTurns:
    """Start this process's pool, sized by the settings (read at each use, so tests may change them)."""
    global _process_pool
    with _process_pool_lock:
        if _process_pool is None:
            _process_pool = EmbeddedTurns(threads=lambda: settings.AGENT_EMBEDDED_TURNS,
                                          per_student=lambda: settings.AGENT_EMBEDDED_TURNS_PER_STUDENT)
        return _process_pool


def submit(*, student_id: int, turn_id: str, work: Work) -> None:
    """Run the turn ``turn_id`` of ``student_id`` on this process's pool (started if it was not)."""
    start().submit(student_id=student_id, turn_id=turn_id, work=work)


def would_wait(student_id: int) -> bool:
    """Tell whether a turn of ``student_id`` submitted now would wait for a thread or its fair share."""
    return start().would_wait(student_id)


def pending(turn_id: str) -> bool:
    """Tell whether this process runs the turn ``turn_id`` or has it waiting for a thread."""
    with _process_pool_lock:
        pool = _process_pool
    return pool is not None and pool.pending(turn_id)


def join(timeout: float = 30.0) -> bool:
    """Wait for every turn submitted in this process; return whether they all finished in time."""
    with _process_pool_lock:
        pool = _process_pool
    return pool.join(timeout) if pool is not None else True


def shutdown(timeout: float = 30.0) -> bool:
    """Let this process's turns finish, then stop its pool; return whether they finished in time."""
    global _process_pool
    with _process_pool_lock:
        pool, _process_pool = _process_pool, None
    return pool.shutdown(timeout) if pool is not None else True
