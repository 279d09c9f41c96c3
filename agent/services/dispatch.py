"""Where a started turn runs: on a Celery worker, or on this process's embedded pool.

With a broker configured, on the Celery ``agent`` queue (task ``agent.run_turn``; events reach
sockets through the Redis channel layer). In embedded mode (no broker, Celery eager) it runs on a
small thread pool of the web process instead (``agent.embedded_turns``): an eager task would run
inside the websocket consumer's call and block that socket (and its event loop's thread pool
slot) until the whole answer was written, so the student would see nothing stream. The thread
hands its events to the server's event loop (see ``agent.broadcast``).
"""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.db import close_old_connections, connection

from agent import embedded_turns
from agent.models import Conversation
from agent.services.running import turn_run
from agent.tasks import run_turn as run_turn_task


def turn_dispatch(*, student_id: int, conversation_id: int, turn_id: str, language: str) -> None:
    """Queue the turn on Celery (broker configured) or on the embedded pool (embedded mode).

    Call it once the turn's transaction has committed (``transaction.on_commit``): the worker reads
    the turn's message and lock from the database.
    """
    try:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            embedded_turns.submit(student_id=student_id, turn_id=turn_id,
                                  work=partial(_turn_thread, conversation_id, turn_id, language))
        else:
            run_turn_task.delay(conversation_id, turn_id, language)
    except Exception:
        # Nothing will run the turn: free the conversation so the student can try again.
        Conversation.objects.filter(pk=conversation_id, running_turn_id=turn_id).update(running_turn_id=None)
        raise


def _turn_thread(conversation_id: int, turn_id: str, language: str) -> None:
    try:
        close_old_connections()
        turn_run(conversation_id=conversation_id, turn_id=turn_id, language=language)
    finally:
        connection.close()  # this thread's own connection; nothing else would ever close it
