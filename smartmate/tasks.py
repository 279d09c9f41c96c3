"""Cross-cutting Celery tasks: the ping probe and the outbox's consume and sweep."""

from __future__ import annotations

import os

from celery import shared_task
from django.db import connection

from smartmate.outbox import services as outbox


@shared_task(name="smartmate.ping")
def ping() -> dict:
    """Prove a worker is alive and reaches the database; used by health checks and tests."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"pong": True, "database": connection.vendor, "pid": os.getpid()}


@shared_task(name="smartmate.outbox_consume", ignore_result=True)
def outbox_consume(event_uuid: str) -> str:
    """Consume one outbox event. Retries are driven by the event row (see outbox.services), not Celery."""
    return outbox.outbox_event_consume(event_uuid=event_uuid)


@shared_task(name="smartmate.outbox_sweep", ignore_result=True)
def outbox_sweep() -> dict:
    """Reclaim, re-dispatch and clean up the outbox and idempotency records (run by beat)."""
    return outbox.outbox_sweep()
