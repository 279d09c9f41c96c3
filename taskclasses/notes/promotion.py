"""The quick notes' Celery task: promote due notes (beat runs it every minute; the worker finds it
through ``taskclasses.tasks``)."""

from __future__ import annotations

from celery import shared_task

from taskclasses.notes.services import tasks_promote


@shared_task(name="taskclasses.promote_due_tasks")
def promote_due_tasks() -> int:
    """Promote every student's tasks whose urgency threshold has passed (run every minute by beat)."""
    return tasks_promote()
