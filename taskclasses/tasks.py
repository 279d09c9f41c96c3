"""The app's Celery tasks, where ``app.autodiscover_tasks()`` (smartmate/celery.py) looks for them.

Each task lives with its feature; importing it here registers it with the worker.
"""

from taskclasses.notes.promotion import promote_due_tasks  # noqa: F401 - registers the task for autodiscovery
from taskclasses.reminders.tasks import produce_reminders  # noqa: F401 - registers the task for autodiscovery
