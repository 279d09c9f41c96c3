"""What a direct edit of the board keeps in its change set, and how ``changeset_undo`` reverses it.

A removal keeps the block as it was (kind, title, text, source, its item's status and its place:
``ChangeSet.removed``); a mark keeps the item's status before and after (``ChangeSet.marked``).
Moves are kept as a preview's moves are (``ChangeSet.moves``) and undone by ``moves_undo``.
Undo runs inside ``changeset_undo``'s transaction and first checks nothing changed since.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone

from accounts.models import User
from board.preview_moves import Lifted, block_put
from schedule.core.change_records import MarkedBlock, RemovedBlock
from schedule.models import ScheduleEvent
from taskclasses.models import Task, TaskItem


def removals_unchanged(*, user: User, removed: Sequence[RemovedBlock]) -> bool:
    """Tell whether every removed block is still off the board (its item waiting, its note unscheduled)."""
    for row in removed:
        if row.item_id is not None:
            item = TaskItem.objects.filter(pk=row.item_id, task_class__user=user).first()
            # A course change leaves a done or missed block's status as it was ("status_after").
            if item is None or item.status != (row.status_after or TaskItem.Status.PENDING) \
                    or item.events.exists() \
                    or item.embedded_slots.exists():
                return False
        elif row.task_id is not None:
            task = Task.objects.filter(pk=row.task_id, user=user).first()
            if task is None or task.completed or task.events.exists():
                return False
    return True


def removals_undo(*, user: User, removed: Sequence[RemovedBlock]) -> None:
    """Put every removed block back where it was, with its source and its item's status."""
    for row in removed:
        item = TaskItem.objects.get(pk=row.item_id) if row.item_id is not None else None
        task = Task.objects.get(pk=row.task_id) if row.task_id is not None else None
        lifted = Lifted(kind=row.kind, title=row.title, location=row.location, note=row.note, item=item, task=task)
        block_put(user=user, lifted=lifted, where=row.origin, source=row.source)
        if item is not None:
            TaskItem.objects.filter(pk=item.pk).update(status=row.status, updated_at=timezone.now())


def marks_unchanged(*, user: User, marked: Sequence[MarkedBlock]) -> bool:
    """Tell whether every marked block still has the status the mark gave it."""
    items = {row.item_id: row.after for row in marked if row.item_id is not None}
    tasks = [row.task_id for row in marked if row.task_id is not None]
    current = dict(TaskItem.objects.filter(pk__in=list(items), task_class__user=user).values_list("pk", "status"))
    done = Task.objects.filter(pk__in=tasks, user=user, completed=True).count()
    return current == items and done == len(tasks)


def marks_undo(*, user: User, marked: Sequence[MarkedBlock]) -> None:
    """Give every marked block its status from before the mark (a quick note is open again)."""
    for row in marked:
        if row.task_id is not None:
            Task.objects.filter(pk=row.task_id, user=user).update(completed=False, completed_at=None,
                                                                  updated_at=timezone.now())
        elif row.item_id is not None:
            TaskItem.objects.filter(pk=row.item_id, task_class__user=user).update(status=row.before,
                                                                                 updated_at=timezone.now())


def source_of(event_id: int | None) -> str:
    """The source of a block's own event (a block embedded in a filler course has none: the planner's)."""
    source = (ScheduleEvent.objects.filter(pk=event_id).values_list("source", flat=True).first()
              if event_id is not None else None)
    return source or ScheduleEvent.Source.PLANNER
