"""Task classes as pages and the API show them: each block with its status and where it is placed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from schedule.core.time_model import SectionTemplate, Semester, TimeModelError, span_bounds
from taskclasses.models import TaskClass, TaskItem


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


def item_placement(item: TaskItem, semester: Semester, template: SectionTemplate) -> ItemPlacement | None:
    """Where a block is placed, from its prefetched events and embedded slots; None if it is not."""
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
    starts_at: datetime | None
    ends_at: datetime | None
    try:
        starts_at, ends_at = span_bounds(semester, template, first.week, first.day, min(sections), max(sections))
    except TimeModelError:  # the calendar changed under an old placement: show where, not when
        starts_at = ends_at = None
    host_title = host.course.name if host.course is not None else host.title
    return ItemPlacement("embedded", host.pk, first.week, first.day, min(sections), max(sections),
                         starts_at, ends_at, host_title)
