"""Celery tasks of the quick notes."""

from __future__ import annotations

from celery import shared_task

from taskclasses.services.tasks import tasks_promote


@shared_task(name="taskclasses.promote_due_tasks")
def promote_due_tasks() -> int:
    """Promote every student's tasks whose urgency threshold has passed (run every minute by beat)."""
    return tasks_promote()
