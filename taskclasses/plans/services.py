"""Study plans (task classes) and their ordered blocks: create, change, delete; add, rename, move, remove, reorder.

Blocks keep their ids for life: changing a class never recreates its items, so placed blocks,
previews and the assistant's references keep pointing at them and nothing is duplicated; orders
stay 1..n without gaps after every change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.time_model import Semester
from schedule.exams.models import Exam
from schedule.exams.selectors import exam_get
from schedule.selectors import time_frame_get
from smartmate.platform.caps import cap_check
from taskclasses.exceptions import TaskClassInputError, TaskClassNotFoundError, TaskItemNotFoundError
from taskclasses.models import MAX_ITEMS_PER_CLASS, TaskClass, TaskItem

MAX_NAME_LENGTH = 100
MAX_CONTENT_LENGTH = 200
BLOCK_SECTIONS = 2  # a block is one aligned pair of sections, the unit the planner places
MAX_SECTION_BUDGET = MAX_ITEMS_PER_CLASS * BLOCK_SECTIONS
UPDATABLE_FIELDS = frozenset({"name", "strategy", "start_date", "end_date", "excluded_pairs", "excluded_days",
                              "allow_filler", "section_budget", "exam_id"})
# Orders are unique per class, so a renumbering first parks the rows above every real order.
_PARKED = 1_000_000


# --- Classes -------------------------------------------------------------------------------------

def task_class_create(
    *, user: User, name: str, start_date: date, end_date: date, strategy: str = TaskClass.Strategy.STEADY,
    excluded_pairs: Iterable[int] = (), excluded_days: Iterable[int] = (), allow_filler: bool = True,
    section_budget: int | None = None, items: Sequence[str] | None = None, item_count: int | None = None,
    exam_id: int | None = None,
) -> TaskClass:
    """Create a task class with its blocks: the given contents, or ``item_count`` blocks named "<name> #n"."""
    semester, template = time_frame_get(user=user)
    name = _clean_name(name)
    _check_window(semester, start_date, end_date)
    values = {
        "name": name, "strategy": _checked_strategy(strategy), "start_date": start_date, "end_date": end_date,
        "excluded_pairs": _checked_pairs(excluded_pairs, template.pair_count),
        "excluded_days": _checked_days(excluded_days), "allow_filler": bool(allow_filler),
        "section_budget": _checked_budget(section_budget),
    }
    values["exam"] = _checked_exam(user, str(values["strategy"]), exam_id, start_date, end_date)
    contents = _item_contents(name=name, items=items, item_count=item_count)
    with transaction.atomic():
        cap_check("task_classes", TaskClass.objects.filter(user=user))
        task_class = TaskClass.objects.create(user=user, **values)
        TaskItem.objects.bulk_create(
            TaskItem(task_class=task_class, order=order, content=content, sections=BLOCK_SECTIONS)
            for order, content in enumerate(contents, start=1))
    return task_class


@transaction.atomic
def task_class_update(*, user: User, task_class_id: int, **changes: Any) -> TaskClass:
    """Change a class's fields; its blocks are left exactly as they are (same ids, contents and order)."""
    unknown = set(changes) - UPDATABLE_FIELDS
    if unknown:
        raise TypeError(f"task_class_update() got unexpected fields: {', '.join(sorted(unknown))}")
    task_class = _locked_class(user=user, task_class_id=task_class_id)
    if not changes:
        return task_class
    if {"start_date", "end_date", "excluded_pairs"} & set(changes):
        semester, template = time_frame_get(user=user)
        # The window is checked only when it changes, so a rename still works after the semester moved.
        if {"start_date", "end_date"} & set(changes):
            _check_window(semester, changes.get("start_date", task_class.start_date),
                          changes.get("end_date", task_class.end_date))
        if "excluded_pairs" in changes:
            changes["excluded_pairs"] = _checked_pairs(changes["excluded_pairs"], template.pair_count)
    if "name" in changes:
        changes["name"] = _clean_name(changes["name"])
    if "strategy" in changes:
        changes["strategy"] = _checked_strategy(changes["strategy"])
    if "excluded_days" in changes:
        changes["excluded_days"] = _checked_days(changes["excluded_days"])
    if "section_budget" in changes:
        changes["section_budget"] = _checked_budget(changes["section_budget"])
    if "allow_filler" in changes:
        changes["allow_filler"] = bool(changes["allow_filler"])
    if {"strategy", "start_date", "end_date", "exam_id"} & set(changes):
        # A spaced class and its exam are checked together, whichever of them changed.
        changes["exam"] = _checked_exam(
            user, changes.get("strategy", task_class.strategy), changes.pop("exam_id", task_class.exam_id),
            changes.get("start_date", task_class.start_date), changes.get("end_date", task_class.end_date))
    for field, value in changes.items():
        setattr(task_class, field, value)
    task_class.save(update_fields=[*changes, "updated_at"])
    return task_class


@transaction.atomic
def task_class_delete(*, user: User, task_class_id: int) -> None:
    """Delete a class with its blocks; their own events go with them and filler courses they sat in are freed."""
    # TaskItem → ScheduleEvent cascades (with its slots); ScheduleSlot.embedded_item is SET_NULL.
    _locked_class(user=user, task_class_id=task_class_id).delete()


# --- Items ---------------------------------------------------------------------------------------

@transaction.atomic
def task_item_add(
    *, user: User, task_class_id: int, content: str, position: int | None = None, sections: int = BLOCK_SECTIONS,
) -> TaskItem:
    """Add a block at ``position`` (1 = first; default: last), moving the later blocks down one place."""
    task_class = _locked_class(user=user, task_class_id=task_class_id)
    content = _clean_content(content)
    _check_sections(sections)
    count = task_class.items.count()
    if count >= MAX_ITEMS_PER_CLASS:
        raise _too_many(count + 1)
    position = count + 1 if position is None else position
    _check_position(position, count + 1)
    if position <= count:
        later = TaskItem.objects.filter(task_class=task_class, order__gte=position)
        later.update(order=F("order") + _PARKED)
        TaskItem.objects.filter(task_class=task_class, order__gte=_PARKED).update(order=F("order") - _PARKED + 1)
    return TaskItem.objects.create(task_class=task_class, order=position, content=content, sections=sections)


@transaction.atomic
def task_item_update(
    *, user: User, item_id: int, content: str | None = None, sections: int | None = None,
    task_class_id: int | None = None,
) -> TaskItem:
    """Rename a block (its id, order and placement stay); with ``task_class_id`` it must belong to that class."""
    item = _locked_item(user=user, item_id=item_id, task_class_id=task_class_id)
    fields = []
    if content is not None:
        item.content = _clean_content(content)
        fields.append("content")
    if sections is not None:
        _check_sections(sections)
        item.sections = sections
        fields.append("sections")
    if fields:
        item.save(update_fields=[*fields, "updated_at"])
    return item


@transaction.atomic
def task_item_remove(*, user: User, item_id: int, task_class_id: int | None = None) -> None:
    """Delete a block (its placement goes with it) and number the rest 1..n again."""
    item = _locked_item(user=user, item_id=item_id, task_class_id=task_class_id)
    task_class = item.task_class
    item.delete()
    _renumber(task_class, list(task_class.items.order_by("order").values_list("pk", flat=True)))


@transaction.atomic
def task_item_move(*, user: User, item_id: int, position: int, task_class_id: int | None = None) -> TaskItem:
    """Move a block to ``position`` (1..n), shifting the blocks in between by one."""
    item = _locked_item(user=user, item_id=item_id, task_class_id=task_class_id)
    ids = list(item.task_class.items.order_by("order").values_list("pk", flat=True))
    _check_position(position, len(ids))
    ids.remove(item.pk)
    ids.insert(position - 1, item.pk)
    _renumber(item.task_class, ids)
    item.refresh_from_db()
    return item


@transaction.atomic
def task_items_reorder(*, user: User, task_class_id: int, item_ids: Sequence[int]) -> list[TaskItem]:
    """Put the class's blocks in the given order; ``item_ids`` must name each of its blocks exactly once."""
    task_class = _locked_class(user=user, task_class_id=task_class_id)
    current = set(task_class.items.values_list("pk", flat=True))
    duplicates = sorted(pk for pk, seen in Counter(item_ids).items() if seen > 1)
    if duplicates or set(item_ids) != current:
        raise TaskClassInputError(
            _("Send every block of this task class exactly once."), code="item_ids_mismatch",
            detail={"missing": sorted(current - set(item_ids)), "unexpected": sorted(set(item_ids) - current),
                    "duplicates": duplicates})
    _renumber(task_class, list(item_ids))
    return list(task_class.items.order_by("order"))


def _renumber(task_class: TaskClass, ordered_ids: list[int]) -> None:
    TaskItem.objects.filter(task_class=task_class).update(order=F("order") + _PARKED)
    TaskItem.objects.bulk_update([TaskItem(pk=pk, order=order) for order, pk in enumerate(ordered_ids, start=1)],
                                 ["order"])


# --- Lookups -------------------------------------------------------------------------------------

def _locked_class(*, user: User, task_class_id: int) -> TaskClass:
    task_class = TaskClass.objects.select_for_update().filter(user=user, pk=task_class_id).first()
    if task_class is None:
        raise TaskClassNotFoundError(_("Task class not found."))
    return task_class


def _locked_item(*, user: User, item_id: int, task_class_id: int | None) -> TaskItem:
    """Lock the item's class (orders change under that lock), then read the item."""
    if task_class_id is None:
        task_class_id = (TaskItem.objects.filter(task_class__user=user, pk=item_id)
                         .values_list("task_class_id", flat=True).first())
        if task_class_id is None:
            raise TaskItemNotFoundError(_("Block not found."))
    task_class = _locked_class(user=user, task_class_id=task_class_id)
    item = TaskItem.objects.filter(task_class=task_class, pk=item_id).first()
    if item is None:
        raise TaskItemNotFoundError(_("Block not found."))
    item.task_class = task_class
    return item


# --- Checks --------------------------------------------------------------------------------------

def _collapse(text: object) -> str:
    return " ".join(str(text or "").split())


def _clean_name(name: str) -> str:
    cleaned = _collapse(name)
    if not cleaned:
        raise TaskClassInputError(_("Give the task class a name."), code="empty_name")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise TaskClassInputError(
            _("A name has at most %(limit)s characters.") % {"limit": MAX_NAME_LENGTH}, code="name_too_long",
            detail={"limit": MAX_NAME_LENGTH, "length": len(cleaned)})
    return cleaned


def _clean_content(content: str, *, number: int | None = None) -> str:
    cleaned = _collapse(content)
    where = {"number": number} if number is not None else None
    if not cleaned:
        message = (_("Block %(number)s has no content.") % {"number": number} if number is not None
                   else _("Write what the block is about."))
        raise TaskClassInputError(message, code="empty_item", detail=where)
    if len(cleaned) > MAX_CONTENT_LENGTH:
        raise TaskClassInputError(
            _("A block's content has at most %(limit)s characters.") % {"limit": MAX_CONTENT_LENGTH},
            code="item_too_long", detail={"limit": MAX_CONTENT_LENGTH, "length": len(cleaned), **(where or {})})
    return cleaned


def _checked_strategy(strategy: str) -> str:
    if strategy not in TaskClass.Strategy.values:
        raise TaskClassInputError(_("The strategy is steady, rapid or spaced."), code="invalid_strategy",
                                  detail={"choices": list(TaskClass.Strategy.values)})
    return strategy


def _checked_exam(user: User, strategy: str, exam_id: int | None, start: date, end: date) -> Exam | None:
    """The class's exam (the student's own): a spaced class needs one, inside its window."""
    if exam_id is None:
        if strategy == TaskClass.Strategy.SPACED:
            raise TaskClassInputError(_("A spaced class revises for an exam: choose the exam."),
                                      code="spaced_needs_exam")
        return None
    exam = exam_get(user=user, exam_id=exam_id)
    if strategy == TaskClass.Strategy.SPACED and not start <= exam.date <= end:
        code = "exam_before_window" if exam.date < start else "exam_after_window"
        message = (_("The exam (%(exam)s) is before the class's first day (%(start)s): revision goes before the exam.")
                   if exam.date < start else
                   _("The exam (%(exam)s) is after the class's last day (%(end)s): end the class on the exam's day."))
        raise TaskClassInputError(message % {"exam": exam.date.isoformat(), "start": start.isoformat(),
                                             "end": end.isoformat()}, code=code,
                                  detail={"exam_date": exam.date.isoformat(), "start_date": start.isoformat(),
                                          "end_date": end.isoformat()})
    return exam


def _check_window(semester: Semester, start: date, end: date) -> None:
    if end < start:
        raise TaskClassInputError(
            _("The last day (%(end)s) comes before the first day (%(start)s).")
            % {"start": start.isoformat(), "end": end.isoformat()},
            code="window_reversed", detail={"start_date": start.isoformat(), "end_date": end.isoformat()})
    first, last = semester.start_monday, semester.last_day
    if start < first or end > last:
        raise TaskClassInputError(
            _("The window is outside the semester: pick days from %(first)s to %(last)s.")
            % {"first": first.isoformat(), "last": last.isoformat()},
            code="window_outside_semester",
            detail={"start_date": start.isoformat(), "end_date": end.isoformat(),
                    "semester_first": first.isoformat(), "semester_last": last.isoformat()})


def _is_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _checked_pairs(pairs: Iterable[int], pair_count: int) -> list[int]:
    pairs = list(pairs)
    wrong = [p for p in pairs if not _is_number(p) or not 1 <= p <= pair_count]
    if wrong:
        raise TaskClassInputError(
            _("Excluded blocks are numbers from 1 to %(count)s.") % {"count": pair_count},
            code="invalid_excluded_pairs", detail={"count": pair_count, "invalid": wrong})
    chosen = sorted(set(pairs))
    if pair_count and len(chosen) == pair_count:
        raise TaskClassInputError(_("Excluding every block of the day leaves no time for the plan."),
                                  code="all_pairs_excluded")
    return chosen


def _checked_days(days: Iterable[int]) -> list[int]:
    days = list(days)
    wrong = [d for d in days if not _is_number(d) or not 1 <= d <= 7]
    if wrong:
        raise TaskClassInputError(_("Excluded days are numbers from 1 (Monday) to 7 (Sunday)."),
                                  code="invalid_excluded_days", detail={"invalid": wrong})
    chosen = sorted(set(days))
    if len(chosen) == 7:
        raise TaskClassInputError(_("Excluding all seven days leaves no time for the plan."),
                                  code="all_days_excluded")
    return chosen


def _checked_budget(budget: int | None) -> int | None:
    if budget is None:
        return None
    if not _is_number(budget) or not 1 <= budget <= MAX_SECTION_BUDGET:
        raise TaskClassInputError(
            _("The section budget is a whole number from 1 to %(max)s.") % {"max": MAX_SECTION_BUDGET},
            code="invalid_section_budget", detail={"max": MAX_SECTION_BUDGET})
    return budget


def _check_sections(sections: int) -> None:
    if not _is_number(sections) or sections != BLOCK_SECTIONS:
        raise TaskClassInputError(
            _("A block is one pair of sections (2); other lengths are not supported yet."),
            code="unsupported_sections", detail={"sections": sections, "supported": [BLOCK_SECTIONS]})


def _check_position(position: int, highest: int) -> None:
    if not _is_number(position) or not 1 <= position <= highest:
        raise TaskClassInputError(_("A position is a number from 1 to %(max)s.") % {"max": highest},
                                  code="invalid_position", detail={"position": position, "max": highest})


def _too_many(count: int) -> TaskClassInputError:
    return TaskClassInputError(
        _("A task class has at most %(limit)s blocks.") % {"limit": MAX_ITEMS_PER_CLASS}, code="too_many_items",
        detail={"limit": MAX_ITEMS_PER_CLASS, "count": count})


def _item_contents(*, name: str, items: Sequence[str] | None, item_count: int | None) -> list[str]:
    if items is not None and item_count is not None:
        raise TaskClassInputError(_("Give either the blocks' contents or their number, not both."),
                                  code="items_and_count")
    if items is not None:
        if len(items) > MAX_ITEMS_PER_CLASS:
            raise _too_many(len(items))
        contents = [_clean_content(text, number=n) for n, text in enumerate(items, start=1)]
    else:
        if item_count is not None and not _is_number(item_count):
            raise TaskClassInputError(_("The number of blocks is a whole number."), code="invalid_item_count")
        if item_count is not None and item_count > MAX_ITEMS_PER_CLASS:
            raise _too_many(item_count)
        contents = [f"{name} #{n}" for n in range(1, (item_count or 0) + 1)]
    if not contents:
        raise TaskClassInputError(_("A task class needs at least one block."), code="empty_class")
    return contents
