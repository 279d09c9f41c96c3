"""Hand work to a Celery task by its registered name.

A service that queues a task, and the task module that calls the service back, would otherwise
import each other. Naming the task keeps the import one way (tasks -> services); the lookup returns
the registered ``Task`` object, so eager (embedded) mode still runs it in-process. Each app's
``AppConfig.ready`` imports its tasks module, so the name is registered before any service runs.
"""

from __future__ import annotations

from typing import Any

from celery import current_app


def task_send(name: str, *, args: list[Any], queue: str) -> None:
    """Queue the task registered as ``name`` to run now (raises what the broker raises when it is down).

    No countdowns: work that is not due yet waits in its table for a sweeper. A message a worker holds
    unacknowledged until its countdown crashed that worker when Redis restarted (kombu 5.7).
    """
    current_app.tasks[name].apply_async(args=args, queue=queue)
