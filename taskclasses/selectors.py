"""Reads of quick-note tasks and of study plans (task classes) with their blocks."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.time_model import SectionTemplate, Semester, TimeModelError, span_bounds
from schedule.models import ScheduleEvent, ScheduleSlot
from schedule.selectors import time_frame_get
from smartmate.platform.exceptions import NotFoundError
from taskclasses.exceptions import TaskClassNotFoundError, TaskItemNotFoundError
from taskclasses.models import Task, TaskClass, TaskItem


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


@dataclass(frozen=True)
class QuadrantColumn:
    number: int
    label: str
    tasks: tuple[Task, ...]


def quadrant_board_get(*, user: User) -> list[QuadrantColumn]:
    """Return the four quadrants with their open tasks, in one query."""
    open_tasks = list(task_list(user=user, filters=TaskFilters(completed=False)))
    return [
        QuadrantColumn(number=value, label=str(label), tasks=tuple(t for t in open_tasks if t.quadrant == value))
        for value, label in Task.Quadrant.choices
    ]


def recently_completed_list(*, user: User, limit: int = 8) -> list[Task]:
    """Return the latest completed tasks, newest first, so they can be restored."""
    return list(Task.objects.filter(user=user, completed=True).order_by("-completed_at")[:limit])


# --- Study plans (task classes) ------------------------------------------------------------------

@dataclass(frozen=True)
class ItemPlacement:
    """Where a block sits: its own event in free time, or embedded in a filler course's sections."""

    kind: str  # "event" or "embedded"
    event_id: int
    week: int
    day: int
    start_section: int
    end_section: int
    starts_at: datetime | None
    ends_at: datetime | None
    host_title: str  # the filler course a block is embedded in; "" for its own event


@dataclass(frozen=True)
class ItemView:
    """A block with where it is placed."""

    item: TaskItem
    placement: ItemPlacement | None

    @property
    def id(self) -> int:
        return self.item.pk

    @property
    def order(self) -> int:
        return self.item.order

    @property
    def content(self) -> str:
        return self.item.content

    @property
    def sections(self) -> int:
        return self.item.sections

    @property
    def status(self) -> str:
        """Done when marked done, else placed exactly when it has a placement (not a stored flag)."""
        if self.item.status == TaskItem.Status.DONE:
            return TaskItem.Status.DONE
        return TaskItem.Status.PLACED if self.placement is not None else TaskItem.Status.PENDING

    @property
    def status_label(self) -> str:
        return str(TaskItem.Status(self.status).label)


@dataclass(frozen=True)
class TaskClassDetail:
    """A task class and its blocks in order, each with its placement."""

    task_class: TaskClass
    items: tuple[ItemView, ...]

    @property
    def item_count(self) -> int:
        return len(self.items)

    @property
    def placed_count(self) -> int:
        return sum(1 for view in self.items if view.placement is not None)


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
        ItemView(item, _placement_of(item, semester, template)) for item in task_class.items.all()))


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
    return ItemView(item, _placement_of(item, semester, template))


def _items_with_placements() -> QuerySet[TaskItem]:
    return TaskItem.objects.order_by("order").prefetch_related(
        Prefetch("events", queryset=ScheduleEvent.objects.filter(kind=ScheduleEvent.Kind.TASK_ITEM)
                 .order_by("week", "day", "start_section")),
        Prefetch("embedded_slots", queryset=ScheduleSlot.objects.select_related("event__course")
                 .order_by("week", "day", "section")),
    )


def _placement_of(item: TaskItem, semester: Semester, template: SectionTemplate) -> ItemPlacement | None:
    events = list(item.events.all())
    if events:
        event = events[0]
        return ItemPlacement("event", event.pk, event.week, event.day, event.start_section, event.end_section,
                             event.starts_at, event.ends_at, "")
    slots = list(item.embedded_slots.all())
    if not slots:
        return None
    # One block embeds in one host meeting; its slots are consecutive sections of one day.
    first, host = slots[0], slots[0].event
    sections = [slot.section for slot in slots if (slot.week, slot.day) == (first.week, first.day)]
    try:
        starts_at, ends_at = span_bounds(semester, template, first.week, first.day, min(sections), max(sections))
    except TimeModelError:  # the calendar changed under an old placement: show where, not when
        starts_at = ends_at = None
    host_title = host.course.name if host.course is not None else host.title
    return ItemPlacement("embedded", host.pk, first.week, first.day, min(sections), max(sections),
                         starts_at, ends_at, host_title)


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
