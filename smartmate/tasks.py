"""Celery tasks the worker finds in this app: the ping probe, and the outbox's tasks from the shared core."""

from __future__ import annotations

import os

from celery import shared_task
from django.db import connection

from smartmate.platform import broker
from smartmate.platform.outbox.tasks import outbox_consume, outbox_sweep  # noqa: F401 - autodiscovery imports <app>.tasks only


@shared_task(name="smartmate.ping")
def ping() -> dict:
    """Prove a worker is alive and reaches the database; used by health checks and tests."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"pong": True, "database": connection.vendor, "pid": os.getpid()}


@shared_task(name=broker.RESEND_TASK, ignore_result=True)
def resend_after_broker_loss() -> dict:
    """Queued by each worker as it connects to the broker: hand over again what waits for a worker."""
    return broker.resend_after_broker_loss()
