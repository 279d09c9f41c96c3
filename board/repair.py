"""Minimum-churn repair: after a course, an event of the student's own or a re-import took planned
blocks' places, a preview that places only those blocks again and moves the fewest others.

The displaced blocks wait (the change lifted them: ``timetable_edits.blocks_lift``, recorded in its
``ChangeSet.removed``). ``repair_preview`` loads the board, lets the pure core place them
(``schedule.core.repair``) and publishes the result as an ordinary preview (``preview_publish``), so
the student sees it on the week board, applies it in one transaction and can undo it.

``event_create_displacing`` is the custom event that lands on planned blocks: it lifts them, creates
the event and records both as one undoable change; the repair preview follows. A pinned block under
the event refuses it (``pinned_in_the_way``): the student unpins it or picks another time.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from board.boards import board_load, calendar_get
from board.planning import PreviewOrigin, preview_publish
from board.timetable_edits import blocks_lift
from schedule.core.board import Board, Entry, Kind
from schedule.core.repair import RepairResult, repair
from schedule.models import ChangeSet, PlanPreview, ScheduleEvent
from schedule.services.changesets import changeset_record
from schedule.services.events import Span, event_create
from schedule.services.timetable_records import empty_record
from schedule.services.timetable_sync import DisplacedBlock
from schedule.student_rules.models import StudyRules
from smartmate.platform.exceptions import AppError, ConflictError, NotFoundError
from taskclasses.models import TaskClass, TaskItem

REPAIRABLE_KINDS = (ChangeSet.Kind.COURSE, ChangeSet.Kind.IMPORT)
NO_ROOM = ("no_room_to_repair", "no free place before the plan's end keeps its order")


class NothingToRepairError(AppError):
    code = "nothing_to_repair"


# --- Which blocks are displaced ----------------------------------------------------------------------

def displaced_items(*, user: User, changeset: ChangeSet) -> list[TaskItem]:
    """The study items a change took off the board that still wait for a place."""
    ids = [block.item_id for block in changeset.removed_records() if block.item_id]
    return list(TaskItem.objects.filter(pk__in=ids, task_class__user=user, status=TaskItem.Status.PENDING)
                .select_related("task_class"))


def _repairable(*, user: User, changeset_id: int | None) -> ChangeSet:
    """The change to repair: the one named (the student's own), else the newest with blocks still waiting."""
    changes = ChangeSet.objects.filter(user=user, kind__in=REPAIRABLE_KINDS, undone_at__isnull=True)
    if changeset_id is not None:
        found = changes.filter(pk=changeset_id).first() if 0 < changeset_id < 2**63 else None
        if found is None:
            raise NotFoundError(_("Not found."), code="changeset_not_found")
        return found
    for changeset in changes.order_by("-applied_at")[:10]:
        if any(block.item_id for block in changeset.removed_records()):
            return changeset
    raise NothingToRepairError(_("No block lost its place: there is nothing to repair."))


def repair_offer(*, user: User, changeset: ChangeSet) -> int:
    """How many blocks of a change still wait to be placed again (0: no repair to offer)."""
    return len(displaced_items(user=user, changeset=changeset))


# --- The preview ---------------------------------------------------------------------------------------

@transaction.atomic
def repair_preview(*, user: User, changeset_id: int | None = None, now: datetime | None = None) -> PlanPreview:
    """Place the blocks a change displaced again, moving as few others as possible; a preview to apply."""
    now = now or timezone.now()
    changeset = _repairable(user=user, changeset_id=changeset_id)
    items = displaced_items(user=user, changeset=changeset)
    calendar = calendar_get(user=user)
    today = calendar.semester.local_date(now)
    items = [i for i in items if i.task_class.end_date >= today]
    if not items:
        raise NothingToRepairError(_("No block of this change waits for a place any more: there is nothing "
                                     "to repair."))
    classes = sorted({i.task_class for i in items}, key=lambda c: c.pk)
    board = board_load(user=user, now=now, first=today, last=max(c.end_date for c in classes),
                       class_ids=[c.pk for c in classes], pending_notes=False, calendar=calendar)
    board = only_pending(board, {i.pk for i in items})
    wanted = [e.id for e in board.entries if e.item_id in {i.pk for i in items}]
    return publish_repair(user=user, board=board, result=repair(board, wanted), classes=classes, now=now)


def only_pending(board: Board, item_ids: set[int]) -> Board:
    """The board without the waiting items it was not asked to place (they are not this repair's)."""
    kept = tuple(e for e in board.entries if e.place is not None or e.item_id in item_ids or e.kind is not Kind.STUDY)
    return replace(board, entries=kept)


def publish_repair(*, user: User, board: Board, result: RepairResult, classes: list[TaskClass],
                   now: datetime) -> PlanPreview:
    """Store a repaired board as an open preview, each moved block with its reason."""
    if not result.placed:
        raise NothingToRepairError(_("No free place keeps these blocks before their plans end. Extend the end "
                                     "date, allow filler courses, or remove an excluded time."),
                                   code="no_room_to_repair")
    why = {_item(result.board, entry_id): reason for entry_id, reason in result.reasons.items()
           if _item(result.board, entry_id) is not None}
    waiting = {_item(result.board, entry_id): NO_ROOM for entry_id in result.unplaced}
    # Only the plans' names are read (by the reasons of blocks left waiting); the figures are the planner's.
    feasibility = [{"class_id": c.pk, "name": c.name, "demand": 0, "candidate_slots": 0, "placed": 0, "slack": 0}
                   for c in classes]
    preview = preview_publish(user=user, board=result.board, origin=PreviewOrigin(PlanPreview.Source.PAGE),
                              now=now, reasons={k: v for k, v in waiting.items() if k is not None},
                              feasibility=feasibility, placement_reasons=why)  # type: ignore[arg-type]
    assert preview is not None  # a page preview is always kept
    return preview


def _item(board: Board, entry_id: int) -> int | None:
    entry: Entry | None = board.get(entry_id)
    return entry.item_id if entry is not None else None


# --- A custom event over planned blocks ------------------------------------------------------------------

@transaction.atomic
def event_create_displacing(*, user: User, title: str, span: Span, location: str = "", note: str = "") -> ChangeSet:
    """Create an event where planned blocks sit: they are lifted (their items wait again), the event is
    written, and both are one change undo reverses. Anything else in the way refuses it, nothing written."""
    blocks = _blocks_in(user=user, span=span)
    _refuse_pinned(user=user, blocks=blocks)
    removed = blocks_lift(user=user, blocks=blocks)
    event = event_create(user=user, title=title, span=span, location=location, note=note)
    record = empty_record()
    record["events_created"].append(event.pk)
    record["summary"] = {"action": "event_over_blocks", "event": title, "week": span.week, "blocks": len(removed)}
    return changeset_record(user=user, kind=ChangeSet.Kind.COURSE, removed=removed, timetable=record)


def _refuse_pinned(*, user: User, blocks: list[DisplacedBlock]) -> None:
    """A pinned block under the new event refuses it, nothing written.

    A pin means "never moved by repair, catch-up or the assistant"; an event of the student's own can
    go elsewhere, so lifting the pin silently would break that promise. The student unpins the block
    (one click in its dialog) or picks another time; the unpinned blocks of a change are repaired as
    usual, and the repair never moves a pinned block elsewhere on the board either.
    """
    rules = StudyRules.objects.filter(user=user).first()
    if rules is None:
        return
    pinned = [b for b in blocks if b.id in set(rules.pinned_items if b.kind == "item" else rules.pinned_notes)]
    if pinned:
        raise ConflictError(
            _("“%(title)s” is pinned here: unpin it first, or choose another time.") % {"title": pinned[0].title},
            code="pinned_in_the_way",
            detail={"pinned": [{"kind": b.kind, "id": b.id, "title": b.title} for b in pinned]})


def _blocks_in(*, user: User, span: Span) -> list[DisplacedBlock]:
    """The study and quick-note blocks with their own event in the span's sections (they are what moves)."""
    events = ScheduleEvent.objects.filter(
        user=user, week=span.week, day=span.day, start_section__lte=span.end_section,
        end_section__gte=span.start_section, kind__in=(ScheduleEvent.Kind.TASK_ITEM, ScheduleEvent.Kind.QUICK_NOTE))
    return [DisplacedBlock(kind="item" if e.kind == ScheduleEvent.Kind.TASK_ITEM else "note",
                           id=(e.task_item_id if e.kind == ScheduleEvent.Kind.TASK_ITEM else e.task_id) or 0,
                           title=e.title, week=e.week, day=e.day, start_section=e.start_section,
                           end_section=e.end_section, event_id=e.pk, host_event_id=None)
            for e in events.select_for_update()]

