"""The reminders' Celery task: beat runs it every minute (the worker finds it through ``taskclasses.tasks``)."""

from __future__ import annotations

from celery import shared_task

from taskclasses.reminders.services import reminders_produce


@shared_task(name="taskclasses.produce_reminders")
def produce_reminders() -> int:
    """Create every student's due reminders and publish them for delivery."""
    return reminders_produce()
