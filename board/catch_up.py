"""Catch-up: the study blocks gone by without being marked done, placed again before their plan ends.

"补上落下的 3 次复习" on the board or the dashboard makes a preview (the ordinary preview flow:
shown on the week board, applied in one transaction, undone exactly) that moves each such block
from its past place to the nearest free time from now on, class order kept, and touches as few
other blocks as possible (``schedule.core.repair``). Applying it plans a missed block again
(status ``missed`` -> ``placed``; undo gives the mark back).

A block counts when its status is ``placed`` or ``missed`` and it has begun (its own event, or the
filler meeting holding it, started before now); the bell's "missed blocks" count is the missed ones
among these, so what it announces this action can place. One block can be caught up alone
(``item_id``: the block dialog's "重新安排"). Blocks of a plan whose last day has gone by are
not caught up: its window is over (the student extends the end date first).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from board.boards import board_load, calendar_get
from board.repair import publish_repair
from schedule.core.board import Board
from schedule.core.repair import RepairResult, lift, repair
from schedule.models import PlanPreview, ScheduleEvent, ScheduleSlot
from smartmate.platform.exceptions import AppError, NotFoundError
from taskclasses.models import TaskClass, TaskItem

BEHIND = (TaskItem.Status.PLACED, TaskItem.Status.MISSED)
MAX_ID = 2**63 - 1


class CatchUpError(AppError):
    code = "nothing_to_catch_up"


@dataclass(frozen=True)
class Behind:
    """A block gone by and not done: its item and the day it was due."""

    item: TaskItem
    day: date


def blocks_behind(*, user: User, now: datetime, task_class: TaskClass | None = None) -> list[Behind]:
    """The student's blocks that have begun and are not done, in class and item order."""
    zone = calendar_get(user=user).semester.zone
    own = ScheduleEvent.objects.filter(user=user, kind=ScheduleEvent.Kind.TASK_ITEM, starts_at__lt=now,
                                       task_item__status__in=BEHIND)
    hosted = ScheduleSlot.objects.filter(user=user, embedded_item__status__in=BEHIND, event__starts_at__lt=now)
    if task_class is not None:
        own = own.filter(task_item__task_class=task_class)
        hosted = hosted.filter(embedded_item__task_class=task_class)
    days: dict[int, date] = {}
    for item_id, starts_at in own.values_list("task_item_id", "starts_at"):
        days[item_id] = starts_at.astimezone(zone).date()
    for item_id, starts_at in hosted.values_list("embedded_item_id", "event__starts_at"):
        days.setdefault(item_id, starts_at.astimezone(zone).date())
    items = TaskItem.objects.filter(pk__in=list(days)).select_related("task_class").order_by("task_class_id", "order")
    return [Behind(item, days[item.pk]) for item in items]


def catch_up_count(*, user: User, now: datetime | None = None, task_class_id: int | None = None) -> int:
    """How many blocks the catch-up action would place again (the button's number; of one class when
    ``task_class_id`` names one of the student's)."""
    now = now or timezone.now()
    today = calendar_get(user=user).semester.local_date(now)
    task_class = _task_class(user, task_class_id)
    return sum(1 for b in blocks_behind(user=user, now=now, task_class=task_class)
               if b.item.task_class.end_date >= today)


def _ensure_own_item(user: User, item_id: int) -> None:
    """Another student's block (or none) is simply not found."""
    if not (0 < item_id <= MAX_ID and TaskItem.objects.filter(pk=item_id, task_class__user=user).exists()):
        raise NotFoundError(_("Not found."), code="item_not_found")


def _task_class(user: User, task_class_id: int | None) -> TaskClass | None:
    if task_class_id is None:
        return None
    found = (TaskClass.objects.filter(user=user, pk=task_class_id).first() if 0 < task_class_id <= MAX_ID else None)
    if found is None:
        raise NotFoundError(_("Not found."), code="task_class_not_found")
    return found


@transaction.atomic
def catch_up_preview(*, user: User, task_class_id: int | None = None, now: datetime | None = None,
                     item_id: int | None = None) -> PlanPreview:
    """A preview placing every block gone by and not done again (or only ``item_id``), before its plan
    ends, order kept."""
    now = now or timezone.now()
    found = catch_up_board(user=user, task_class_id=task_class_id, now=now, item_id=item_id)
    return publish_repair(user=user, board=found.result.board, result=found.result, classes=found.classes, now=now)


@dataclass(frozen=True)
class CatchUp:
    """The repaired board (blocks behind placed again) and the plans they belong to."""

    result: RepairResult
    classes: list[TaskClass]


def catch_up_board(*, user: User, now: datetime, task_class_id: int | None = None,
                   previous: Board | None = None, item_id: int | None = None) -> CatchUp:
    """Place every block gone by and not done again on a board from the first of them on.

    ``previous``: the assistant's working schedule. The board then also holds what it held (its
    planned classes, its window, the waiting quick notes) with the same entry ids, so the
    conversation goes on with it; a caller keeps any changes of its own out of it first.
    """
    task_class = _task_class(user, task_class_id)
    calendar = calendar_get(user=user)
    today = calendar.semester.local_date(now)
    if task_class is not None and task_class.end_date < today:
        raise CatchUpError(_("“%(name)s” ended on %(end)s: there is no time left in it to catch up. Move its last "
                             "day first.") % {"name": task_class.name, "end": task_class.end_date},
                           code="class_ended")
    behind = [b for b in blocks_behind(user=user, now=now, task_class=task_class)
              if b.item.task_class.end_date >= today and item_id in (None, b.item.pk)]
    if not behind and item_id is not None:
        _ensure_own_item(user, item_id)
        raise CatchUpError(_("This block is not waiting to be caught up: it is done, still ahead, or its plan "
                             "has ended."), code="nothing_to_catch_up")
    if not behind:
        raise CatchUpError(_("Nothing to catch up: every block gone by is marked done."))
    classes = sorted({b.item.task_class for b in behind}, key=lambda c: c.pk)
    first = max(min(b.day for b in behind), calendar.semester.start_monday)
    last = max(c.end_date for c in classes)
    planned: tuple[int, ...] = previous.planned_class_ids if previous is not None else ()
    board = board_load(user=user, now=now, first=first,
                       last=max(last, previous.window.last) if previous is not None else last,
                       class_ids=planned, pending_notes=previous is not None, previous=previous, calendar=calendar)
    # Their classes count as planned, so a block left without a place is listed in the preview, with why.
    board = replace(board, planned_class_ids=tuple(sorted({*planned, *(c.pk for c in classes)})))
    wanted = [e.id for e in board.entries if e.item_id in {b.item.pk for b in behind}]
    return CatchUp(repair(lift(board, wanted), wanted, catch_up=True), classes)
