"""Hand work to a Celery task by its registered name.

A service that queues a task, and the task module that calls the service back, would otherwise
import each other. Naming the task keeps the import one way (tasks -> services); the lookup returns
the registered ``Task`` object, so eager (embedded) mode still runs it in-process. Each app's
``AppConfig.ready`` imports its tasks module, so the name is registered before any service runs.
"""

from __future__ import annotations

from typing import Any

from celery import current_app
from kombu.exceptions import ChannelError


def task_send(name: str, *, args: list[Any], queue: str) -> None:
    """Queue the task registered as ``name`` to run now (raises what the broker raises when it is down).

    No countdowns: work that is not due yet waits in its table for a sweeper. A message a worker holds
    unacknowledged until its countdown crashed that worker when Redis restarted (kombu 5.7).
    """
    current_app.tasks[name].apply_async(args=args, queue=queue)


def queue_backlog(queue: str) -> int | None:
    """How many messages wait in ``queue`` on the broker; None when that cannot be told (eager mode, or
    a broker that does not answer), so a caller falls back to what it does without knowing."""
    if current_app.conf.task_always_eager:
        return None
    try:
        with current_app.connection_for_read() as connection:
            declared = connection.default_channel.queue_declare(queue=queue, passive=True)
            return int(declared.message_count)
    except ChannelError as error:
        # Redis drops an empty list, so the broker no longer knows the queue: nothing waits in it.
        return 0 if "NOT_FOUND" in str(error) else None
    except Exception:  # noqa: BLE001 - any other broker failure means "cannot tell"
        return None
