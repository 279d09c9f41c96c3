"""Adjust a preview (move or remove a block), apply it in one transaction, and undo an apply.

Moving and removing a block are edits of the preview's board (``preview_board``) by the editing
core; this module only turns a refusal into the error every client reads.
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from board.block_records import marks_unchanged, marks_undo, removals_unchanged, removals_undo
from board.boards import unplaced_items
from board.placement_reasons import reasons_after_drag, reasons_keep
from board.planning import PlanningError, preview_get
from board.preview_boards import preview_board, preview_content
from board.preview_moves import moves_apply, moves_unchanged, moves_undo, notes_place
from schedule.board_messages import place_text, refusal_message, suggestions_text
from schedule.core.board import Board, Entry, Spot
from schedule.core.board_edits import Edit, Move, OrderRule, Unplace, apply
from schedule.core.board_errors import BoardError, OccupiedError, SpotError, UnknownEntry
from schedule.core.board_suggest import suggest_places
from schedule.core.change_records import BlockSpot
from schedule.core.time_model import TimeModelError
from schedule.exceptions import SlotConflictError
from schedule.models import ChangeSet, PlanPreview, ScheduleEvent, ScheduleSlot
from schedule.services.academic_calendar import academic_calendar_sync, makeup_copies_drop
from schedule.services.changesets import changeset_record
from schedule.services.events import Span, event_create
from schedule.services.slots import slots_embed, slots_release
from schedule.services.timetable_records import timetable_restore, timetable_unchanged
from smartmate.platform.exceptions import AppError, ConflictError, NotFoundError
from taskclasses.models import TaskClass, TaskItem


class PreviewClosedError(ConflictError):
    code = "preview_closed"


class BlockRuleError(PlanningError):
    code = "block_not_allowed"


def _open_preview(*, user: User, preview_id: int, now: datetime, lock: bool = False) -> PlanPreview:
    preview = preview_get(user=user, preview_id=preview_id)
    if lock:
        preview = PlanPreview.objects.select_for_update().get(pk=preview.pk)
    if preview.status != PlanPreview.Status.OPEN:
        raise PreviewClosedError(_("This preview was already applied or discarded."), code="preview_closed")
    if preview.expires_at <= now:
        raise PreviewClosedError(_("This preview has expired; plan again."), code="preview_expired")
    return preview


# --- Moving and removing blocks ------------------------------------------------------------------

@transaction.atomic
def preview_block_move(
    *, user: User, preview_id: int, item_id: int, week: int, day: int, start_section: int,
    now: datetime | None = None,
) -> PlanPreview:
    """Move one suggested block where the editing core allows it; the class's suggested blocks are
    then handed to its items in time order (``OrderRule.RENUMBER``), so item order holds.

    A refusal carries the core's code, the shared message (``schedule.board_messages``) and up to
    three places that would work: 409 when the place is taken, 400 for any other rule.
    """
    preview, board, entry = _suggested_block(user=user, preview_id=preview_id, item_id=item_id,
                                             now=now or timezone.now())
    try:
        target = Spot(board.calendar.date_of(week, day), start_section)
    except TimeModelError:
        raise BlockRuleError(_("That time is outside the semester."), code="outside_semester") from None
    moved = _edited(board, Move(entry.id, target), order=OrderRule.RENUMBER)
    return _saved(preview, moved)


@transaction.atomic
def preview_block_remove(*, user: User, preview_id: int, item_id: int, now: datetime | None = None) -> PlanPreview:
    """Take one suggested block out of the preview; the item stays unplaced."""
    preview, board, entry = _suggested_block(user=user, preview_id=preview_id, item_id=item_id,
                                             now=now or timezone.now())
    return _saved(preview, _edited(board, Unplace(entry.id)), removed=item_id)


def _suggested_block(*, user: User, preview_id: int, item_id: int,
                     now: datetime) -> tuple[PlanPreview, Board, Entry]:
    """The open preview (locked), its board, and the board's entry of one of its suggested blocks."""
    preview = _open_preview(user=user, preview_id=preview_id, now=now, lock=True)
    board = preview_board(user=user, preview=preview, now=now)
    entry = board.find(item_id=item_id)
    if entry is None or not any(p.item_id == item_id for p in preview.placement_records()):
        raise NotFoundError(_("This block is not in the preview."), code="block_not_found")
    return preview, board, entry


def _edited(board: Board, edit: Edit, *, order: OrderRule = OrderRule.KEEP) -> Board:
    try:
        return apply(board, edit, order=order)
    except BoardError as error:
        raise refusal_error(error, board, suggest_places(board, edit, order=order)) from None


def refusal_error(error: BoardError, board: Board, suggestions: tuple[Spot, ...] = ()) -> AppError:
    """The core's refusal as the error every client reads: {code, message, detail}.

    ``detail`` holds the refusal's data and the suggested places (week, day, section and text).
    """
    entry = board.get(error.data().get("entry"))
    length = entry.length if entry is not None else 2
    detail = {"data": error.data(), "suggestions": [_spot_json(board, spot, length) for spot in suggestions],
              "suggestions_text": suggestions_text(suggestions, length) if isinstance(error, SpotError) else ""}
    kind = (NotFoundError if isinstance(error, UnknownEntry) else
            SlotConflictError if isinstance(error, OccupiedError) else BlockRuleError)
    return kind(refusal_message(error, board), code=error.code, detail=detail)


def _spot_json(board: Board, spot: Spot, length: int) -> dict:
    week, day = board.calendar.week_day(spot.day)
    return {"week": week, "day": day, "start_section": spot.start, "text": place_text(spot, length)}


def _saved(preview: PlanPreview, board: Board, *, removed: int | None = None) -> PlanPreview:
    reasons = {u["item_id"]: (u["reason"], u["detail"]) for u in preview.unplaced}
    if removed is not None:
        reasons[removed] = ("removed", "removed from the preview")
    why = reasons_after_drag(preview, board)
    for field, rows in preview_content(board, reasons=reasons, placement_reasons=why).items():
        setattr(preview, field, rows)
    preview.save(update_fields=["placements", "moves", "task_placements", "unplaced", "updated_at"])
    return preview


# --- Apply and undo --------------------------------------------------------------------------------

@transaction.atomic
def preview_apply(*, user: User, preview_id: int, now: datetime | None = None) -> ChangeSet:
    """Write every suggested block, move and quick note, or nothing: a slot taken meanwhile is a 409 naming it."""
    preview = _open_preview(user=user, preview_id=preview_id, now=now or timezone.now(), lock=True)
    placements = preview.placement_records()
    notes = preview.note_placement_records()
    wanted = [p.item_id for p in placements]
    items = {item.pk: item for item in TaskItem.objects.select_for_update().filter(pk__in=wanted,
                                                                                  task_class__user=user)}
    still_unplaced = set(unplaced_items(TaskClass.objects.filter(user=user, pk__in=preview.task_class_ids))
                         .filter(pk__in=wanted).values_list("pk", flat=True))
    source = (ScheduleEvent.Source.ASSISTANT if preview.source == PlanPreview.Source.ASSISTANT
              else ScheduleEvent.Source.PLANNER)
    events, embedded = [], []
    try:
        with transaction.atomic():
            # Moves go first: a new block may take the place a moved block left.
            moved = moves_apply(user=user, moves=preview.move_records(), source=source)
            for placement in placements:
                item = _pending_item(items, still_unplaced, placement.item_id)
                if placement.spot.embedded:
                    embedded.extend(slots_embed(user=user, item_id=item.pk, spot=placement.spot))
                else:
                    events.append(_place_in_free_time(user=user, item=item, spot=placement.spot, source=source))
            events.extend(notes_place(user=user, placements=notes, source=source))
    except IntegrityError as exc:
        raise SlotConflictError(_("Another change took one of these slots; plan again."), code="slot_taken") from exc
    TaskItem.objects.filter(pk__in=list(items)).update(status=TaskItem.Status.PLACED, updated_at=timezone.now())
    marked = reasons_keep(user=user, preview=preview)  # and a caught-up missed block is planned again
    preview.status = PlanPreview.Status.APPLIED
    preview.save(update_fields=["status", "updated_at"])
    return changeset_record(
        user=user, kind=ChangeSet.Kind.APPLY, preview=preview, item_ids=sorted(items), moves=moved, marked=marked,
        task_ids=sorted(p.task_id for p in notes),
        event_ids=[{"id": e.pk, "week": e.week, "day": e.day, "start_section": e.start_section} for e in events],
        embedded_slot_ids=embedded,
    )


def _pending_item(items: dict[int, TaskItem], still_unplaced: set[int], item_id: int) -> TaskItem:
    item = items.get(item_id)
    if item is None or item_id not in still_unplaced:
        raise ConflictError(_("A block of this preview was placed or removed meanwhile; plan again."),
                            code="item_changed")
    return item


def _place_in_free_time(*, user: User, item: TaskItem, spot: BlockSpot,
                        source: str = ScheduleEvent.Source.PLANNER) -> ScheduleEvent:
    span = Span(spot.week, spot.day, spot.start_section, spot.end_section)
    return event_create(user=user, title=item.content, span=span, kind=ScheduleEvent.Kind.TASK_ITEM,
                        source=source, task_item=item)


@transaction.atomic
def changeset_undo(*, user: User, changeset_id: int, now: datetime | None = None) -> ChangeSet:
    """Revert an apply, a direct edit, a course change or a re-import exactly, unless something changed
    since (then refuse and say what)."""
    changeset = ChangeSet.objects.select_for_update().filter(user=user, pk=changeset_id).first()
    if changeset is None:
        raise NotFoundError(_("Not found."), code="changeset_not_found")
    if changeset.undone_at is not None:
        raise ConflictError(_("This change was already undone."), code="already_undone")
    _ensure_unchanged(changeset)
    ScheduleEvent.objects.filter(pk__in=[e["id"] for e in changeset.event_ids]).delete()
    slots_release(user=user, slot_ids=changeset.embedded_slot_ids)
    TaskItem.objects.filter(pk__in=changeset.item_ids).update(status=TaskItem.Status.PENDING,
                                                              updated_at=timezone.now())
    try:
        with transaction.atomic():
            moves_undo(user=user, moves=changeset.move_records())
    except IntegrityError as exc:
        raise SlotConflictError(_("Another change took the old place of a moved block; move it back by hand."),
                                code="slot_taken") from exc
    marks_undo(user=user, marked=changeset.marked_records())
    # The old timetable first: blocks that sat in a deleted meeting go back into it (same ids). Make-up
    # copies are the calendar's: dropped first so they hold no section, redone by the sync after.
    if changeset.timetable:
        makeup_copies_drop(user=user)
    timetable_restore(user=user, record=changeset.timetable or {})
    removals_undo(user=user, removed=changeset.removed_records())
    if changeset.timetable:
        academic_calendar_sync(user=user)
    changeset.undone_at = now or timezone.now()
    changeset.save(update_fields=["undone_at"])
    return changeset


def _ensure_unchanged(changeset: ChangeSet) -> None:
    recorded = {e["id"]: (e["week"], e["day"], e["start_section"]) for e in changeset.event_ids}
    current = dict((pk, (w, d, s)) for pk, w, d, s in ScheduleEvent.objects.filter(pk__in=list(recorded))
                   .values_list("pk", "week", "day", "start_section"))
    embedded_still = ScheduleSlot.objects.filter(pk__in=changeset.embedded_slot_ids,
                                                 embedded_item__isnull=False).count()
    items_placed = TaskItem.objects.filter(pk__in=changeset.item_ids, status=TaskItem.Status.PLACED).count()
    if current != recorded or embedded_still != len(changeset.embedded_slot_ids) \
            or items_placed != len(changeset.item_ids) \
            or not moves_unchanged(user=changeset.user, moves=changeset.move_records()) \
            or not removals_unchanged(user=changeset.user, removed=changeset.removed_records()) \
            or not marks_unchanged(user=changeset.user, marked=changeset.marked_records()) \
            or not timetable_unchanged(user=changeset.user, record=changeset.timetable or {}):
        raise ConflictError(_("Blocks of this change were moved, removed or completed since; "
                              "undo them one by one instead."), code="undo_conflict")
