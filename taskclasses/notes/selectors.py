"""Reads of quick notes (the ``Task`` model): filtered lists, one note, overdue and recently done.

Lists and single notes are read as of now: a promotion that is due shows as made (``task_as_of``),
whether or not the periodic job has written it yet. No read writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.models import ScheduleEvent
from smartmate.platform.exceptions import NotFoundError
from taskclasses.models import Task
from taskclasses.notes.core.promotion import NoteTiming, standing_at, stored_quadrants_reading_as


@dataclass(frozen=True)
class TaskFilters:
    quadrant: int | None = None
    keyword: str = ""
    deadline_before: datetime | None = None
    deadline_after: datetime | None = None
    completed: bool | None = None


def task_as_of(task: Task, now: datetime) -> Task:
    """Show a note in the quadrant it stands in at ``now``; the row is changed in memory only, never saved.

    A due promotion reads as made at the note's threshold, as the periodic job records it.
    """
    standing = standing_at(NoteTiming(task.quadrant, task.urgency_threshold_at, task.completed), now)
    if standing.pending_since is not None:
        task.quadrant = standing.quadrant
        task.auto_reason = Task.AutoReason.THRESHOLD_REACHED
        task.auto_changed_at = standing.pending_since
    return task


def task_list(*, user: User, filters: TaskFilters = TaskFilters(), now: datetime | None = None) -> list[Task]:
    """Return the student's tasks matching the filters as of ``now``, with their placed events.

    Ordered by done, quadrant (as of now), deadline, newest first.
    """
    now = now or timezone.now()
    tasks = _filtered(Task.objects.filter(user=user), filters)
    placed = Prefetch("events", queryset=ScheduleEvent.objects.order_by("starts_at"))
    rows = [task_as_of(task, now) for task in tasks.prefetch_related(placed).order_by("deadline", "-created_at")]
    if filters.quadrant is not None:
        rows = [task for task in rows if task.quadrant == filters.quadrant]
    # The quadrant is known only now, so it sorts here; the sort is stable, so within a quadrant the
    # database's deadline order (and its place for notes without one) stands.
    return sorted(rows, key=lambda task: (task.completed, task.quadrant))


def _filtered(tasks: QuerySet[Task], filters: TaskFilters) -> QuerySet[Task]:
    if filters.quadrant is not None:  # narrowed here, decided in task_list once promotions are read
        tasks = tasks.filter(quadrant__in=stored_quadrants_reading_as(filters.quadrant))
    if filters.keyword:
        tasks = tasks.filter(Q(title__icontains=filters.keyword) | Q(source_text__icontains=filters.keyword))
    if filters.deadline_before is not None:
        tasks = tasks.filter(deadline__lt=filters.deadline_before)
    if filters.deadline_after is not None:
        tasks = tasks.filter(deadline__gte=filters.deadline_after)
    if filters.completed is not None:
        tasks = tasks.filter(completed=filters.completed)
    return tasks


def task_get(*, user: User, task_id: int) -> Task:
    """Return one of the student's tasks as stored (for writes); another student's id is simply not found."""
    task = Task.objects.filter(user=user, pk=task_id).first()
    if task is None:
        raise NotFoundError(_("Not found."), code="task_not_found")
    return task


def task_read(*, user: User, task_id: int, now: datetime | None = None) -> Task:
    """Return one of the student's tasks as of ``now``, to show (see ``task_as_of``); never to save."""
    return task_as_of(task_get(user=user, task_id=task_id), now or timezone.now())


def overdue_count(*, user: User, now: datetime | None = None) -> int:
    """Count open tasks whose deadline has passed."""
    return Task.objects.filter(user=user, completed=False, deadline__lt=now or timezone.now()).count()


def recently_completed_list(*, user: User, limit: int = 8) -> list[Task]:
    """Return the latest completed tasks, newest first, so they can be restored."""
    return list(Task.objects.filter(user=user, completed=True).order_by("-completed_at")[:limit])
