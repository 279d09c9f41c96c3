"""Reads of study plans (task classes) with their blocks and where each block is placed."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.models import ScheduleEvent, ScheduleSlot
from schedule.selectors import time_frame_get
from taskclasses.exceptions import TaskClassNotFoundError, TaskItemNotFoundError
from taskclasses.models import TaskClass, TaskItem
from taskclasses.plans.presenters import ItemView, TaskClassDetail, item_placement


def task_class_list(*, user: User) -> QuerySet[TaskClass]:
    """Return the student's task classes with ``item_count`` and ``placed_count``."""
    placed = TaskItem.objects.filter(Q(events__isnull=False) | Q(embedded_slots__isnull=False)).values("pk")
    return (TaskClass.objects.filter(user=user)
            .annotate(item_count=Count("items", distinct=True),
                      placed_count=Count("items", filter=Q(items__pk__in=placed), distinct=True))
            .order_by("start_date", "name", "pk"))


def task_class_get(*, user: User, task_class_id: int) -> TaskClass:
    """Return one of the student's task classes with its blocks prefetched in order and their placements."""
    task_class = (TaskClass.objects.filter(user=user, pk=task_class_id)
                  .prefetch_related(Prefetch("items", queryset=_items_with_placements())).first())
    if task_class is None:
        raise TaskClassNotFoundError(_("Task class not found."))
    return task_class


def task_class_detail_get(*, user: User, task_class_id: int) -> TaskClassDetail:
    """Return a task class with each block's status and placement (week, day, sections, times, host)."""
    task_class = task_class_get(user=user, task_class_id=task_class_id)
    semester, template = time_frame_get(user=user)
    return TaskClassDetail(task_class=task_class, items=tuple(
        ItemView(item, item_placement(item, semester, template)) for item in task_class.items.all()))


def task_item_detail_get(*, user: User, item_id: int, task_class_id: int | None = None) -> ItemView:
    """Return one of the student's blocks with its placement; with ``task_class_id`` it must be in that class."""
    if task_class_id is not None:
        task_class_get(user=user, task_class_id=task_class_id)
    found = _items_with_placements().filter(task_class__user=user, pk=item_id)
    if task_class_id is not None:
        found = found.filter(task_class_id=task_class_id)
    item = found.first()
    if item is None:
        raise TaskItemNotFoundError(_("Block not found."))
    semester, template = time_frame_get(user=user)
    return ItemView(item, item_placement(item, semester, template))


def _items_with_placements() -> QuerySet[TaskItem]:
    return TaskItem.objects.order_by("order").prefetch_related(
        Prefetch("events", queryset=ScheduleEvent.objects.filter(kind=ScheduleEvent.Kind.TASK_ITEM)
                 .order_by("week", "day", "start_section")),
        Prefetch("embedded_slots", queryset=ScheduleSlot.objects.select_related("event__course")
                 .order_by("week", "day", "section")),
    )


def default_window_get(*, user: User, weeks: int = 4, from_today: bool = False,
                       now: datetime | None = None) -> tuple[date, date]:
    """Return ``weeks`` weeks from this week's Monday (or from today), kept inside the semester."""
    semester, _template = time_frame_get(user=user)
    today = semester.local_date(now or timezone.now())
    start = today if from_today else today - timedelta(days=today.weekday())
    length = timedelta(days=weeks * 7 - 1)
    # Before the semester: its first weeks; after it: its last weeks.
    start = min(max(start, semester.start_monday), max(semester.start_monday, semester.last_day - length))
    return start, min(start + length, semester.last_day)
