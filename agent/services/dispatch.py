"""Where a started turn runs: on a Celery worker, or on this process's embedded pool.

With a broker configured, on the Celery ``agent`` queue (task ``agent.run_turn``; events reach
sockets through the Redis channel layer). In embedded mode (no broker, Celery eager) it runs on a
small thread pool of the web process instead (``agent.embedded_turns``): an eager task would run
inside the websocket consumer's call and block that socket (and its event loop's thread pool
slot) until the whole answer was written, so the student would see nothing stream. The thread
hands its events to the server's event loop (see ``agent.broadcast``).
"""

from __future__ import annotations

import logging
from functools import partial

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import translation
from django.utils.translation import gettext as _

from agent import embedded_turns
from agent.flow.contracts import StatusEvent
from agent.models import Conversation
from agent.services.running import turn_run
from agent.timeline import TimelineEmitter
from smartmate.platform.task_queue import task_send

log = logging.getLogger("agent.dispatch")

RUN_TURN_TASK = "agent.run_turn"  # registered by agent.tasks, which imports this module


def turn_dispatch(*, student_id: int, conversation_id: int, turn_id: str, language: str) -> None:
    """Queue the turn on Celery (broker configured) or on the embedded pool (embedded mode).

    Call it once the turn's transaction has committed (``transaction.on_commit``): the worker reads
    the turn's message and lock from the database.
    """
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        _announce_queued(conversation_id, turn_id, language)  # until a worker takes it from the queue
        # The broker may be down (Redis restarting): the turn row stays handed off, and the sweeper
        # hands it off again once the broker is back (agent.services.recovery), as the outbox does.
        turn_redispatch(student_id=student_id, conversation_id=conversation_id, turn_id=turn_id, language=language)
        return
    try:
        if embedded_turns.would_wait(student_id):
            _announce_queued(conversation_id, turn_id, language)
        embedded_turns.submit(student_id=student_id, turn_id=turn_id,
                              work=partial(_turn_thread, conversation_id, turn_id, language))
    except Exception:
        # Nothing will run the turn: free the conversation so the student can try again.
        Conversation.objects.filter(pk=conversation_id, running_turn_id=turn_id).update(running_turn_id=None)
        raise


def turn_redispatch(*, student_id: int, conversation_id: int, turn_id: str, language: str) -> bool:
    """Hand a turn to a worker again (its message was lost, or its worker died); return whether it went.

    Unlike ``turn_dispatch`` a failure leaves the turn as it is: the sweeper tries again, then ends it.
    """
    try:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            if not embedded_turns.pending(turn_id):
                embedded_turns.submit(student_id=student_id, turn_id=turn_id,
                                      work=partial(_turn_thread, conversation_id, turn_id, language))
        else:
            task_send(RUN_TURN_TASK, args=[conversation_id, turn_id, language], queue="agent")
    except Exception as exc:  # noqa: BLE001 - the broker is down: the next sweep tries again (no traceback)
        log.warning("Could not hand turn %s to a worker (%s: %s); the turn sweeper will try again",
                    turn_id, type(exc).__name__, exc)
        return False
    return True


def _announce_queued(conversation_id: int, turn_id: str, language: str) -> None:
    """Tell the student's page the turn waits (for a worker, a free thread or its fair share), so a
    silent pause reads as "queued", not as a hang. Stored before the turn can start, so it comes first."""
    try:
        with translation.override(language):
            message = _("Waiting for a free assistant…")
        TimelineEmitter(conversation_id=conversation_id, turn_id=turn_id)(StatusEvent(code="queued", message=message))
    except Exception:  # a missing notice must never keep the turn from running
        log.warning("Could not announce queued turn %s", turn_id, exc_info=True)


def _turn_thread(conversation_id: int, turn_id: str, language: str) -> None:
    try:
        close_old_connections()
        turn_run(conversation_id=conversation_id, turn_id=turn_id, language=language)
    finally:
        connection.close()  # this thread's own connection; nothing else would ever close it
