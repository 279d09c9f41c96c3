"""Which notifications sockets each student holds open in this process, and their one reminder timer.

Why per process: a socket lives in one process, and the cost the cap protects (an idle socket's
memory and its share of the reminder checks) is paid there. With several server processes a student
holds at most processes x ``NOTIFICATION_SOCKETS_PER_STUDENT`` sockets.

Why one timer per student: every socket used to check the student's reminders every 30 s, so 1,200
idle sockets from one session cost half a core. The first socket of a student starts the timer, the
last one to close stops it; sockets in between only listen.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

# user id -> channel names of the student's open sockets, oldest first (dicts keep insertion order).
_sockets: dict[int, dict[str, None]] = {}
_timers: dict[int, asyncio.Task] = {}


def socket_register(user_id: int, channel_name: str, *, cap: int) -> list[str]:
    """Note a newly opened socket; return the channel names of the oldest ones past ``cap`` (to close)."""
    open_ones = _sockets.setdefault(user_id, {})
    open_ones[channel_name] = None
    evicted = list(open_ones)[:max(0, len(open_ones) - cap)]
    for name in evicted:
        del open_ones[name]
    return evicted


def socket_forget(user_id: int, channel_name: str) -> None:
    """A socket closed; the last one of a student stops the student's timer."""
    open_ones = _sockets.get(user_id, {})
    open_ones.pop(channel_name, None)
    if open_ones:
        return
    _sockets.pop(user_id, None)
    timer = _timers.pop(user_id, None)
    if timer is not None:
        timer.cancel()


def sockets_open(user_id: int) -> int:
    """How many sockets of the student this process holds."""
    return len(_sockets.get(user_id, {}))


def timer_ensure(user_id: int, every: float, tick: Callable[[], Awaitable[None]]) -> bool:
    """Start the student's timer (``tick`` every ``every`` seconds) unless one runs; True if started."""
    running = _timers.get(user_id)
    loop = asyncio.get_running_loop()
    if running is not None and not running.done() and running.get_loop() is loop:
        return False
    _timers[user_id] = loop.create_task(_repeat(every, tick))
    return True


def timers_running() -> int:
    """How many students' timers run in this process (for tests and the curious)."""
    return sum(1 for timer in _timers.values() if not timer.done())


async def _repeat(every: float, tick: Callable[[], Awaitable[None]]) -> None:
    while True:
        await asyncio.sleep(every)
        await tick()
