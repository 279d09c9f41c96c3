"""The parts of a preview beyond new study blocks: moves of existing blocks and quick-note placements.

Called inside ``preview_apply`` / ``changeset_undo`` transactions. A move first takes the block off
its old place (checking it is still exactly there), then puts it down at the new one; all moves are
lifted before any is put down, so two blocks can trade places. Anything that changed meanwhile
raises a ConflictError naming it, and the caller's transaction writes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.change_records import BlockMove, BlockSpot, NotePlacement
from schedule.models import ScheduleEvent, ScheduleSlot
from schedule.services.events import Span, event_create
from schedule.services.slots import slots_embed, slots_unembed
from smartmate.platform.exceptions import ConflictError
from taskclasses.models import Task, TaskItem


@dataclass(frozen=True)
class Lifted:
    """What a block looked like before it was lifted, to put it down elsewhere."""

    kind: str
    title: str
    location: str
    note: str
    item: TaskItem | None
    task: Task | None


def _changed() -> ConflictError:
    return ConflictError(_("A block this preview moves was moved or removed meanwhile; plan again."),
                         code="item_changed")


def block_lift(*, user: User, kind: str, item_id: int | None, task_id: int | None, event_id: int | None,
               where: BlockSpot) -> Lifted:
    """Take a study or quick-note block off ``where``; refuse if it is not exactly there any more."""
    item = TaskItem.objects.filter(pk=item_id, task_class__user=user).first() if item_id else None
    task = Task.objects.filter(pk=task_id, user=user).first() if task_id else None
    if (item_id and item is None) or (task_id and task is None):
        raise _changed()
    if where.embedded:
        return _unembed(user=user, item=item, where=where)
    event = ScheduleEvent.objects.select_for_update().filter(  # type: ignore[misc]  # pk=None: no event, changed
        user=user, pk=event_id, kind=kind, week=where.week, day=where.day,
        start_section=where.start_section, end_section=where.end_section,
        task_item=item, task=task).first()
    if event is None:
        raise _changed()
    lifted = Lifted(kind=kind, title=event.title, location=event.location, note=event.note, item=item, task=task)
    event.delete()
    return lifted


def _unembed(*, user: User, item: TaskItem | None, where: BlockSpot) -> Lifted:
    if item is None:
        raise _changed()
    if slots_unembed(user=user, item_id=item.pk, spot=where) != len(where.sections):
        raise _changed()
    return Lifted(kind=ScheduleEvent.Kind.TASK_ITEM, title=item.content, location="", note="", item=item, task=None)


def block_put(*, user: User, lifted: Lifted, where: BlockSpot, source: str) -> int | None:
    """Put a lifted block down at ``where``: its own event in free time, or inside a filler course.

    Returns the new event's id (None when embedded). Raises SlotConflictError naming the occupant.
    """
    if where.embedded:
        if lifted.item is None:
            raise ConflictError(_("Only study blocks can sit inside a filler course."), code="not_embeddable")
        slots_embed(user=user, item_id=lifted.item.pk, spot=where)
        return None
    span = Span(where.week, where.day, where.start_section, where.end_section)
    event = event_create(user=user, title=lifted.title, span=span, kind=lifted.kind, source=source,
                         location=lifted.location, note=lifted.note, task_item=lifted.item, task=lifted.task)
    return event.pk


def moves_apply(*, user: User, moves: Sequence[BlockMove], source: str) -> list[BlockMove]:
    """Lift every moved block, then put each down at its target; returns the moves for the change set."""
    lifted = [block_lift(user=user, kind=m.kind, item_id=m.item_id, task_id=m.task_id, event_id=m.event_id,
                         where=m.origin) for m in moves]
    return [move.applied_as(block_put(user=user, lifted=block, where=move.target, source=source))
            for move, block in zip(moves, lifted)]


def moves_undo(*, user: User, moves: Sequence[BlockMove]) -> None:
    """Put every moved block back where it was before the apply."""
    lifted = [block_lift(user=user, kind=m.kind, item_id=m.item_id, task_id=m.task_id, event_id=m.event_id_after,
                         where=m.target) for m in moves]
    for move, block in zip(moves, lifted):
        # A direct edit records the block's own source; a preview's moves came from the assistant.
        block_put(user=user, lifted=block, where=move.origin, source=move.source or ScheduleEvent.Source.ASSISTANT)


def moves_unchanged(*, user: User, moves: Sequence[BlockMove]) -> bool:
    """Tell whether every moved block still sits where the apply put it."""
    for move in moves:
        to = move.target
        if to.embedded:
            held = ScheduleSlot.objects.filter(user=user, event_id=to.host_event_id, week=to.week, day=to.day,
                                               section__in=to.sections, embedded_item_id=move.item_id).count()
            if held != len(to.sections):
                return False
        elif move.event_id_after is None or not ScheduleEvent.objects.filter(
                user=user, pk=move.event_id_after, week=to.week, day=to.day, start_section=to.start_section).exists():
            return False
    return True


def notes_place(*, user: User, placements: Sequence[NotePlacement], source: str) -> list[ScheduleEvent]:
    """Give each quick-note task its block; refuse a task completed, deleted or scheduled meanwhile."""
    wanted = [p.task_id for p in placements]
    tasks = {t.pk: t for t in Task.objects.select_for_update().filter(user=user, pk__in=wanted, completed=False)
             .exclude(events__isnull=False)}
    events = []
    for placement in placements:
        task = tasks.get(placement.task_id)
        if task is None:
            raise ConflictError(_("A quick note of this preview was completed, removed or scheduled meanwhile; "
                                  "plan again."), code="item_changed")
        spot = placement.spot
        span = Span(spot.week, spot.day, spot.start_section, spot.end_section)
        events.append(event_create(user=user, title=task.title, span=span, kind=ScheduleEvent.Kind.QUICK_NOTE,
                                   source=source, task=task))
    return events
