"""Reads of quick notes (the ``Task`` model): filtered lists, one note, overdue and recently done."""

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


@dataclass(frozen=True)
class TaskFilters:
    quadrant: int | None = None
    keyword: str = ""
    deadline_before: datetime | None = None
    deadline_after: datetime | None = None
    completed: bool | None = None


def task_list(*, user: User, filters: TaskFilters = TaskFilters()) -> QuerySet[Task]:
    """Return the student's tasks matching the filters, with their placed events."""
    tasks = Task.objects.filter(user=user)
    if filters.quadrant is not None:
        tasks = tasks.filter(quadrant=filters.quadrant)
    if filters.keyword:
        tasks = tasks.filter(Q(title__icontains=filters.keyword) | Q(source_text__icontains=filters.keyword))
    if filters.deadline_before is not None:
        tasks = tasks.filter(deadline__lt=filters.deadline_before)
    if filters.deadline_after is not None:
        tasks = tasks.filter(deadline__gte=filters.deadline_after)
    if filters.completed is not None:
        tasks = tasks.filter(completed=filters.completed)
    placed = Prefetch("events", queryset=ScheduleEvent.objects.order_by("starts_at"))
    return tasks.prefetch_related(placed).order_by("completed", "quadrant", "deadline", "-created_at")


def task_get(*, user: User, task_id: int) -> Task:
    """Return one of the student's tasks; another student's id is simply not found."""
    task = Task.objects.filter(user=user, pk=task_id).first()
    if task is None:
        raise NotFoundError(_("Not found."), code="task_not_found")
    return task


def overdue_count(*, user: User, now: datetime | None = None) -> int:
    """Count open tasks whose deadline has passed."""
    return Task.objects.filter(user=user, completed=False, deadline__lt=now or timezone.now()).count()


def recently_completed_list(*, user: User, limit: int = 8) -> list[Task]:
    """Return the latest completed tasks, newest first, so they can be restored."""
    return list(Task.objects.filter(user=user, completed=True).order_by("-completed_at")[:limit])
