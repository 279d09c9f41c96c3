"""Adjust a preview (move or remove a block), apply it in one transaction, and undo an apply."""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.time_model import span_bounds
from schedule.exceptions import SlotConflictError
from schedule.messages import day_label
from schedule.models import ChangeSet, PlanPreview, ScheduleEvent, ScheduleSlot
from schedule.selectors import time_frame_get
from schedule.services.events import Span, ensure_span_free, event_create
from schedule.services.planning import PlanningError, preview_get, unplaced_items
from schedule.services.preview_moves import embed_in_filler, moves_apply, moves_undo, moves_unchanged, notes_place
from smartmate.exceptions import ConflictError, NotFoundError
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
    """Move one suggested block; the class's blocks are then re-ordered so item order holds.

    Refused with a reason: outside the class's window, an excluded block or day, a busy slot
    (named), a non-filler course, or a filler course when the class may not use them.
    """
    now = now or timezone.now()
    preview = _open_preview(user=user, preview_id=preview_id, now=now, lock=True)
    placements = list(preview.placements)
    moving = next((p for p in placements if p["item_id"] == item_id), None)
    if moving is None:
        raise NotFoundError(_("This block is not in the preview."), code="block_not_found")
    task_class = TaskClass.objects.get(pk=moving["class_id"], user=user)
    span = Span(week, day, start_section, start_section + 1)
    _check_block_rules(user=user, task_class=task_class, span=span, now=now)
    _check_not_in_preview(placements, span, ignore_item=item_id)
    host = _host_for(user=user, task_class=task_class, span=span)
    moving.update(week=week, day=day, start_section=span.start_section, end_section=span.end_section,
                  host_event_id=host)
    preview.placements = _in_item_order(placements, task_class)
    preview.save(update_fields=["placements", "updated_at"])
    return preview


def _check_block_rules(*, user: User, task_class: TaskClass, span: Span, now: datetime) -> None:
    semester, template = time_frame_get(user=user)
    if span.start_section % 2 != 1 or span.end_section > template.count:
        raise BlockRuleError(_("A block starts on the first section of a pair (1-2, 3-4, …)."), code="not_a_pair")
    if not 1 <= span.week <= semester.weeks or not 1 <= span.day <= 7:
        raise BlockRuleError(_("That time is outside the semester."), code="outside_semester")
    if span_bounds(semester, template, span.week, span.day, span.start_section, span.end_section)[0] <= now:
        raise BlockRuleError(_("That time has already passed."), code="in_the_past")
    on = semester.date_of(span.week, span.day)
    if not task_class.start_date <= on <= task_class.end_date:
        raise BlockRuleError(_("%(date)s is outside this plan's window (%(start)s to %(end)s).") % {
            "date": on, "start": task_class.start_date, "end": task_class.end_date}, code="outside_window")
    if (span.start_section + 1) // 2 in task_class.excluded_pairs:
        raise BlockRuleError(_("This plan excludes sections %(first)s-%(last)s.") % {
            "first": span.start_section, "last": span.end_section}, code="excluded_block")
    if span.day in task_class.excluded_days:
        raise BlockRuleError(_("This plan excludes %(day)s.") % {"day": day_label(span.day)}, code="excluded_day")


def _check_not_in_preview(placements: list[dict], span: Span, *, ignore_item: int) -> None:
    for other in placements:
        if other["item_id"] != ignore_item and (other["week"], other["day"], other["start_section"]) == (
                span.week, span.day, span.start_section):
            raise BlockRuleError(_("Another suggested block is already there."), code="block_taken_in_preview")


def _host_for(*, user: User, task_class: TaskClass, span: Span) -> int | None:
    """Return None for free sections, or the filler course event that may host the block."""
    slots = list(ScheduleSlot.objects.filter(user=user, week=span.week, day=span.day,
                                             section__in=list(span.sections)).select_related("event__course"))
    if not slots:
        return None
    hosts = {slot.event_id for slot in slots}
    event = slots[0].event
    fits_one_filler = (len(slots) == 2 and len(hosts) == 1 and event.course is not None and event.course.is_filler
                       and all(slot.embedded_item_id is None for slot in slots))
    if not fits_one_filler:
        ensure_span_free(user=user, span=span)  # raises, naming the occupant
    if not task_class.allow_filler:
        raise BlockRuleError(_("This plan may not use filler courses such as %(title)s.") % {"title": event.title},
                             code="filler_not_allowed")
    return event.pk


def _in_item_order(placements: list[dict], task_class: TaskClass) -> list[dict]:
    """Give the class's blocks to its items in time order, so item k always precedes item k+1."""
    mine = [p for p in placements if p["class_id"] == task_class.pk]
    order = {item_id: n for n, item_id in enumerate(
        TaskItem.objects.filter(pk__in=[p["item_id"] for p in mine]).order_by("order").values_list("pk", flat=True))}
    items_in_order = sorted((p["item_id"] for p in mine), key=order.__getitem__)
    slots_in_time = sorted(mine, key=lambda p: (p["week"], p["day"], p["start_section"]))
    for item_id, slot in zip(items_in_order, slots_in_time):
        slot["item_id"] = item_id
    return sorted(placements, key=lambda p: (p["week"], p["day"], p["start_section"]))


@transaction.atomic
def preview_block_remove(*, user: User, preview_id: int, item_id: int, now: datetime | None = None) -> PlanPreview:
    """Take one suggested block out of the preview; the item stays unplaced."""
    preview = _open_preview(user=user, preview_id=preview_id, now=now or timezone.now(), lock=True)
    kept = [p for p in preview.placements if p["item_id"] != item_id]
    if len(kept) == len(preview.placements):
        raise NotFoundError(_("This block is not in the preview."), code="block_not_found")
    removed = next(p for p in preview.placements if p["item_id"] == item_id)
    preview.placements = kept
    preview.unplaced = [*preview.unplaced, {"item_id": item_id, "class_id": removed["class_id"],
                                            "reason": "removed", "detail": "removed from the preview"}]
    preview.save(update_fields=["placements", "unplaced", "updated_at"])
    return preview


# --- Apply and undo --------------------------------------------------------------------------------

@transaction.atomic
def preview_apply(*, user: User, preview_id: int, now: datetime | None = None) -> ChangeSet:
    """Write every suggested block, move and quick note, or nothing: a slot taken meanwhile is a 409 naming it."""
    preview = _open_preview(user=user, preview_id=preview_id, now=now or timezone.now(), lock=True)
    wanted = [p["item_id"] for p in preview.placements]
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
            moved = moves_apply(user=user, moves=list(preview.moves), source=source)
            for placement in preview.placements:
                item = _pending_item(items, still_unplaced, placement["item_id"])
                if placement["host_event_id"] is None:
                    events.append(_place_in_free_time(user=user, item=item, placement=placement, source=source))
                else:
                    embedded.extend(embed_in_filler(user=user, item=item, placement=placement))
            events.extend(notes_place(user=user, placements=list(preview.task_placements), source=source))
    except IntegrityError:
        raise SlotConflictError(_("Another change took one of these slots; plan again."), code="slot_taken")
    TaskItem.objects.filter(pk__in=list(items)).update(status=TaskItem.Status.PLACED, updated_at=timezone.now())
    preview.status = PlanPreview.Status.APPLIED
    preview.save(update_fields=["status", "updated_at"])
    return ChangeSet.objects.create(
        user=user, preview=preview, item_ids=sorted(items), moves=moved,
        task_ids=sorted(p["task_id"] for p in preview.task_placements),
        event_ids=[{"id": e.pk, "week": e.week, "day": e.day, "start_section": e.start_section} for e in events],
        embedded_slot_ids=embedded,
    )


def _pending_item(items: dict[int, TaskItem], still_unplaced: set[int], item_id: int) -> TaskItem:
    item = items.get(item_id)
    if item is None or item_id not in still_unplaced:
        raise ConflictError(_("A block of this preview was placed or removed meanwhile; plan again."),
                            code="item_changed")
    return item


def _place_in_free_time(*, user: User, item: TaskItem, placement: dict,
                        source: str = ScheduleEvent.Source.PLANNER) -> ScheduleEvent:
    span = Span(placement["week"], placement["day"], placement["start_section"], placement["end_section"])
    return event_create(user=user, title=item.content, span=span, kind=ScheduleEvent.Kind.TASK_ITEM,
                        source=source, task_item=item)


@transaction.atomic
def changeset_undo(*, user: User, changeset_id: int, now: datetime | None = None) -> ChangeSet:
    """Revert an apply exactly, unless something changed since (then refuse and say what)."""
    changeset = ChangeSet.objects.select_for_update().filter(user=user, pk=changeset_id).first()
    if changeset is None:
        raise NotFoundError(_("Not found."), code="changeset_not_found")
    if changeset.undone_at is not None:
        raise ConflictError(_("This change was already undone."), code="already_undone")
    _ensure_unchanged(changeset)
    ScheduleEvent.objects.filter(pk__in=[e["id"] for e in changeset.event_ids]).delete()
    ScheduleSlot.objects.filter(pk__in=changeset.embedded_slot_ids).update(embedded_item=None)
    TaskItem.objects.filter(pk__in=changeset.item_ids).update(status=TaskItem.Status.PENDING,
                                                              updated_at=timezone.now())
    try:
        with transaction.atomic():
            moves_undo(user=user, moves=list(changeset.moves))
    except IntegrityError:
        raise SlotConflictError(_("Another change took the old place of a moved block; move it back by hand."),
                                code="slot_taken")
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
            or not moves_unchanged(user=changeset.user, moves=list(changeset.moves)):
        raise ConflictError(_("Blocks of this change were moved, removed or completed since; "
                              "undo them one by one instead."), code="undo_conflict")
