"""Smart planning: feasibility, previews the student adjusts, apply as one transaction, undo.

The pure planner (schedule/core/planning/) decides where; the editing core (schedule/core/board*)
checks every placement; this module adapts rows to their types and keeps previews server-side
(``preview_publish`` is the one writer of previews, for the planning page and the assistant alike).
Applying a preview checks again and names what is in the way; the database's unique slots are the
last line of defence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import cast

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from board.boards import board_load, unplaced_items
from board.placement_reasons import calendar_reason_days
from board.planning_rules import planning_rules_get
from board.preview_boards import preview_content
from schedule.core.board import Board, Spot
from schedule.core.board_edits import OrderRule, place, resize
from schedule.core.board_errors import BoardError
from schedule.core.planning import (
    GridDay,
    ItemSpec,
    OccupiedSection,
    Placement,
    PlanningInstance,
    PlanningResult,
    Strategy,
    TaskClassSpec,
    plan,
)
from schedule.core.planning.reasons import placement_reasons
from schedule.core.time_model import SectionTemplate, Semester, SlotKey, slot_bounds
from schedule.models import PlanPreview, ScheduleSlot
from schedule.selectors import time_frame_get
from smartmate.platform.exceptions import AppError, NotFoundError
from taskclasses.models import TaskClass, TaskItem

PREVIEW_TTL = timedelta(hours=2)


class PlanningError(AppError):
    code = "planning_error"


@dataclass(frozen=True)
class Feasibility:
    """How much room a class has: "16 blocks requested, 41 usable slots in the window, slack 25"."""

    class_id: int
    name: str
    demand: int
    candidate_slots: int
    placed: int

    @property
    def slack(self) -> int:
        return self.candidate_slots - self.demand

    def as_dict(self) -> dict:
        return {"class_id": self.class_id, "name": self.name, "demand": self.demand,
                "candidate_slots": self.candidate_slots, "placed": self.placed, "slack": self.slack}


def _grid_day(semester: Semester, day: date) -> GridDay:
    clamped = min(max(day, semester.start_monday), semester.last_day)
    week, weekday = semester.week_day_of(clamped)
    return GridDay(week=week, day=weekday)


def _class_spec(task_class: TaskClass, items: list[TaskItem], semester: Semester, today: date) -> TaskClassSpec:
    # Never suggest a day that has already gone by: the window starts today at the earliest.
    return TaskClassSpec(
        id=task_class.pk, name=task_class.name, strategy=cast(Strategy, task_class.strategy),  # the model's choices
        start=_grid_day(semester, max(task_class.start_date, today)), end=_grid_day(semester, task_class.end_date),
        items=tuple(ItemSpec(id=item.pk, sections=2, content=item.content) for item in items),
        excluded_slots=frozenset(task_class.excluded_pairs), excluded_days=frozenset(task_class.excluded_days),
        allow_filler=task_class.allow_filler, exam=_exam_day(task_class, semester),
    )


def _exam_day(task_class: TaskClass, semester: Semester) -> GridDay | None:
    """The exam day a spaced class revises for (its blocks go before it)."""
    if task_class.strategy != TaskClass.Strategy.SPACED:
        return None
    if task_class.exam is None or not semester.contains(task_class.exam.date):
        raise PlanningError(_("%(name)s revises for an exam, but its exam is gone or outside the semester; "
                              "choose its exam again.") % {"name": task_class.name}, code="spaced_without_exam")
    return _grid_day(semester, task_class.exam.date)


def _occupied(user: User) -> tuple[OccupiedSection, ...]:
    rows = ScheduleSlot.objects.filter(user=user).values_list(
        "event_id", "week", "day", "section", "event__title", "event__course__is_filler", "embedded_item_id")
    return tuple(
        # A filler section that already hosts a block is not embeddable again.
        OccupiedSection(event_id=event_id, week=week, day=day, section=section, name=title,
                        embeddable=bool(is_filler) and embedded is None)
        for event_id, week, day, section, title, is_filler, embedded in rows
    )


PAST_EVENT_ID = -1  # marks today's sections that have already begun


def _started_today(semester: Semester, template: SectionTemplate, now: datetime,
                   taken: set[tuple[int, int, int]]) -> tuple[OccupiedSection, ...]:
    """Return today's free sections that have already begun, so no block is suggested in the past."""
    today = semester.local_date(now)
    if not semester.contains(today):
        return ()
    week, day = semester.week_day_of(today)
    return tuple(
        OccupiedSection(event_id=PAST_EVENT_ID, week=week, day=day, section=number, name="past")
        for number in range(1, template.count + 1)
        if (week, day, number) not in taken
        and slot_bounds(semester, template, SlotKey(week, day, number))[0] <= now
    )


def planning_instance_build(*, user: User, task_classes: list[TaskClass], now: datetime | None = None,
                            ) -> PlanningInstance:
    """Describe the student's board from ``now`` on and the pending blocks of ``task_classes``."""
    semester, template = time_frame_get(user=user)
    now = now or timezone.now()
    today = semester.local_date(now)
    ended = next((c for c in task_classes if c.end_date < today), None)
    if ended is not None:
        raise PlanningError(_("The window of %(name)s ended on %(end)s; move its last day to plan it.")
                            % {"name": ended.name, "end": ended.end_date}, code="window_passed")
    pending = _pending_items(task_classes)
    occupied = _occupied(user)
    taken = {(row.week, row.day, row.section) for row in occupied}
    return PlanningInstance(
        weeks=semester.weeks, semester_start=semester.start_monday, sections_per_day=template.count,
        occupied=occupied + _started_today(semester, template, now, taken),
        task_classes=tuple(_class_spec(c, pending[c.pk], semester, today) for c in task_classes),
        rules=planning_rules_get(user=user),
    )


def _pending_items(task_classes: list[TaskClass]) -> dict[int, list[TaskItem]]:
    items = unplaced_items(task_classes).order_by("order")
    grouped: dict[int, list[TaskItem]] = {c.pk: [] for c in task_classes}
    for item in items:
        grouped[item.task_class_id].append(item)
    return grouped


def _classes_of(user: User, task_class_ids: list[int]) -> list[TaskClass]:
    wanted = list(dict.fromkeys(task_class_ids))
    # An id past the signed 64-bit column cannot exist, and in an IN list it overflows the SQLite driver.
    storable = [pk for pk in wanted if 0 < pk < 2**63]
    found = {c.pk: c for c in TaskClass.objects.filter(user=user, pk__in=storable)}
    if not wanted or len(found) != len(wanted):
        raise NotFoundError(_("Not found."), code="task_class_not_found")
    return [found[pk] for pk in wanted]


def _feasibility(result: PlanningResult, classes: list[TaskClass]) -> list[Feasibility]:
    names = {c.pk: c.name for c in classes}
    return [Feasibility(class_id=f.class_id, name=names.get(f.class_id, ""), demand=f.demand,
                        candidate_slots=f.candidate_slots, placed=f.placed) for f in result.classes]


def task_class_feasibility(*, user: User, task_class_id: int, now: datetime | None = None) -> Feasibility:
    """Return how many pending blocks a class asks for against the usable slots left in its window."""
    classes = _classes_of(user, [task_class_id])
    result = plan(planning_instance_build(user=user, task_classes=classes, now=now))
    return _feasibility(result, classes)[0]


def preview_create(
    *, user: User, task_class_ids: list[int], source: str = PlanPreview.Source.PAGE,
    conversation_id: int | None = None, now: datetime | None = None,
) -> PlanPreview:
    """Plan the pending blocks of the given classes together and keep the result as a preview."""
    now = now or timezone.now()
    classes = _classes_of(user, task_class_ids)
    instance = planning_instance_build(user=user, task_classes=classes, now=now)
    if not any(spec.items for spec in instance.task_classes):
        raise PlanningError(_("Every block of these classes is already placed."), code="nothing_to_plan")
    result = plan(instance)
    why = plan_reasons(user=user, instance=instance, result=result, classes=classes)
    board = board_load(user=user, now=now, first=min(c.start_date for c in classes),
                       last=max(c.end_date for c in classes), class_ids=[c.pk for c in classes], pending_notes=False)
    board, refused = board_with_plan(board, result.placements)
    reasons: dict[int, tuple[str, str]] = {u.item_id: (u.reason, u.detail) for u in result.unplaced}
    reasons.update({item_id: (code, "refused by the editing rules") for item_id, code in refused.items()})
    feasibility = [f.as_dict() for f in _feasibility(result, classes)]
    # None only for an empty preview from another source than the page (PreviewOrigin.keeps_empty): none asks.
    return preview_publish(  # type: ignore[return-value]  # see above
        user=user, board=board, origin=PreviewOrigin(source, conversation_id), now=now, reasons=reasons,
        feasibility=feasibility, placement_reasons=why)


def plan_reasons(*, user: User, instance: PlanningInstance, result: PlanningResult,
                 classes: Sequence[TaskClass]) -> dict[int, dict]:
    """Why the planner put each block where it did, by item id, numbered as the student reads the plan."""
    return placement_reasons(instance, result, _item_numbers(classes), calendar_reason_days(user=user))


def _item_numbers(classes: Sequence[TaskClass]) -> dict[int, int]:
    """Each item's number in its plan, as the student reads it (blocks already placed count)."""
    return dict(TaskItem.objects.filter(task_class__in=classes).values_list("pk", "order"))


def board_with_plan(board: Board, placements: Iterable[Placement]) -> tuple[Board, dict[int, str]]:
    """Put the planner's placements on the board through the editing core, one by one.

    The planner decides where; the core still checks every rule. A placement it refuses leaves
    the item waiting; the refusals come back by item id (their codes).
    """
    refused: dict[int, str] = {}
    for placement in placements:
        entry = board.find(item_id=placement.item_id)
        if entry is None or entry.place is not None:
            continue
        length = placement.section_end - placement.section_start + 1
        try:
            day = board.calendar.date_of(placement.week, placement.day)
            sized = resize(board, entry.id, length) if entry.length != length else board
            board = place(sized, entry.id, Spot(day, placement.section_start), order=OrderRule.ALLOW)
        except BoardError as error:
            refused[placement.item_id] = error.code
    return board, refused


@dataclass(frozen=True)
class PreviewOrigin:
    """Who a preview is for: the planning page, or one conversation with the assistant."""

    source: str = PlanPreview.Source.PAGE
    conversation_id: int | None = None

    @property
    def keeps_one(self) -> bool:
        """A conversation has one open preview (its newest holds every change); the page may plan
        several classes side by side, and applying one refuses the others where they overlap."""
        return self.conversation_id is not None

    @property
    def keeps_empty(self) -> bool:
        """A plan run from the page is shown even when nothing fits, to say why."""
        return self.source == PlanPreview.Source.PAGE


def preview_publish(*, user: User, board: Board, origin: PreviewOrigin, now: datetime | None = None,
                    reasons: Mapping[int, tuple[str, str]] | None = None,
                    feasibility: Sequence[dict] = (),
                    placement_reasons: Mapping[int, dict] | None = None) -> PlanPreview | None:
    """Store the board's changes as an open preview: the one writer of previews.

    Returns None when the board changes nothing (and the origin keeps no empty preview). The
    preview expires after ``PREVIEW_TTL``; an older open preview of the same conversation is
    discarded, also when the board now changes nothing (its changes were dropped or undone, so
    applying the older one would write what the conversation no longer holds). ``reasons`` say why
    items still wait, by item id.
    """
    now = now or timezone.now()
    content = preview_content(board, reasons=reasons, placement_reasons=placement_reasons)
    empty = not (content["placements"] or content["moves"] or content["task_placements"])
    rows = [*content["placements"], *content["moves"]]
    class_ids = sorted(set(board.planned_class_ids) | {row["class_id"] for row in rows if row["class_id"]})
    with transaction.atomic():
        if origin.keeps_one:
            PlanPreview.objects.filter(user=user, conversation_id=origin.conversation_id,
                                       status=PlanPreview.Status.OPEN).update(status=PlanPreview.Status.DISCARDED)
        if empty and not origin.keeps_empty:
            return None
        return PlanPreview.objects.create(user=user, source=origin.source, conversation_id=origin.conversation_id,
                                          task_class_ids=class_ids, feasibility=list(feasibility),
                                          expires_at=now + PREVIEW_TTL, **content)


def preview_get(*, user: User, preview_id: int) -> PlanPreview:
    """Return one of the student's previews; another student's id is not found."""
    preview = PlanPreview.objects.filter(user=user, pk=preview_id).first()
    if preview is None:
        raise NotFoundError(_("Not found."), code="preview_not_found")
    return preview


def preview_discard(*, user: User, preview_id: int) -> None:
    """Drop an open preview; nothing on the board changes."""
    PlanPreview.objects.filter(pk=preview_get(user=user, preview_id=preview_id).pk,
                               status=PlanPreview.Status.OPEN).update(status=PlanPreview.Status.DISCARDED)
