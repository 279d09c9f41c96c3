"""Why a block sits where it sits, in the student's language; and keeping the reason with the block.

The planner and the repair core give each placement a structured reason (codes and figures,
``schedule.core.planning.reasons``); a preview stores it in its rows and an apply copies it onto
the ``TaskItem`` (``placement_reason``). The words are built here, at the edge, like the reasons of
unplaced blocks (``unplaced_reasons``): "第 3 项：在第 2 项之后最早的空闲两节；避开了你排除的周五；
均匀分布：本周 2 项，每周不超过 2 项。" A reason holds no database id and nothing of anyone else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from schedule.core.board import Board
from schedule.core.change_records import BlockMove, ItemPlacement, MarkedBlock
from schedule.core.planning.reasons import CATCH_UP, EARLIEST, MANUAL, REPAIR, SPREAD, manual_reason
from schedule.messages import day_label
from schedule.models import PlanPreview, ScheduleEvent
from schedule.selectors import school_calendar_get
from taskclasses.models import TaskItem


def placement_reason_text(reason: Mapping | None) -> str:
    """The sentence saying why a block is where it is; empty when nothing is known (older blocks)."""
    if not reason or not isinstance(reason, Mapping):
        return ""
    kind = reason.get("kind")
    if kind == MANUAL:
        return _("You put it here yourself.")
    if kind == CATCH_UP:
        return _catch_up_text(reason)
    if kind == REPAIR:
        return _repair_text(reason)
    if kind in (EARLIEST, SPREAD):
        return _planned_text(reason)
    return ""


def _sentence(parts: list[str]) -> str:
    """Clauses joined and closed in the language's own punctuation ("；" and "。" in Chinese)."""
    text = ""
    for part in (p for p in parts if p):
        text = _("%(left)s; %(right)s") % {"left": text, "right": part} if text else part
    return _("%(sentence)s.") % {"sentence": text}


def _listed(words: list[str]) -> str:
    """Words in a list ("周五、周六" in Chinese)."""
    text = ""
    for word in words:
        text = _("%(left)s, %(right)s") % {"left": text, "right": word} if text else word
    return text


def _prefixed(reason: Mapping, text: str) -> str:
    item = reason.get("item")
    if not isinstance(item, int):
        return text
    return _("Block %(item)d: %(text)s") % {"item": item, "text": text}


def _planned_text(reason: Mapping) -> str:
    after = reason.get("after")
    parts = []
    if reason.get("kind") == EARLIEST:
        parts.append(_("the earliest free two sections after block %(after)d") % {"after": after}
                     if isinstance(after, int) else _("the earliest free two sections in its window"))
    elif isinstance(after, int):
        parts.append(_("after block %(after)d") % {"after": after})
    taken = reason.get("taken_between")
    if isinstance(taken, int) and taken > 0:
        parts.append(_("%(count)d earlier slots are held by your other plans") % {"count": taken})
    parts.extend(_avoided_parts(reason.get("avoided") or {}))
    if reason.get("filler"):
        parts.append(_("inside a filler course"))
    exam = reason.get("exam")
    if isinstance(exam, int):
        parts.append(_("%(days)d days before the exam") % {"days": exam})
    else:
        spread = reason.get("spread")
        if isinstance(spread, Mapping):
            parts.append(_("spread evenly: %(week)d this week, at most %(cap)d in any week")
                         % {"week": spread.get("week", 0), "cap": spread.get("cap", 0)})
    parts.extend(_rules_parts(reason.get("rules") or {}))
    parts.extend(_calendar_parts(reason.get("calendar") or {}))
    return _prefixed(reason, _sentence(parts))


def _rules_parts(rules: Mapping) -> list[str]:
    """The student's own rules that kept the block from an earlier time ("避开了你设的午饭时间")."""
    parts = []
    names = [n for n in rules.get("protected", []) if isinstance(n, str)]
    if names:
        parts.append(_("kept clear of your protected time (%(names)s)") % {"names": _listed(names)}
                     if any(names) else _("kept clear of your protected time"))
    if isinstance(rules.get("latest"), int):
        parts.append(_("ends by section %(section)d, your latest section") % {"section": rules["latest"]})
    if isinstance(rules.get("cap"), int):
        parts.append(_("an earlier day already had your daily cap of %(cap)d blocks") % {"cap": rules["cap"]})
    if isinstance(rules.get("buffer"), int):
        parts.append(_("keeps your buffer of %(sections)d sections from other blocks")
                     % {"sections": rules["buffer"]})
    return parts


def _calendar_parts(calendar: Mapping) -> list[str]:
    """What the school calendar says of the block's day."""
    if isinstance(calendar.get("holiday"), str):
        return [_("on a holiday (%(name)s): the day's courses are suspended") % {"name": calendar["holiday"]}]
    runs = calendar.get("makeup")
    if isinstance(runs, Mapping) and isinstance(runs.get("week"), int) and isinstance(runs.get("day"), int):
        return [_("on a make-up day running week %(week)d %(day)s's courses")
                % {"week": runs["week"], "day": day_label(runs["day"])}]
    return []


def _pins_part(reason: Mapping) -> list[str]:
    pins = reason.get("pins")
    if isinstance(pins, int) and pins > 0:
        return [ngettext("went past %(count)d pinned block, which never moves",
                         "went past %(count)d pinned blocks, which never move", pins) % {"count": pins}]
    return []


def _avoided_parts(avoided: Mapping) -> list[str]:
    parts = []
    days = [d for d in avoided.get("days", []) if isinstance(d, int) and 1 <= d <= 7]
    if days:
        parts.append(_("avoided the days you excluded (%(days)s)")
                     % {"days": _listed([day_label(d) for d in days])})
    pairs = [k for k in avoided.get("pairs", []) if isinstance(k, int) and k > 0]
    if pairs:
        runs = _listed([f"{2 * k - 1}-{2 * k}" for k in pairs])
        parts.append(_("avoided the sections you excluded (%(sections)s)") % {"sections": runs})
    return parts


def _catch_up_text(reason: Mapping) -> str:
    was = reason.get("was") or {}
    week, day = was.get("week"), was.get("day")
    if isinstance(week, int) and isinstance(day, int) and 1 <= day <= 7:
        text = _("due in week %(week)d, %(day)s and not done; caught up at the earliest free time that keeps "
                 "the plan's order") % {"week": week, "day": day_label(day)}
    else:
        text = _("missed, and caught up at the earliest free time that keeps the plan's order")
    return _prefixed(reason, _sentence([text, *_pins_part(reason)]))


def _repair_text(reason: Mapping) -> str:
    text = (_("its place was taken; moved to the nearest free time that keeps the plan's order")
            if reason.get("displaced") else _("moved to make room for a block whose place was taken"))
    return _prefixed(reason, _sentence([text, *_pins_part(reason)]))


def calendar_reason_days(*, user: User) -> dict[tuple[int, int], dict]:
    """The school calendar's word on each (week, weekday) it changes, as the planner's reasons carry it:
    a holiday's name (its courses are suspended) or the (week, weekday) a make-up day runs."""
    notes: dict[tuple[int, int], dict] = {}
    for day in school_calendar_get(user=user).days.values():
        if day.runs is not None:  # a make-up day also sets its own meetings aside: what it runs is the news
            notes[(day.week, day.day)] = {"makeup": {"week": day.runs[0], "day": day.runs[1]}}
        elif day.suspended:
            name = next((label.name for label in day.labels if label.name), "")
            notes[(day.week, day.day)] = {"holiday": name or _("holiday")}
    return notes


# --- Reading the reasons of a week's blocks --------------------------------------------------------

def reasons_by_item(item_ids: Iterable[int]) -> dict[int, str]:
    """Each placed study block's reason as a sentence, by item id (one query)."""
    wanted = [pk for pk in set(item_ids) if pk]
    if not wanted:
        return {}
    rows = TaskItem.objects.filter(pk__in=wanted).values_list("pk", "placement_reason")
    return {pk: text for pk, reason in rows if (text := placement_reason_text(reason))}


def week_reasons(*, events: Iterable[ScheduleEvent], embedded_item_ids: Iterable[int]) -> dict[int, str]:
    """The reasons of the week board's study blocks, by item id: their own events and the embedded ones."""
    return reasons_by_item([*(e.task_item_id for e in events if e.task_item_id), *embedded_item_ids])


def preview_reason_texts(preview: PlanPreview) -> dict[int, str]:
    """The reasons of a preview's suggested and moved study blocks, by item id."""
    return {block.item_id: text for block in _planned_blocks(preview)
            if block.item_id is not None and (text := placement_reason_text(block.reason))}


def _planned_blocks(preview: PlanPreview) -> list[ItemPlacement | BlockMove]:
    """A preview's study blocks: the ones it places and the ones it moves (a quick note has no reason)."""
    return [*preview.placement_records(), *(m for m in preview.move_records() if m.item_id)]


# --- Keeping the reason with the block ------------------------------------------------------------

def reasons_keep(*, user: User, preview: PlanPreview) -> list[MarkedBlock]:
    """On apply: copy each block's reason onto its item; a missed block placed again is planned again.

    Returns the marks (``ChangeSet.marked`` records) of items whose status the apply changed, so
    undo gives them their status back.
    """
    reasons = {block.item_id: block.reason for block in _planned_blocks(preview) if block.reason}
    items = {item.pk: item for item in TaskItem.objects.filter(pk__in=list(reasons), task_class__user=user)}
    for item in items.values():
        item.placement_reason = reasons[item.pk]
    TaskItem.objects.bulk_update(list(items.values()), ["placement_reason"])
    return _replanned_marks(user=user, item_ids=[m.item_id for m in preview.move_records() if m.item_id])


def _replanned_marks(*, user: User, item_ids: list[int]) -> list[MarkedBlock]:
    missed = list(TaskItem.objects.filter(pk__in=item_ids, task_class__user=user, status=TaskItem.Status.MISSED))
    TaskItem.objects.filter(pk__in=[i.pk for i in missed]).update(status=TaskItem.Status.PLACED,
                                                                  updated_at=timezone.now())
    return [MarkedBlock(item_id=i.pk, task_id=None, title=i.content, before=TaskItem.Status.MISSED,
                        after=TaskItem.Status.PLACED) for i in missed]


def reason_set_manual(*, item_ids: Iterable[int]) -> None:
    """The student moved these blocks by hand: that is now why they are there."""
    TaskItem.objects.filter(pk__in=list(item_ids)).update(placement_reason=manual_reason())


def reasons_after_drag(preview: PlanPreview, board: Board) -> dict[int, dict]:
    """A preview's reasons after the student dragged or removed a block: a block still where the
    planner put it keeps its reason, one the drag moved (or handed another place) was put there by hand."""
    before = {block.item_id: block for block in _planned_blocks(preview)}
    kept: dict[int, dict] = {}
    for entry in board.entries:
        block = before.get(entry.item_id) if entry.item_id is not None else None
        if block is None or entry.place is None or entry.item_id is None:
            continue
        at = block.placed_at
        week, day = board.calendar.week_day(entry.place.day)
        same = (at.week, at.day, at.start_section) == (week, day, entry.place.start)
        if not same:
            kept[entry.item_id] = manual_reason()
        elif block.reason:
            kept[entry.item_id] = dict(block.reason)
    return kept

