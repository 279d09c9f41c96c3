"""The outbox's Celery tasks: consume one event, and the periodic sweep.

Their names are fixed strings so the queue and beat entries stay the same wherever the code lives.
"""

from __future__ import annotations

from celery import shared_task

from smartmate.platform.outbox import services as outbox


@shared_task(name=outbox.CONSUME_TASK, ignore_result=True)  # type: ignore[untyped-decorator]  # celery ships no types
def outbox_consume(event_uuid: str) -> str:
    """Consume one outbox event. Retries are driven by the event row (see outbox.services), not Celery."""
    return outbox.outbox_event_consume(event_uuid=event_uuid)


@shared_task(name="smartmate.outbox_sweep", ignore_result=True)  # type: ignore[untyped-decorator]  # celery ships no types
def outbox_sweep() -> dict[str, int]:
    """Reclaim, re-dispatch and clean up the outbox and idempotency records (run by beat)."""
    return outbox.outbox_sweep()
