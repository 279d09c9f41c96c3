"""Direct edits of the week board: move, remove, mark done or missed an applied block, and where it could go.

A block is a study block (``kind="item"``, a TaskItem in free time or inside a filler course) or
a placed quick note (``kind="note"``, a Task). Every edit is one transaction recorded as a
``ChangeSet`` that ``changeset_undo`` reverses exactly. "May it go there?" is the editing core's
question alone (``schedule.core.board_edits``): this module loads the board, asks the core, and
writes what the core allowed with the same writers a preview's apply uses.

Two tabs editing one block: the block's row is locked first, then the board is read, so edits of
one block run one after the other; a client that sends the ``version`` it last saw gets a 409
``block_changed`` when another edit came first.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from board.block_records import source_of
from board.boards import board_load, calendar_get
from board.placement_reasons import reason_set_manual
from board.preview_boards import preview_content, spot_of
from board.preview_moves import block_lift, moves_apply
from board.previews import BlockRuleError, refusal_error
from schedule.board_messages import place_text
from schedule.core.board import Board, Entry, Position, Spot
from schedule.core.board_edits import Move, OrderRule, apply
from schedule.core.board_errors import BoardError, EntryLocked, EntryPinned
from schedule.core.board_suggest import openings, suggest_places
from schedule.core.change_records import BlockMove, MarkedBlock, RemovedBlock
from schedule.core.time_model import TimeModelError, span_bounds
from schedule.exceptions import SlotConflictError
from schedule.models import ChangeSet, ScheduleEvent, ScheduleSlot
from schedule.services.changesets import changeset_record
from schedule.student_rules.models import StudyRules
from smartmate.platform.exceptions import AppError, ConflictError, NotFoundError
from taskclasses.models import Task, TaskItem

ITEM, NOTE = "item", "note"
KINDS = (ITEM, NOTE)
SUGGESTION_DAYS = 14  # how far ahead the "move to…" picker looks
MAX_SUGGESTIONS = 20
MAX_ID = 2**63 - 1


class BlockChangedError(ConflictError):
    code = "block_changed"


@dataclass(frozen=True, kw_only=True)
class PlaceView:
    """Where a block is or could be: week, day, sections, date and times (the student's zone), its host."""

    week: int
    day: int
    start_section: int
    end_section: int
    date: date
    starts_at: datetime
    ends_at: datetime
    host_event_id: int | None


@dataclass(frozen=True, kw_only=True)
class BlockView(PlaceView):
    """A block on the board as a client shows it: where, when (in the student's time zone) and its version."""

    kind: str
    id: int
    title: str
    status: str
    version: str
    pinned: bool = False  # the student pinned it: it is neither moved nor removed


@dataclass(frozen=True, kw_only=True)
class SlotView(PlaceView):
    """A place a block could go, and the filler course hosting it."""

    host_title: str | None
    text: str


@dataclass(frozen=True)
class EditResult:
    changeset: ChangeSet
    block: BlockView | None  # None: the block left the board


# --- Reading a block -----------------------------------------------------------------------------------

def _row(*, user: User, kind: str, block_id: int, lock: bool) -> TaskItem | Task:
    """The block's TaskItem or Task (locked when writing); another student's id is a 404."""
    if kind not in KINDS or not 0 < block_id <= MAX_ID:
        raise NotFoundError(_("This block is not on your timetable."), code="block_not_found")
    rows = TaskItem.objects.filter(task_class__user=user) if kind == ITEM else Task.objects.filter(user=user)
    if lock:
        rows = rows.select_for_update()
    row = rows.filter(pk=block_id).first()
    if row is None:
        raise NotFoundError(_("This block is not on your timetable."), code="block_not_found")
    return row


def _place_of(*, user: User, kind: str, block_id: int) -> tuple[int, int] | None:
    """The (week, day) where the block sits in the database, None when it has no place."""
    if kind == NOTE:
        return ScheduleEvent.objects.filter(user=user, task_id=block_id).values_list("week", "day").first()
    own = ScheduleEvent.objects.filter(user=user, task_item_id=block_id).values_list("week", "day").first()
    if own is not None:
        return own
    return ScheduleSlot.objects.filter(user=user, embedded_item_id=block_id).values_list("week", "day").first()


def _loaded(*, user: User, kind: str, block_id: int, now: datetime, also: date | None = None) -> tuple[Board, Entry]:
    """The board around the block (today, the block's day, ``also``, two weeks ahead) and its entry."""
    where = _place_of(user=user, kind=kind, block_id=block_id)
    if where is None:
        raise ConflictError(_("This block has no place on your timetable."), code="block_not_placed")
    calendar = calendar_get(user=user)
    today = calendar.semester.local_date(now)
    days = [today, calendar.date_of(*where), today + timedelta(days=SUGGESTION_DAYS - 1), *([also] if also else [])]
    board = board_load(user=user, now=now, first=min(days), last=max(days), pending_notes=False,
                       calendar=calendar)
    entry = board.find(item_id=block_id) if kind == ITEM else board.find(task_id=block_id)
    if entry is None or entry.place is None:
        raise ConflictError(_("This block has no place on your timetable."), code="block_not_placed")
    return board, entry


def _status(row: TaskItem | Task) -> str:
    if isinstance(row, TaskItem):
        return row.status
    return "done" if row.completed else "placed"


def _times(board: Board, week: int, day: int, start: int, end: int, zone) -> tuple[datetime, datetime]:
    starts_at, ends_at = span_bounds(board.calendar.semester, board.calendar.template, week, day, start, end)
    return starts_at.astimezone(zone), ends_at.astimezone(zone)


def _view(board: Board, entry: Entry, row: TaskItem | Task, user: User) -> BlockView:
    assert entry.place is not None
    at = spot_of(board, entry.place)
    starts_at, ends_at = _times(board, at.week, at.day, at.start_section, at.end_section, user.zone)
    status = _status(row)
    return BlockView(kind=ITEM if isinstance(row, TaskItem) else NOTE, id=row.pk, title=entry.name, status=status,
                     date=entry.place.day, starts_at=starts_at, ends_at=ends_at,
                     version=block_version(event_id=entry.event_id, status=status, **at.to_json()),
                     pinned=entry.pinned, **at.to_json())


def block_version(*, event_id: int | None, week: int, day: int, start_section: int, end_section: int,
                  host_event_id: int | None, status: str) -> str:
    """A short token that changes when the block moves or its status changes (the week page renders it too)."""
    at = {"week": week, "day": day, "start_section": start_section, "end_section": end_section,
          "host_event_id": host_event_id}
    token = f"{event_id}:{at}:{status}".encode()
    return hashlib.blake2s(token, digest_size=8).hexdigest()


def _check_version(view: BlockView, version: str | None) -> None:
    if version and version != view.version:
        raise BlockChangedError(_("This block was changed in another window; reload and try again."),
                                detail={"version": view.version})


def block_ensure(*, user: User, kind: str, block_id: int) -> None:
    """Raise a 404 unless the block is the student's (before its input is read: another's ids are just 404)."""
    _row(user=user, kind=kind, block_id=block_id, lock=False)


def block_get(*, user: User, kind: str, block_id: int, now: datetime | None = None) -> BlockView:
    """Return one placed block of the student's board with its version."""
    row = _row(user=user, kind=kind, block_id=block_id, lock=False)
    board, entry = _loaded(user=user, kind=kind, block_id=block_id, now=now or timezone.now())
    return _view(board, entry, row, user)


def _check_editable(board: Board, entry: Entry) -> None:
    """A block that has begun (the core's lock) or that the student pinned stays where it is."""
    if board.is_locked(entry):
        raise refusal_error(EntryLocked(entry=entry.id), board)
    if entry.pinned:
        raise refusal_error(EntryPinned(entry=entry.id), board)


# --- Moving ----------------------------------------------------------------------------------------------

@transaction.atomic
def block_move(*, user: User, kind: str, block_id: int, week: int, day: int, start_section: int,
               version: str | None = None, allow_reorder: bool = False, now: datetime | None = None) -> EditResult:
    """Move a placed block to (week, day, start_section) where the editing core allows it.

    A refusal carries the core's code and message and up to three places that would work:
    409 when the place is taken (naming the occupant), 400 for any other rule.
    """
    row = _row(user=user, kind=kind, block_id=block_id, lock=True)
    planned = _move_planned(user=user, row=row, kind=kind, week=week, day=day, start_section=start_section,
                            version=version, allow_reorder=allow_reorder, now=now or timezone.now())
    moved, entry, moves = planned.moved, planned.entry, planned.moves
    try:
        with transaction.atomic():
            written = moves_apply(user=user, moves=moves, source=ScheduleEvent.Source.MANUAL)
    except IntegrityError as exc:
        raise SlotConflictError(_("Another change took this place meanwhile; reload and try again."),
                                code="slot_taken") from exc
    changeset = changeset_record(user=user, kind=ChangeSet.Kind.MOVE, moves=written)
    reason_set_manual(item_ids=[move.item_id for move in moves if move.item_id])
    after = moved.get(entry.id)
    assert after is not None
    return EditResult(changeset, _view(moved, after, row, user))


@dataclass(frozen=True)
class _PlannedMove:
    moved: Board  # the board after the move
    entry: Entry  # the block, as it was
    moves: list[BlockMove]  # what moves_apply writes


def _move_planned(*, user: User, row: TaskItem | Task, kind: str, week: int, day: int, start_section: int,
                  version: str | None, allow_reorder: bool, now: datetime) -> _PlannedMove:
    """Ask the editing core whether the block may go to (week, day, start_section); raise its refusal if not."""
    calendar = calendar_get(user=user)
    try:
        target_day = calendar.date_of(week, day)
    except TimeModelError:
        raise BlockRuleError(_("That time is outside the semester."), code="outside_semester") from None
    board, entry = _loaded(user=user, kind=kind, block_id=row.pk, now=now, also=target_day)
    _check_version(_view(board, entry, row, user), version)
    order = OrderRule.ALLOW if allow_reorder else OrderRule.KEEP
    edit = Move(entry.id, Spot(target_day, start_section))
    try:
        moved = apply(board, edit, order=order)
    except BoardError as error:
        raise refusal_error(error, board, suggest_places(board, edit, order=order)) from None
    moves = [BlockMove.from_json({**m, "title": entry.name, "source": source_of(entry.event_id)})
             for m in preview_content(moved)["moves"]]
    if not moves:  # the block is already there
        raise BlockRuleError(_("The block is already there."), code="not_moved")
    return _PlannedMove(moved, entry, moves)


def block_move_check(*, user: User, kind: str, block_id: int, week: int, day: int, start_section: int,
                     version: str | None = None, allow_reorder: bool = False,
                     now: datetime | None = None) -> SlotView:
    """Say where a move to (week, day, start_section) would put the block, writing nothing.

    Refused exactly as ``block_move`` would refuse it (same codes, messages and places that work), so the
    "move to…" picker can tell the student before they tap.
    """
    row = _row(user=user, kind=kind, block_id=block_id, lock=False)
    planned = _move_planned(user=user, row=row, kind=kind, week=week, day=day, start_section=start_section,
                            version=version, allow_reorder=allow_reorder, now=now or timezone.now())
    after = planned.moved.get(planned.entry.id)
    assert after is not None and after.place is not None
    place = after.place
    return _slot_view(planned.moved, place.day, place.start, place.end, place.host, user)


# --- Removing --------------------------------------------------------------------------------------------

@transaction.atomic
def block_remove(*, user: User, kind: str, block_id: int, version: str | None = None,
                 now: datetime | None = None) -> EditResult:
    """Take a placed block off the board: its study item waits to be planned again, its note is unscheduled.

    A block that has begun is fixed (the core's lock) and stays.
    """
    now = now or timezone.now()
    row = _row(user=user, kind=kind, block_id=block_id, lock=True)
    board, entry = _loaded(user=user, kind=kind, block_id=block_id, now=now)
    _check_version(_view(board, entry, row, user), version)
    _check_editable(board, entry)
    assert entry.origin is not None
    where = spot_of(board, entry.origin)
    source, status = source_of(entry.event_id), _status(row)
    lifted = block_lift(user=user, kind=entry.kind.value, item_id=entry.item_id, task_id=entry.task_id,
                        event_id=entry.event_id, where=where)
    record = RemovedBlock(kind=entry.kind.value, item_id=entry.item_id, task_id=entry.task_id,
                          event_id=entry.event_id, source=source, status=status, origin=where, title=lifted.title,
                          location=lifted.location, note=lifted.note)
    if isinstance(row, TaskItem):
        TaskItem.objects.filter(pk=row.pk).update(status=TaskItem.Status.PENDING, updated_at=timezone.now())
    changeset = changeset_record(user=user, kind=ChangeSet.Kind.REMOVE, removed=[record])
    return EditResult(changeset, None)


# --- Marking ---------------------------------------------------------------------------------------------

@transaction.atomic
def block_mark(*, user: User, kind: str, block_id: int, status: str, version: str | None = None,
               now: datetime | None = None) -> EditResult:
    """Mark a placed block done or missed; it stays on the board (a missed one is planned again later).

    A quick note is only marked done (it is completed, as from its list).
    """
    now = now or timezone.now()
    if status not in (TaskItem.Status.DONE, TaskItem.Status.MISSED):
        raise AppError(_("A block is marked done or missed."), code="invalid_status")
    row = _row(user=user, kind=kind, block_id=block_id, lock=True)
    if isinstance(row, Task) and status != TaskItem.Status.DONE:
        raise AppError(_("Only study blocks can be marked missed; a quick note is done or still open."),
                       code="not_a_study_block")
    board, entry = _loaded(user=user, kind=kind, block_id=block_id, now=now)
    _check_version(_view(board, entry, row, user), version)
    if _status(row) == status:
        raise ConflictError(_("This block is already marked so."), code="already_marked")
    if isinstance(row, Task):
        record = MarkedBlock(item_id=None, task_id=row.pk, title=row.title, before=_status(row), after=status)
        Task.objects.filter(pk=row.pk).update(completed=True, completed_at=now, updated_at=timezone.now())
        row.completed = True
    else:
        record = MarkedBlock(item_id=row.pk, task_id=None, title=row.content, before=row.status, after=status)
        TaskItem.objects.filter(pk=row.pk).update(status=status, updated_at=timezone.now())
        row.status = status
    changeset = changeset_record(user=user, kind=ChangeSet.Kind.MARK, marked=[record])
    return EditResult(changeset, _view(board, entry, row, user))


# --- Where it could go -----------------------------------------------------------------------------------

def block_suggestions(*, user: User, kind: str, block_id: int, limit: int = 5,
                      now: datetime | None = None) -> tuple[BlockView, list[SlotView]]:
    """The first ``limit`` places (from now on, two weeks ahead) where the core would let the block move."""
    now = now or timezone.now()
    row = _row(user=user, kind=kind, block_id=block_id, lock=False)
    board, entry = _loaded(user=user, kind=kind, block_id=block_id, now=now)
    _check_editable(board, entry)
    found: list[SlotView] = []
    for opening in openings(board, entry):
        if len(found) >= min(limit, MAX_SUGGESTIONS):
            break
        if entry.place is not None and (opening.day, opening.start) == (entry.place.day, entry.place.start):
            continue
        try:
            apply(board, Move(entry.id, Spot(opening.day, opening.start)))
        except BoardError:
            continue
        found.append(_slot_view(board, opening.day, opening.start, opening.end, opening.host, user))
    return _view(board, entry, row, user), found


def _slot_view(board: Board, day: date, start: int, end: int, host: int | None, user: User) -> SlotView:
    at = spot_of(board, Position(day, start, end, host))
    starts_at, ends_at = _times(board, at.week, at.day, start, end, user.zone)
    host_entry = board.get(host) if host is not None else None
    return SlotView(date=day, starts_at=starts_at, ends_at=ends_at,
                    host_title=host_entry.name if host_entry is not None else None,
                    text=place_text(Spot(day, start), end - start + 1), **at.to_json())


# --- Pinning ---------------------------------------------------------------------------------------------

@transaction.atomic
def block_pin(*, user: User, kind: str, block_id: int, pinned: bool, now: datetime | None = None) -> BlockView:
    """Pin a placed block (no edit, repair or assistant moves or removes it) or unpin it.

    The pin is the block's item (or quick note) id in the student's rules row
    (``schedule/student_rules/models.py``); ids of blocks deleted since are dropped here.
    """
    row = _row(user=user, kind=kind, block_id=block_id, lock=True)
    board, entry = _loaded(user=user, kind=kind, block_id=block_id, now=now or timezone.now())
    rules, _created = StudyRules.objects.select_for_update().get_or_create(user=user)
    field, rows = ("pinned_items", TaskItem.objects.filter(task_class__user=user)) if kind == ITEM \
        else ("pinned_notes", Task.objects.filter(user=user))
    ids = (set(getattr(rules, field)) | {row.pk}) if pinned else (set(getattr(rules, field)) - {row.pk})
    setattr(rules, field, sorted(rows.filter(pk__in=ids).values_list("pk", flat=True)))
    rules.save(update_fields=[field, "updated_at"])
    return _view(board, replace(entry, pinned=pinned), row, user)
