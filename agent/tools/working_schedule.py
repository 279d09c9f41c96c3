"""The conversation's working schedule: the board as plain JSON the assistant reads and edits.

Loaded from the database for a planning window (every day of it, the last Sunday included), it
holds the existing events (courses, custom events, study blocks, quick-note blocks), suggested
placements of task items and quick notes, moves of existing blocks, and pending items. It is
stored in the conversation's checkpoint, so it is plain JSON:

    {"version": 1, "user_id", "tz", "semester": {"start", "weeks"}, "sections": [["08:00", "08:45"], ...],
     "window": {"start", "end"}, "class_ids": [...],
     "classes": {"<id>": {"id", "name", "strategy", "start", "end", "excluded_pairs", "excluded_days",
                          "allow_filler"}},
     "entries": [{"id" (the only id the model sees), "kind": course|custom|task_item|quick_note, "name",
                  "status": existing|suggested|pending, "locked", "filler" (a filler course that may host),
                  "sections" (length), "at": {"date", "start", "end"} | None, "host": entry id | None,
                  "origin": where it is in the database {"date", "start", "end", "host_event_id"} | None,
                  "event_id", "item_id", "task_id", "class_id", "order", "deadline"}],
     "next_id", "queue": {"pending", "current", "attempts", "completed", "skipped", "last_error"}}

Courses, custom events, filler hosts and anything that has begun are locked: the model can never
move or remove them. Edits go through ``agent.tools.working_ops.edit``.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta
from typing import Any, Iterable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from agent.tools import working_ops as ops
from schedule.core.planner import OccupiedSection, plan
from schedule.core.time_model import SectionTemplate, Semester, span_bounds
from schedule.models import PlanPreview, ScheduleEvent, ScheduleSlot
from schedule.selectors import time_frame_get
from schedule.services.planning import PREVIEW_TTL, planning_instance_build, unplaced_items
from taskclasses.models import Task, TaskClass

VERSION = 1
DEFAULT_DAYS = 14
MAX_PENDING_NOTES = 20
WORKING_EVENT_ID = -2  # marks sections the conversation already uses, for the planner


# --- Loading -------------------------------------------------------------------------------------

def working_load(*, user: User, now: datetime, task_class_ids: Iterable[int] = (), start: date | None = None,
                 end: date | None = None, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    """Load the board for a window: from today through the classes' windows, or the next 14 days.

    Unknown or foreign class ids are left out. With ``previous`` (an older working schedule of the
    same user), entries keep their ids and the conversation's suggestions and moves are carried over
    where they still fit.
    """
    semester, template = time_frame_get(user=user)
    classes = list(TaskClass.objects.filter(user=user, pk__in=list(task_class_ids)).order_by("pk"))
    first, last = _window(semester, semester.local_date(now), classes, start, end)
    working: dict[str, Any] = {
        "version": VERSION, "user_id": user.pk, "tz": semester.tz,
        "semester": {"start": semester.start_monday.isoformat(), "weeks": semester.weeks},
        "sections": [list(pair) for pair in template.to_hhmm()],
        "window": {"start": first.isoformat(), "end": last.isoformat()},
        "class_ids": [c.pk for c in classes], "classes": {}, "entries": [], "next_id": 1,
        "queue": queue_empty(),
    }
    found = _board_entries(user, semester, template, first, last, now)
    found += _pending_items(classes, found)
    found += _pending_notes(user, template)
    _class_meta(working, {e["class_id"] for e in found if e["class_id"] is not None} | {c.pk for c in classes})
    _assign_ids(working, found, previous if _same_user(previous, user) else None)
    if _same_user(previous, user):
        _carry_over(working, previous, now=now)
    return working


def _same_user(working: dict[str, Any] | None, user: User) -> bool:
    return bool(working) and working.get("user_id") == user.pk and working.get("version") == VERSION


def _window(semester: Semester, today: date, classes: list[TaskClass], start: date | None,
            end: date | None) -> tuple[date, date]:
    first = start or today
    if end is None:
        ends = [c.end_date for c in classes if c.end_date >= first]
        end = max(ends) if ends else first + timedelta(days=DEFAULT_DAYS - 1)
    first = min(max(first, semester.start_monday), semester.last_day)
    last = min(max(end, first), semester.last_day)
    return first, last


def _entry(**values: Any) -> dict[str, Any]:
    base = {"id": 0, "kind": "custom", "name": "", "status": "existing", "locked": False, "filler": False,
            "sections": 2, "at": None, "host": None, "origin": None, "event_id": None, "item_id": None,
            "task_id": None, "class_id": None, "order": None, "deadline": None}
    base.update(values)
    return base


def _board_entries(user: User, semester: Semester, template: SectionTemplate, first: date, last: date,
                   now: datetime) -> list[dict[str, Any]]:
    weeks = range(semester.week_day_of(first)[0], semester.week_day_of(last)[0] + 1)
    events = (ScheduleEvent.objects.filter(user=user, week__in=list(weeks))
              .select_related("course", "task_item").order_by("week", "day", "start_section"))
    found: list[dict[str, Any]] = []
    by_event: dict[int, dict[str, Any]] = {}
    for event in events:
        day = semester.date_of(event.week, event.day)
        if not first <= day <= last:  # whole weeks are read, so the last Sunday is never cut off
            continue
        entry = _event_entry(event, day, span_bounds(semester, template, event.week, event.day,
                                                     event.start_section, event.end_section)[0] <= now)
        by_event[event.pk] = entry
        found.append(entry)
    found += _embedded_entries(user, weeks, by_event, now, semester, template)
    return found


def _event_entry(event: ScheduleEvent, day: date, begun: bool) -> dict[str, Any]:
    at = {"date": day.isoformat(), "start": event.start_section, "end": event.end_section}
    movable = event.kind in (ScheduleEvent.Kind.TASK_ITEM, ScheduleEvent.Kind.QUICK_NOTE) and not begun
    item = event.task_item
    return _entry(
        kind=event.kind, name=event.title, locked=not movable, filler=event.is_filler, sections=len(event.sections),
        at=at, origin={**at, "host_event_id": None} if movable else None, event_id=event.pk,
        item_id=event.task_item_id, task_id=event.task_id, class_id=item.task_class_id if item else None,
        order=item.order if item else None)


def _embedded_entries(user: User, weeks: range, by_event: dict[int, dict[str, Any]], now: datetime,
                      semester: Semester, template: SectionTemplate) -> list[dict[str, Any]]:
    rows = (ScheduleSlot.objects.filter(user=user, week__in=list(weeks), embedded_item__isnull=False)
            .values_list("event_id", "embedded_item_id", "section", "embedded_item__content",
                         "embedded_item__task_class_id", "embedded_item__order"))
    grouped: dict[tuple[int, int], list] = defaultdict(list)
    for event_id, item_id, section, content, class_id, order in rows:
        grouped[(event_id, item_id)].append((section, content, class_id, order))
    found = []
    for (event_id, item_id), sections in sorted(grouped.items()):
        host = by_event.get(event_id)
        if host is None:
            continue
        numbers = sorted(s[0] for s in sections)
        at = {"date": host["at"]["date"], "start": numbers[0], "end": numbers[-1]}
        week, day = semester.week_day_of(date.fromisoformat(at["date"]))
        begun = span_bounds(semester, template, week, day, numbers[0], numbers[-1])[0] <= now
        found.append(_entry(
            kind="task_item", name=sections[0][1], locked=begun, sections=len(numbers), at=at,
            origin=None if begun else {**at, "host_event_id": event_id}, item_id=item_id,
            class_id=sections[0][2], order=sections[0][3], host=("event", event_id)))
    return found


def _pending_items(classes: list[TaskClass], found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen = {e["item_id"] for e in found if e["item_id"] is not None}
    items = unplaced_items(classes).order_by("task_class_id", "order")
    return [_entry(kind="task_item", name=item.content, status="pending", sections=item.sections, item_id=item.pk,
                   class_id=item.task_class_id, order=item.order) for item in items if item.pk not in seen]


def _pending_notes(user: User, template: SectionTemplate) -> list[dict[str, Any]]:
    tasks = (Task.objects.filter(user=user, completed=False, events__isnull=True)
             .order_by("quadrant", "deadline", "pk")[:MAX_PENDING_NOTES])
    return [note_entry(task, template.count) for task in tasks]


def note_entry(task: Task, count: int) -> dict[str, Any]:
    """A quick-note task waiting for a block, as a pending entry."""
    length = min(task.estimated_sections or 2, count)
    return _entry(kind="quick_note", name=task.title, status="pending", sections=length, task_id=task.pk,
                  deadline=task.deadline.isoformat() if task.deadline else None)


def _class_meta(working: dict[str, Any], class_ids: set[int]) -> None:
    for task_class in TaskClass.objects.filter(pk__in=list(class_ids), user_id=working["user_id"]):
        working["classes"][str(task_class.pk)] = {
            "id": task_class.pk, "name": task_class.name, "strategy": task_class.strategy,
            "start": task_class.start_date.isoformat(), "end": task_class.end_date.isoformat(),
            "excluded_pairs": list(task_class.excluded_pairs), "excluded_days": list(task_class.excluded_days),
            "allow_filler": task_class.allow_filler}


def identity(entry: dict[str, Any]) -> tuple:
    """What an entry is in the database, stable across loads."""
    if entry["item_id"] is not None:
        return ("item", entry["item_id"])
    if entry["task_id"] is not None:
        return ("task", entry["task_id"])
    return ("event", entry["event_id"])


def _assign_ids(working: dict[str, Any], found: list[dict[str, Any]], previous: dict[str, Any] | None) -> None:
    known = {identity(e): e["id"] for e in (previous or {}).get("entries", [])}
    next_id = (previous or {}).get("next_id", 1)
    for entry in found:
        if identity(entry) in known:
            entry["id"] = known[identity(entry)]
        else:
            entry["id"], next_id = next_id, next_id + 1
    hosts = {e["event_id"]: e["id"] for e in found if e["event_id"] is not None}
    for entry in found:
        if isinstance(entry["host"], tuple):
            entry["host"] = hosts[entry["host"][1]]
    working["entries"] = sorted(found, key=lambda e: e["id"])
    working["next_id"] = max([next_id, *(e["id"] + 1 for e in found)])


def _carry_over(working: dict[str, Any], previous: dict[str, Any], *, now: datetime) -> None:
    """Put the older conversation's suggestions and moves back where they still fit."""
    by_identity = {identity(e): e for e in working["entries"]}
    for old in previous.get("entries", []):
        if not old.get("at") or not (old["status"] == "suggested" or ops.is_moved(old)):
            continue
        entry = by_identity.get(identity(old))
        if entry is None or entry["locked"] or (old["status"] == "suggested") != (entry["status"] == "pending"):
            continue
        try:
            new = ops.edit(working, {entry["id"]: (old["at"]["date"], old["at"]["start"])}, now=now,
                           allow_reorder=True)
        except ops.EditRefused:
            continue
        working["entries"] = new["entries"]


def queue_empty() -> dict[str, Any]:
    return {"pending": [], "current": None, "attempts": 0, "completed": [], "skipped": [], "last_error": ""}


# --- Rough build ---------------------------------------------------------------------------------

def working_rough_build(*, user: User, now: datetime, task_class_ids: Iterable[int],
                        working: dict[str, Any] | None) -> tuple[dict[str, Any], str]:
    """Run the planner for these classes and load its placements as suggestions (no LLM).

    Earlier suggestions of these classes are planned again; the conversation's other suggestions
    and moves stay and count as taken. Raises PlanningError when a class's window has passed.
    """
    wanted = list(TaskClass.objects.filter(user=user, pk__in=list(task_class_ids)).order_by("pk"))
    wanted_ids = {c.pk for c in wanted}
    loaded = set((working or {}).get("class_ids", [])) if _same_user(working, user) else set()
    if working is None or not _same_user(working, user) or not wanted_ids <= loaded:
        working = working_load(user=user, now=now, task_class_ids=sorted(loaded | wanted_ids),
                               previous=working if _same_user(working, user) else None)
    working = {**working, "entries": [dict(e) for e in working["entries"]]}
    for entry in working["entries"]:
        if entry["class_id"] in wanted_ids and entry["status"] == "suggested":
            entry.update(status="pending", at=None, host=None)
    if not wanted:
        return working, _("No task class was chosen, so nothing was planned.")
    instance = planning_instance_build(user=user, task_classes=wanted, now=now)
    instance = _with_conversation_changes(instance, working, time_frame_get(user=user)[0])
    result = plan(instance)
    placed = _load_placements(working, result.placements, time_frame_get(user=user)[0])
    left = sum(1 for e in working["entries"] if e["class_id"] in wanted_ids and e["status"] == "pending")
    summary = ngettext("Suggested %(count)s block", "Suggested %(count)s blocks", placed) % {"count": placed}
    if left:
        summary += "; " + ngettext("%(count)s block found no place", "%(count)s blocks found no place",
                                   left) % {"count": left}
    return working, summary + "."


def _with_conversation_changes(instance, working: dict[str, Any], semester: Semester):
    """Mark the sections the conversation already uses (suggestions, moved blocks) as taken."""
    import dataclasses

    taken = {(o.week, o.day, o.section) for o in instance.occupied}
    extra = []
    for entry in working["entries"]:
        if entry.get("at") and (entry["status"] == "suggested" or ops.is_moved(entry)):
            week, day = semester.week_day_of(date.fromisoformat(entry["at"]["date"]))
            for section in range(entry["at"]["start"], entry["at"]["end"] + 1):
                if (week, day, section) not in taken:
                    extra.append(OccupiedSection(event_id=WORKING_EVENT_ID, week=week, day=day, section=section,
                                                 name=entry["name"]))
    return dataclasses.replace(instance, occupied=instance.occupied + tuple(extra))


def _load_placements(working: dict[str, Any], placements, semester: Semester) -> int:
    by_item = {e["item_id"]: e for e in working["entries"] if e["item_id"] is not None and e["status"] == "pending"}
    hosts = {e["event_id"]: e["id"] for e in working["entries"] if e["event_id"] is not None}
    placed = 0
    for placement in placements:
        entry = by_item.get(placement.item_id)
        day = semester.date_of(placement.week, placement.day).isoformat()
        if entry is None or not working["window"]["start"] <= day <= working["window"]["end"]:
            continue
        entry.update(status="suggested", host=hosts.get(placement.host_event_id),
                     at={"date": day, "start": placement.section_start, "end": placement.section_end})
        placed += 1
    return placed


# --- To a preview ----------------------------------------------------------------------------------

def working_to_preview(*, user: User, working: dict[str, Any] | None, conversation_id: int,
                       now: datetime) -> PlanPreview | None:
    """Turn the conversation's changes into a PlanPreview (the week board's); None when there are none.

    An older open preview of the same conversation is discarded: the newest one holds every change.
    """
    if not _same_user(working, user):
        return None
    semester, _template = time_frame_get(user=user)
    by_id = {e["id"]: e for e in working["entries"]}
    placements, moves, notes = [], [], []
    for entry in working["entries"]:
        if entry.get("at") is None:
            continue
        target = _coords(semester, entry["at"], _host_event(by_id, entry))
        if entry["status"] == "suggested" and entry["kind"] == "task_item":
            placements.append({"item_id": entry["item_id"], "class_id": entry["class_id"], **target})
        elif entry["status"] == "suggested" and entry["kind"] == "quick_note":
            notes.append({"task_id": entry["task_id"], **target})
        elif ops.is_moved(entry):
            origin = entry["origin"]
            moves.append({"kind": entry["kind"], "item_id": entry["item_id"], "task_id": entry["task_id"],
                          "event_id": entry["event_id"], "class_id": entry["class_id"],
                          "from": _coords(semester, origin, origin["host_event_id"]), "to": target})
    if not (placements or moves or notes):
        return None
    unplaced = [{"item_id": e["item_id"], "class_id": e["class_id"], "reason": "not_placed",
                 "detail": "not placed in this conversation"}
                for e in working["entries"] if e["kind"] == "task_item" and e["status"] == "pending"
                and e["class_id"] in working["class_ids"]]
    class_ids = sorted({p["class_id"] for p in placements} | {m["class_id"] for m in moves if m["class_id"]}
                       | set(working["class_ids"]))
    PlanPreview.objects.filter(user=user, source=PlanPreview.Source.ASSISTANT, conversation_id=conversation_id,
                               status=PlanPreview.Status.OPEN).update(status=PlanPreview.Status.DISCARDED)
    order = lambda p: (p["week"], p["day"], p["start_section"])  # noqa: E731
    return PlanPreview.objects.create(
        user=user, source=PlanPreview.Source.ASSISTANT, conversation_id=conversation_id, task_class_ids=class_ids,
        placements=sorted(placements, key=order), moves=sorted(moves, key=lambda m: order(m["to"])),
        task_placements=sorted(notes, key=order), unplaced=unplaced, feasibility=[],
        expires_at=now + PREVIEW_TTL)


def _host_event(by_id: dict[int, dict[str, Any]], entry: dict[str, Any]) -> int | None:
    host = by_id.get(entry["host"]) if entry["host"] is not None else None
    return host["event_id"] if host else None


def _coords(semester: Semester, at: dict[str, Any], host_event_id: int | None) -> dict[str, Any]:
    week, day = semester.week_day_of(date.fromisoformat(at["date"]))
    return {"week": week, "day": day, "start_section": at["start"], "end_section": at["end"],
            "host_event_id": host_event_id}


# --- For the prompt --------------------------------------------------------------------------------

def working_day_index(working: dict[str, Any] | None) -> str:
    """Compact text of the window: one line per day with its blocks and free runs, then what waits."""
    if not working:
        return "（还没有加载工作日程）"
    sections = working["sections"]
    lines = [f"规划窗口 {ops.day_label(working['window']['start'])} 至 {ops.day_label(working['window']['end'])}；"
             f"每天 {len(sections)} 节，"
             + "，".join(f"{n}-{n + 1}节 {sections[n - 1][0]}-{sections[n][1]}"
                        for n in range(1, len(sections), 2)) + "。"]
    lines += [ops.occupancy_line(working, day.isoformat()) for day in ops.window_dates(working)]
    waiting = [e for e in working["entries"] if e["status"] == "pending"]
    if waiting:
        lines.append("待安排：" + "；".join(f"{ops.entry_label(e)}({e['sections']}节)" for e in waiting[:30])
                     + ("…" if len(waiting) > 30 else ""))
    return "\n".join(lines)

