"""Test data builders for quick notes and task classes."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from schedule.core.time_model import span_bounds
from schedule.models import ScheduleEvent, ScheduleSlot
from schedule.selectors import time_frame_get
from taskclasses.models import Task, TaskClass, TaskItem

SHANGHAI = ZoneInfo("Asia/Shanghai")
# Wednesday of week 13 of the factory semester (week 1 starts 2026-09-07).
NOW = datetime(2026, 12, 2, 10, 15, tzinfo=SHANGHAI)


def make_task(user, *, title: str = "交概率论作业", quadrant: int = 2, deadline: datetime | None = None,
              threshold: datetime | None = None, completed: bool = False) -> Task:
    return Task.objects.create(
        user=user, title=title, quadrant=quadrant, deadline=deadline,
        urgency_threshold_at=threshold if threshold is not None else (deadline - timedelta(hours=48) if deadline else None),
        completed=completed, completed_at=NOW if completed else None,
    )


# Weeks 2-5 of the factory semester (2026-09-07 .. 2027-01-24).
WINDOW = (date(2026, 9, 14), date(2026, 10, 11))


def make_task_class(user, *, name: str = "概率论复习", items: int = 3, start_date: date = WINDOW[0],
                    end_date: date = WINDOW[1], **fields) -> TaskClass:
    task_class = TaskClass.objects.create(user=user, name=name, start_date=start_date, end_date=end_date, **fields)
    TaskItem.objects.bulk_create(TaskItem(task_class=task_class, order=n, content=f"{name} #{n}")
                                 for n in range(1, items + 1))
    return task_class


def item_contents(task_class: TaskClass) -> list[str]:
    return list(task_class.items.order_by("order").values_list("content", flat=True))


def place_item(item: TaskItem, *, week: int = 3, day: int = 2, start: int = 5, status: str | None = None) -> ScheduleEvent:
    """Give a block its own event on free sections, as an applied plan does; ``status`` (``missed``,
    ``done``…) is what the student made of it since."""
    user = item.task_class.user
    if status is not None:
        TaskItem.objects.filter(pk=item.pk).update(status=status)
    semester, template = time_frame_get(user=user)
    starts_at, ends_at = span_bounds(semester, template, week, day, start, start + 1)
    event = ScheduleEvent.objects.create(
        user=user, kind=ScheduleEvent.Kind.TASK_ITEM, source=ScheduleEvent.Source.PLANNER, task_item=item,
        title=item.content, week=week, day=day, start_section=start, end_section=start + 1,
        starts_at=starts_at, ends_at=ends_at)
    ScheduleSlot.objects.bulk_create(ScheduleSlot(user=user, event=event, week=week, day=day, section=section)
                                     for section in (start, start + 1))
    return event


def embed_item(item: TaskItem) -> ScheduleEvent:
    """Embed a block in a filler course meeting (Monday of week 3, sections 9-10) and return that meeting."""
    from schedule.tests.factories import import_csv

    user = item.task_class.user
    import_csv(user, "形势与政策,1,9,10,赵立新,二教1101,3")
    host = ScheduleEvent.objects.get(user=user, course__name="形势与政策", week=3)
    assert host.course is not None
    host.course.is_filler = True
    host.course.save()
    host.slots.update(embedded_item=item)
    return host
