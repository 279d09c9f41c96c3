"""Course changes and re-imports that take study blocks off the board, each one undoable change set.

Deleting one meeting of a course (a holiday), a whole course, turning a filler course off, or syncing
the timetable with a new file: the blocks that sat in what disappears (or where a new meeting comes)
are lifted the way a direct removal lifts them (``ChangeSet.removed``, the same records, so
``removals_undo`` puts them back), their study items wait again. The timetable rows go through
``schedule.services.timetable_records`` (snapshot and exact restore, ``ChangeSet.timetable``). A dry
run changes nothing and lists the blocks that would return to pending, for the student to confirm.

Registered as the schedule's timetable editor (``schedule.timetable_port``) by ``board/apps.py``.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from board import event_edits
from board.block_records import source_of
from board.changeset_summaries import changeset_summary
from board.preview_moves import block_lift
from schedule.core.change_records import BlockSpot, RemovedBlock
from schedule.exceptions import SlotConflictError
from schedule.models import CalendarSettings, ChangeSet, Course, ScheduleEvent
from schedule.services import imports
from schedule.services.academic_calendar import academic_calendar_sync
from schedule.services.changesets import changeset_record
from schedule.services.timetable_records import (
    course_change_recorded,
    course_delete_recorded,
    empty_record,
    events_delete,
)
from schedule.services.timetable_sync import (
    DisplacedBlock,
    embedded_blocks,
    timetable_sync_plan,
    timetable_sync_write,
)
from schedule.timetable_port import TimetableEditResult
from smartmate.platform.exceptions import AppError, ConflictError, NotFoundError
from taskclasses.models import Task, TaskItem

COURSE_FIELDS = ("name", "teacher", "location", "is_filler")


class ImportStaleError(ConflictError):
    code = "import_stale"


# --- Lifting the displaced blocks ---------------------------------------------------------------------

def blocks_lift(*, user: User, blocks: list[DisplacedBlock]) -> list[RemovedBlock]:
    """Take each block off the board (its study item waits again); return the removal records."""
    records = []
    for block in blocks:
        is_item = block.kind == "item"
        row: TaskItem | Task = (TaskItem.objects.get(pk=block.id, task_class__user=user) if is_item
                                else Task.objects.get(pk=block.id, user=user))
        where = BlockSpot(week=block.week, day=block.day, start_section=block.start_section,
                          end_section=block.end_section, host_event_id=block.host_event_id)
        kind = ScheduleEvent.Kind.TASK_ITEM if is_item else ScheduleEvent.Kind.QUICK_NOTE
        item_id, task_id = (block.id, None) if is_item else (None, block.id)
        source = source_of(block.event_id)
        lifted = block_lift(user=user, kind=kind, item_id=item_id, task_id=task_id, event_id=block.event_id,
                            where=where)
        status_after = None
        if isinstance(row, TaskItem):
            # A placed block waits again; one already done or missed keeps that (it is the student's record).
            after = TaskItem.Status.PENDING if row.status == TaskItem.Status.PLACED else row.status
            TaskItem.objects.filter(pk=block.id).update(status=after, updated_at=timezone.now())
            status_after = str(after)
        records.append(RemovedBlock(
            kind=str(kind), item_id=item_id, task_id=task_id, event_id=block.event_id, source=source,
            status=row.status if isinstance(row, TaskItem) else "placed", origin=where, title=lifted.title,
            location=lifted.location, note=lifted.note, status_after=status_after))
    return records


def _recorded(*, user: User, removed: list[RemovedBlock], record: dict, summary: dict,
              kind: str = ChangeSet.Kind.COURSE) -> ChangeSet:
    # The school calendar follows the new timetable: holidays set its meetings aside, make-up days copy
    # them (a conflict there refuses the whole change, as the caller's transaction rolls back).
    academic_calendar_sync(user=user)
    record["summary"] = {**summary, "blocks": len(removed)}
    return changeset_record(user=user, kind=kind, removed=removed, timetable=record)


def _result(changeset: ChangeSet | None, displaced: list[DisplacedBlock], **extra) -> TimetableEditResult:
    if changeset is None:
        return TimetableEditResult(dry_run=True, displaced=tuple(displaced), **extra)
    return TimetableEditResult(dry_run=False, displaced=tuple(displaced), changeset_id=changeset.pk,
                               summary=changeset_summary(changeset), **extra)


def _course(*, user: User, course_id: int) -> Course:
    course = Course.objects.select_for_update().filter(user=user, pk=course_id).first()
    if course is None:
        raise NotFoundError(_("This course is not on your timetable."), code="course_not_found")
    return course


# --- Courses ----------------------------------------------------------------------------------------------

@transaction.atomic
def course_change(*, user: User, course_id: int, values: dict, dry_run: bool = False) -> TimetableEditResult:
    """Change a course's name, teacher, location or filler mark; turning the mark off frees its blocks."""
    course = _course(user=user, course_id=course_id)
    changed = {k: v for k, v in values.items() if k in COURSE_FIELDS and v is not None and getattr(course, k) != v}
    if not changed:
        raise AppError(_("Nothing to change: the course already reads so."), code="course_unchanged")
    meetings = list(course.events.values_list("pk", flat=True))
    displaced = embedded_blocks(event_ids=meetings) if changed.get("is_filler") is False else []
    if dry_run:
        return _result(None, displaced)
    removed = blocks_lift(user=user, blocks=displaced)
    record = empty_record()
    course_change_recorded(course=course, values=changed, record=record)
    summary = {"action": "course_change", "course": course.name, "fields": sorted(changed),
               "is_filler": course.is_filler}
    return _result(_recorded(user=user, removed=removed, record=record, summary=summary), displaced)


@transaction.atomic
def course_remove(*, user: User, course_id: int, dry_run: bool = False) -> TimetableEditResult:
    """Delete a whole course with its meetings; the blocks embedded in them wait again."""
    course = _course(user=user, course_id=course_id)
    meetings = list(course.events.values_list("pk", flat=True))
    displaced = embedded_blocks(event_ids=meetings)
    if dry_run:
        return _result(None, displaced)
    removed = blocks_lift(user=user, blocks=displaced)
    record = empty_record()
    name = course.name
    course_delete_recorded(user=user, course=course, record=record)
    summary = {"action": "course_remove", "course": name, "meetings": len(meetings)}
    return _result(_recorded(user=user, removed=removed, record=record, summary=summary), displaced)


@transaction.atomic
def meeting_remove(*, user: User, event_id: int, dry_run: bool = False) -> TimetableEditResult:
    """Delete one meeting of a course (a holiday); the blocks embedded in it wait again."""
    meeting = ScheduleEvent.objects.select_for_update().filter(
        user=user, pk=event_id, kind=ScheduleEvent.Kind.COURSE).first()
    if meeting is None:
        raise NotFoundError(_("This class meeting is not on your timetable."), code="meeting_not_found")
    if meeting.source == ScheduleEvent.Source.CALENDAR:
        raise AppError(_("This class is on a make-up day of your school calendar; change the calendar in "
                         "Settings instead."), code="makeup_meeting")
    displaced = embedded_blocks(event_ids=[meeting.pk])
    if dry_run:
        return _result(None, displaced)
    removed = blocks_lift(user=user, blocks=displaced)
    record = empty_record()
    day = meeting.starts_at.astimezone(user.zone).date()
    events_delete(user=user, event_ids=[meeting.pk], record=record)
    summary = {"action": "meeting_remove", "course": meeting.title, "date": day.isoformat(), "week": meeting.week}
    return _result(_recorded(user=user, removed=removed, record=record, summary=summary), displaced)


# --- Re-import ----------------------------------------------------------------------------------------------

@transaction.atomic
def timetable_sync(*, user: User, data: bytes, fmt: str, dry_run: bool = False,
                   expected: str | None = None) -> TimetableEditResult:
    """Bring the courses in line with a timetable file, all or nothing; a dry run answers the diff.

    ``expected`` is the dry run's ``digest``: when the timetable changed since, the sync is refused
    (``import_stale``). A custom event in the way refuses the file as the first import does.
    """
    CalendarSettings.objects.select_for_update().filter(user=user).first()  # one sync of a student at a time
    plan = timetable_sync_plan(user=user, data=data, fmt=fmt)
    if dry_run:
        return _result(None, plan.displaced, plan=plan)
    if expected and expected != plan.digest:
        raise ImportStaleError(_("Your timetable changed after this preview; check the file again before "
                                 "importing."), code="import_stale")
    if plan.conflicts:
        imports.reject_problems(tuple(plan.conflicts))
    if not plan.has_changes:
        return TimetableEditResult(dry_run=False, displaced=(), plan=plan)
    removed = blocks_lift(user=user, blocks=plan.displaced)
    record = empty_record()
    try:
        with transaction.atomic():
            timetable_sync_write(user=user, plan=plan, record=record)
    except IntegrityError as exc:  # a section taken between the plan and the write (another tab)
        raise SlotConflictError(_("Another change took one of these sections meanwhile; check the file again."),
                                code="slot_taken") from exc
    summary = {"action": "import", "added": plan.added, "changed": plan.changed, "removed": plan.removed,
               "meetings_added": plan.meetings_added,
               "meetings_removed": plan.meetings_removed}
    changeset = _recorded(user=user, removed=removed, record=record, summary=summary, kind=ChangeSet.Kind.IMPORT)
    imports.timetable_imported_on_commit(user=user, changeset_id=changeset.pk)
    return _result(changeset, plan.displaced, plan=plan)


class TimetableEditor:
    """The schedule's port (``schedule.timetable_port.TimetableEditor``), filled by these services."""

    def course_change(self, *, user: User, course_id: int, values: dict, dry_run: bool = False
                      ) -> TimetableEditResult:
        return course_change(user=user, course_id=course_id, values=values, dry_run=dry_run)

    def course_remove(self, *, user: User, course_id: int, dry_run: bool = False) -> TimetableEditResult:
        return course_remove(user=user, course_id=course_id, dry_run=dry_run)

    def meeting_remove(self, *, user: User, event_id: int, dry_run: bool = False) -> TimetableEditResult:
        return meeting_remove(user=user, event_id=event_id, dry_run=dry_run)

    def timetable_sync(self, *, user: User, data: bytes, fmt: str, dry_run: bool = False,
                       expected: str | None = None) -> TimetableEditResult:
        return timetable_sync(user=user, data=data, fmt=fmt, dry_run=dry_run, expected=expected)

    own_event_add = staticmethod(event_edits.own_event_add)
    own_event_change = staticmethod(event_edits.own_event_change)
    own_event_remove = staticmethod(event_edits.own_event_remove)

