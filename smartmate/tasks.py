"""Cross-cutting Celery tasks."""

from __future__ import annotations

import os

from celery import shared_task
from django.db import connection


@shared_task(name="smartmate.ping")
def ping() -> dict:
    """Prove a worker is alive and reaches the database; used by health checks and tests."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"pong": True, "database": connection.vendor, "pid": os.getpid()}
