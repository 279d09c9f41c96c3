"""A daphne process stops within seconds of SIGTERM, even with requests in flight.

Under load daphne ignored SIGTERM for a minute or more: Twisted stops the event loop, but request
threads still in Django's middleware wait for that loop to run the next async step (asgiref's
AsyncToSync), and Python's exit joins every executor thread, so the process waits for threads that
can never finish. A restart became a 63 s outage.

When the reactor begins to shut down, a daemon timer gives in-flight requests SHUTDOWN_DEADLINE
seconds (a database transaction under way commits or rolls back in that time; nothing is half
written, since every write is atomic), then ends the process. A process that exits sooner on its own
never reaches the timer.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)


def exit_deadline_arm_under_daphne() -> bool:
    """Under daphne (its Twisted reactor is installed), arm the exit deadline for shutdown; say if armed.

    Elsewhere (tests, the shell, another ASGI server) it does nothing: importing the reactor here
    would install one where none should run.
    """
    if "twisted.internet.reactor" not in sys.modules:
        return False
    from twisted.internet import reactor

    core: Any = reactor  # its zope interface reads to mypy as if ``self`` were the first argument
    core.addSystemEventTrigger("before", "shutdown", _start_exit_timer)
    return True


def _start_exit_timer() -> None:
    deadline = settings.SHUTDOWN_DEADLINE
    logger.info("shutdown: stopping; in-flight requests have %.0f s to finish", deadline)
    timer = threading.Timer(deadline, _exit_now, args=(deadline,))
    timer.daemon = True
    timer.start()


def _exit_now(deadline: float) -> None:
    waiting = [thread.name for thread in threading.enumerate() if thread is not threading.current_thread()
               and not thread.daemon]
    logger.warning("shutdown: %d thread(s) still running %.0f s after the stop began; exiting now (%s)",
                   len(waiting), deadline, ", ".join(waiting[:5]))
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(0)
