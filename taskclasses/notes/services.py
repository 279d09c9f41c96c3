"""Quick-note writes: create (from text or fields), change, complete, restore, promote, schedule."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Case, IntegerField, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.time_model import SectionTemplate, Semester, SlotKey, slot_bounds
from schedule.models import ScheduleEvent, ScheduleSlot
from schedule.selectors import calendar_settings_get, time_frame_get
from schedule.services.events import Span, event_create
from smartmate.platform.caps import cap_check
from smartmate.platform.exceptions import ConflictError
from taskclasses.exceptions import NoFreeSlotError, TaskInputError
from taskclasses.models import MAX_TITLE_LENGTH, Task
from taskclasses.notes.core.promotion import PROMOTIONS
from taskclasses.notes.core.quick_add import QuickNoteParse, parse_quick_note, urgency_threshold
from taskclasses.notes.lessons import lesson_learn, lessons_apply
from taskclasses.notes.readings import reading_remember, readings_apply
from taskclasses.notes.selectors import task_get

UNSET: Any = object()
MAX_NOTE_LENGTH = 500


def quick_note_parse(*, user: User, text: str, now: datetime | None = None) -> QuickNoteParse:
    """Read a quick note in the student's time zone and semester, with the quadrants they taught; writes nothing."""
    text = _clean_text(text, limit=MAX_NOTE_LENGTH)
    semester_start = calendar_settings_get(user=user).semester_start  # 第七周周三 counts from it
    parsed = parse_quick_note(text, now=(now or timezone.now()), tz=user.time_zone, semester_start=semester_start)
    return readings_apply(user=user, parsed=lessons_apply(user=user, parsed=parsed))


def _clean_text(text: str, *, limit: int) -> str:
    cleaned = " ".join((text or "").split())
    if not cleaned:
        raise TaskInputError(_("Write what the note is about."), code="empty_title")
    if len(cleaned) > limit:
        raise TaskInputError(_("Keep it under %(limit)s characters.") % {"limit": limit}, code="title_too_long",
                             detail={"limit": limit, "length": len(cleaned)})
    return cleaned


def task_create(
    *, user: User, title: str, quadrant: int, deadline: datetime | None = None,
    estimated_sections: int | None = None, urgency_threshold_at: datetime | None = UNSET,
    source_text: str = "", deadline_ambiguous: bool = False, now: datetime | None = None,
) -> Task:
    """Create a task; without an explicit threshold one is derived from the deadline.

    Past the student's cap of quick notes a 429 ``limit_reached``.
    """
    cap_check("quick_notes", Task.objects.filter(user=user))
    now = now or timezone.now()
    if urgency_threshold_at is UNSET:
        urgency_threshold_at = urgency_threshold(deadline, now, estimated_sections)
    return Task.objects.create(
        user=user, title=_clean_text(title, limit=MAX_TITLE_LENGTH), quadrant=_checked_quadrant(quadrant),
        deadline=deadline, estimated_sections=estimated_sections, urgency_threshold_at=urgency_threshold_at,
        source_text=source_text[:MAX_NOTE_LENGTH], deadline_ambiguous=deadline_ambiguous,
    )


@transaction.atomic
def task_create_from_text(
    *, user: User, text: str, now: datetime | None = None, learn: bool = False, **overrides: Any
) -> Task:
    """Parse a quick note and create its task; fields the student edited win over the parse.

    With `learn` (the student changed the suggested quadrant themselves, on the dashboard form), a
    quadrant different from the suggestion is remembered for tasks named the same way. Callers
    that merely pass a quadrant along (the assistant's tool) do not teach anything. An ambiguous
    note saved with one of its readings as the deadline keeps that pick for the student's phrasing.
    """
    now = now or timezone.now()
    parsed = quick_note_parse(user=user, text=text, now=now)
    values: dict[str, Any] = {
        "title": parsed.title or parsed.text, "quadrant": parsed.quadrant, "deadline": parsed.deadline,
        "estimated_sections": parsed.estimated_sections, "urgency_threshold_at": parsed.urgency_threshold_at,
        "deadline_ambiguous": parsed.ambiguous,
    }
    if "deadline" in overrides or "estimated_sections" in overrides:
        values["urgency_threshold_at"] = UNSET  # derive again from what the student chose
        if overrides.get("deadline") is not None:
            values["deadline_ambiguous"] = False
    values.update(overrides)
    task = task_create(user=user, source_text=parsed.text, now=now, **values)
    if learn and task.quadrant != parsed.quadrant:
        lesson_learn(user=user, title=task.title, quadrant=task.quadrant)
    if parsed.readings and overrides.get("deadline") is not None:
        reading_remember(user=user, parsed=parsed, deadline=overrides["deadline"])
    return task


def _checked_quadrant(quadrant: int) -> int:
    if quadrant not in Task.Quadrant.values:
        raise TaskInputError(_("A quadrant is 1, 2, 3 or 4."), code="invalid_quadrant")
    return quadrant


@transaction.atomic
def task_update(*, user: User, task_id: int, now: datetime | None = None, **changes: Any) -> Task:
    """Change a task; a new deadline moves its threshold, a chosen quadrant clears the auto mark."""
    task = Task.objects.select_for_update().get(pk=task_get(user=user, task_id=task_id).pk)
    if "title" in changes:
        task.title = _clean_text(changes["title"], limit=MAX_TITLE_LENGTH)
    if "quadrant" in changes:
        task.quadrant = _checked_quadrant(changes["quadrant"])
        task.auto_reason, task.auto_changed_at = "", None
    for field in ("deadline", "estimated_sections"):
        if field in changes:
            setattr(task, field, changes[field])
    if "deadline" in changes:
        task.deadline_ambiguous = False
    if "urgency_threshold_at" in changes:
        task.urgency_threshold_at = changes["urgency_threshold_at"]
    elif "deadline" in changes or "estimated_sections" in changes:
        task.urgency_threshold_at = urgency_threshold(task.deadline, now or timezone.now(), task.estimated_sections)
    task.save()
    return task


def task_complete(*, user: User, task_id: int, now: datetime | None = None) -> Task:
    """Mark a task done; completing it twice (or concurrently) changes it once."""
    task = task_get(user=user, task_id=task_id)
    Task.objects.filter(pk=task.pk, completed=False).update(completed=True, completed_at=now or timezone.now())
    task.refresh_from_db()
    return task


def task_restore(*, user: User, task_id: int) -> Task:
    """Undo a completion."""
    task = task_get(user=user, task_id=task_id)
    Task.objects.filter(pk=task.pk, completed=True).update(completed=False, completed_at=None)
    task.refresh_from_db()
    return task


def task_delete(*, user: User, task_id: int) -> None:
    task_get(user=user, task_id=task_id).delete()


def tasks_promote(*, now: datetime | None = None, user: User | None = None) -> int:
    """Write the moves due at ``now`` (``core.promotion``), recording when and why; idempotent.

    Only the periodic jobs call it (the promotion job, and the reminders pass that announces the move):
    pages, the API and the assistant read the same rule through ``selectors.task_as_of`` and write nothing.
    """
    now = now or timezone.now()
    due = Task.objects.filter(completed=False, urgency_threshold_at__lte=now, quadrant__in=list(PROMOTIONS))
    if user is not None:
        due = due.filter(user=user)
    # One conditional UPDATE: a task promoted meanwhile no longer matches, so nothing moves twice.
    return due.update(
        quadrant=Case(*(When(quadrant=old, then=Value(new)) for old, new in PROMOTIONS.items()),
                      output_field=IntegerField()),
        auto_reason=Task.AutoReason.THRESHOLD_REACHED, auto_changed_at=now, updated_at=now,
    )


@dataclass(frozen=True)
class SlotChoice:
    week: int
    day: int
    start_section: int
    end_section: int


@transaction.atomic
def task_schedule(*, user: User, task_id: int, week: int | None = None, now: datetime | None = None) -> ScheduleEvent:
    """Put a task into the first free block of a week (default: this week) before its deadline.

    A note already on the schedule is a 409 ``note_already_scheduled``: one note, one block (a second
    one gave the board two entries with the same id). The note's row is locked, so two concurrent
    calls cannot both pass the check.
    """
    task = task_get(user=user, task_id=task_id)
    Task.objects.select_for_update().filter(pk=task.pk).first()
    if ScheduleEvent.objects.filter(user=user, task=task).exists():
        raise ConflictError(_("This note is already on your schedule."), code="note_already_scheduled")
    now = now or timezone.now()
    choice = _first_free_block(user=user, task=task, week=week, now=now)
    if choice is None:
        raise NoFreeSlotError(_("No free block is left in that week before the deadline."))
    return event_create(
        user=user, title=task.title, kind=ScheduleEvent.Kind.QUICK_NOTE, task=task,
        span=Span(choice.week, choice.day, choice.start_section, choice.end_section),
    )


def task_unschedule(*, user: User, task_id: int) -> int:
    """Take a task off the schedule; returns how many blocks were removed."""
    task = task_get(user=user, task_id=task_id)
    removed, _detail = ScheduleEvent.objects.filter(user=user, task=task).delete()
    return removed


def _first_free_block(*, user: User, task: Task, week: int | None, now: datetime) -> SlotChoice | None:
    semester, template = time_frame_get(user=user)
    week = week or semester.current_week(now, clamp=True)
    assert week is not None  # clamped into the semester
    if not 1 <= week <= semester.weeks:
        raise TaskInputError(_("Week %(week)s is outside the semester (weeks 1-%(weeks)s).")
                             % {"week": week, "weeks": semester.weeks},
                             code="outside_semester", detail={"week": week, "weeks": semester.weeks})
    length = min(task.estimated_sections or 2, template.count)
    taken = set(ScheduleSlot.objects.filter(user=user, week=week).values_list("day", "section"))
    # Blocks start on the first section of a pair, like every study block (1-2, 3-4, ...).
    for day in range(1, 8):
        for start in range(1, template.count - length + 2, 2):
            sections = range(start, start + length)
            if any((day, section) in taken for section in sections):
                continue
            begins = _span_start(semester, template, week, day, start)
            if begins <= now or (task.deadline is not None and begins >= task.deadline):
                continue
            return SlotChoice(week, day, start, start + length - 1)
    return None


def _span_start(semester: Semester, template: SectionTemplate, week: int, day: int, section: int) -> datetime:
    return slot_bounds(semester, template, SlotKey(week, day, section))[0]
