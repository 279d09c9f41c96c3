"""The student's board from the database: the one adapter every schedule writer reads through.

``board_load`` turns rows into a ``schedule.core`` Board for a window of days: every event of those
days (courses, filler courses with the study blocks embedded in them, the student's own events,
study and quick-note blocks), the items of the classes being planned that still wait for a place,
the quick notes that wait, the rules of every class on the board, the student's own rules and
pins (``schedule/student_rules``), and the clock. The editing rules
then live in the core alone; this module only reads (about six queries, whatever the window).

Board ids are given in a fixed order (events by time, then embedded blocks, waiting items, waiting
notes). With ``previous`` (an older board of the same student), every row keeps the id it had
there, so ids the assistant's model has seen stay valid across reloads.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

from django.db.models import QuerySet

from accounts.models import User
from schedule.core.board import Board, Calendar, ClassRules, DateWindow, Entry, Kind, Position, clock_at
from schedule.core.student_rules import StudentRules
from schedule.models import ScheduleEvent, ScheduleSlot
from schedule.selectors import time_frame_get
from schedule.student_rules.models import StudyRules
from taskclasses.models import Task, TaskClass, TaskItem

DEFAULT_DAYS = 14  # the window when no class is being planned
MAX_PENDING_NOTES = 20
NOTE_SECTIONS = 2  # a quick note without an estimate takes one pair


@dataclass(frozen=True, slots=True)
class _Draft:
    """An entry before it has its board id; a guest's ``place.host`` still holds the host's event id."""

    key: tuple[str, int]  # what it is in the database: ("item" | "task" | "event", id)
    entry: Entry


def calendar_get(*, user: User) -> Calendar:
    """The student's semester and section template as the core's calendar."""
    semester, template = time_frame_get(user=user)
    return Calendar(semester, template)


def board_load(*, user: User, now: datetime, first: date | None = None, last: date | None = None,
               class_ids: Iterable[int] = (), task_ids: Iterable[int] = (), pending_notes: bool = True,
               previous: Board | None = None, calendar: Calendar | None = None) -> Board:
    """Return the student's board for ``first..last`` (clamped into the semester) as of ``now``.

    ``first`` defaults to today; ``last`` to the latest end of the planned classes, or 14 days.
    ``class_ids`` are the classes being planned (another student's ids are left out): their
    waiting items are on the board. The first 20 waiting quick notes are too (unless
    ``pending_notes`` is off), and the quick notes ``task_ids`` wherever they rank.
    """
    calendar = calendar or calendar_get(user=user)
    planned = list(TaskClass.objects.filter(user=user, pk__in=list(class_ids)).order_by("pk"))
    window = _window(calendar, calendar.semester.local_date(now), planned, first, last)
    drafts = _event_drafts(user, calendar, window)
    drafts += _pending_item_drafts(planned, {d.key for d in drafts})
    drafts += _pending_note_drafts(user, calendar, list(task_ids), pending_notes, {d.key for d in drafts})
    used = {d.entry.class_id for d in drafts if d.entry.class_id is not None} - {c.pk for c in planned}
    classes = [*planned, *TaskClass.objects.filter(user=user, pk__in=list(used))]
    entries, next_id = _with_ids(drafts, previous)
    rules = StudyRules.objects.filter(user=user).first()
    return Board(calendar=calendar, window=window, clock=clock_at(calendar, now), entries=_pinned(entries, rules),
                 classes=tuple(class_rules(c) for c in classes), planned_class_ids=tuple(c.pk for c in planned),
                 next_id=next_id, rules=rules.to_core() if rules is not None else StudentRules())


def _pinned(entries: tuple[Entry, ...], rules: StudyRules | None) -> tuple[Entry, ...]:
    """Mark the blocks the student pinned (study items and quick notes, by their database ids)."""
    if rules is None or not (rules.pinned_items or rules.pinned_notes):
        return entries
    items, notes = set(rules.pinned_items), set(rules.pinned_notes)
    return tuple(replace(e, pinned=True) if (e.item_id in items or e.task_id in notes) else e for e in entries)


def _window(calendar: Calendar, today: date, planned: list[TaskClass], first: date | None,
            last: date | None) -> DateWindow:
    first = first or today
    if last is None:
        ends = [c.end_date for c in planned if c.end_date >= first]
        last = max(ends) if ends else first + timedelta(days=DEFAULT_DAYS - 1)
    semester = calendar.semester
    first = min(max(first, semester.start_monday), semester.last_day)
    return DateWindow(first, min(max(last, first), semester.last_day))


def unplaced_items(task_classes: Iterable[TaskClass] | QuerySet[TaskClass]) -> QuerySet[TaskItem]:
    """Items still to place: not done, with no block of their own and not embedded in a course.

    Placement is read from the board itself, so a block deleted there is planned again.
    """
    return (TaskItem.objects.filter(task_class__in=task_classes).exclude(status=TaskItem.Status.DONE)
            .exclude(events__isnull=False).exclude(embedded_slots__isnull=False).distinct())


def class_rules(task_class: TaskClass) -> ClassRules:
    """A task class's rules as the core reads them."""
    return ClassRules(id=task_class.pk, window=DateWindow(task_class.start_date, task_class.end_date),
                      name=task_class.name, strategy=task_class.strategy,
                      excluded_days=frozenset(task_class.excluded_days),
                      excluded_pairs=frozenset(task_class.excluded_pairs), allow_filler=task_class.allow_filler)


def note_entry(task: Task, calendar: Calendar) -> Entry:
    """A quick-note task waiting for a block (no board id yet)."""
    return _note(task.pk, task.title, task.estimated_sections, task.deadline, calendar)


def _note(task_id: int, title: str, estimate: int | None, deadline: datetime | None, calendar: Calendar) -> Entry:
    return Entry(0, Kind.NOTE, min(estimate or NOTE_SECTIONS, calendar.sections), title, task_id=task_id,
                 deadline=deadline)


# --- Rows to drafts ----------------------------------------------------------------------------------

def _weeks(calendar: Calendar, window: DateWindow) -> list[int]:
    # Whole weeks are read and cut to the window, so the window's last Sunday is never lost.
    return list(range(calendar.week_day(window.first)[0], calendar.week_day(window.last)[0] + 1))


def _event_drafts(user: User, calendar: Calendar, window: DateWindow) -> list[_Draft]:
    # A meeting shown beside another course holds no sections: the other one holds them for the planner.
    rows = (ScheduleEvent.objects.filter(user=user, week__in=_weeks(calendar, window), beside=False)
            .order_by("week", "day", "start_section", "pk")
            .values_list("pk", "kind", "title", "week", "day", "start_section", "end_section", "course__is_filler",
                         "task_item_id", "task_item__task_class_id", "task_item__order", "task_id", "task__deadline"))
    drafts: list[_Draft] = []
    keys: set[tuple[str, int]] = set()
    for pk, kind, title, week, day, start, end, filler, item_id, class_id, order, task_id, deadline in rows:
        on = calendar.date_of(week, day)
        if on not in window:
            continue
        where = Position(on, start, end)
        entry = Entry(0, Kind(kind), end - start + 1, title, place=where, origin=where,
                      filler=bool(filler) and kind == Kind.COURSE, class_id=class_id, order=order, event_id=pk,
                      item_id=item_id, task_id=task_id, deadline=deadline)
        drafts.append(_Draft(_key(entry), entry) if _key(entry) not in keys else _extra_block(entry))
        keys.add(drafts[-1].key)
    return drafts + _guest_drafts(user, calendar, window, {d.entry.event_id for d in drafts})


def _extra_block(entry: Entry) -> _Draft:
    """A second block of one note or study item (written before it was refused): shown as a fixed block.

    Each note or item has one board id; two entries with one id made the whole board invalid (500 on
    the dashboard and the week). The extra block still holds its time, so nothing is planned over it.
    """
    fixed = replace(entry, kind=Kind.CUSTOM, item_id=None, task_id=None, class_id=None, order=None, deadline=None)
    return _Draft(("event", entry.event_id), fixed)  # type: ignore[arg-type]  # every row here has its pk


def _guest_drafts(user: User, calendar: Calendar, window: DateWindow, hosts: set[int | None]) -> list[_Draft]:
    rows = (ScheduleSlot.objects.filter(user=user, week__in=_weeks(calendar, window), embedded_item__isnull=False)
            .order_by("event_id", "embedded_item_id", "section")
            .values_list("event_id", "embedded_item_id", "week", "day", "section", "embedded_item__content",
                         "embedded_item__task_class_id", "embedded_item__order"))
    sections: dict[tuple[int, int], list] = {}
    for event_id, item_id, week, day, section, content, class_id, order in rows:
        if event_id in hosts:
            sections.setdefault((event_id, item_id), []).append((week, day, section, content, class_id, order))
    drafts = []
    for (event_id, item_id), held in sections.items():
        week, day, _section, content, class_id, order = held[0]
        where = Position(calendar.date_of(week, day), held[0][2], held[-1][2], host=event_id)
        drafts.append(_Draft(("item", item_id), Entry(0, Kind.STUDY, len(held), content, place=where, origin=where,
                                                      class_id=class_id, order=order, item_id=item_id)))
    return drafts


def _pending_item_drafts(planned: list[TaskClass], seen: set[tuple[str, int]]) -> list[_Draft]:
    if not planned:
        return []
    rows = unplaced_items(planned).order_by("task_class_id", "order").values_list(
        "pk", "content", "sections", "task_class_id", "order")
    return [_Draft(("item", pk), Entry(0, Kind.STUDY, sections, content, class_id=class_id, order=order, item_id=pk))
            for pk, content, sections, class_id, order in rows if ("item", pk) not in seen]


def _pending_note_drafts(user: User, calendar: Calendar, task_ids: list[int], first_ones: bool,
                         seen: set[tuple[str, int]]) -> list[_Draft]:
    waiting = Task.objects.filter(user=user, completed=False, events__isnull=True)
    fields = ("pk", "title", "estimated_sections", "deadline")
    rows = list(waiting.order_by("quadrant", "deadline", "pk").values_list(*fields)[:MAX_PENDING_NOTES]) \
        if first_ones else []
    missing = [pk for pk in task_ids if ("task", pk) not in seen and pk not in {row[0] for row in rows}]
    if missing:
        rows += list(waiting.filter(pk__in=missing).order_by("pk").values_list(*fields))
    return [_Draft(("task", pk), _note(pk, title, estimate, deadline, calendar))
            for pk, title, estimate, deadline in rows if ("task", pk) not in seen]


# --- Board ids ---------------------------------------------------------------------------------------

def _key(entry: Entry) -> tuple[str, int]:
    if entry.item_id is not None:
        return ("item", entry.item_id)
    if entry.task_id is not None:
        return ("task", entry.task_id)
    return ("event", entry.event_id)  # type: ignore[return-value]


def _with_ids(drafts: list[_Draft], previous: Board | None) -> tuple[tuple[Entry, ...], int]:
    known = {_key(e): e.id for e in previous.entries} if previous is not None else {}
    next_id = previous.next_id if previous is not None else 1
    ids: dict[tuple[str, int], int] = {}
    for draft in drafts:
        if draft.key in known:
            ids[draft.key] = known[draft.key]
        else:
            ids[draft.key], next_id = next_id, next_id + 1
    by_event = {d.entry.event_id: ids[d.key] for d in drafts if d.entry.event_id is not None}
    entries = tuple(_identified(d.entry, ids[d.key], by_event) for d in drafts)
    return entries, max([next_id, *(e.id + 1 for e in entries)])


def _identified(entry: Entry, entry_id: int, by_event: dict[int, int]) -> Entry:
    if entry.place is None or entry.place.host is None:
        return replace(entry, id=entry_id)
    where = replace(entry.place, host=by_event[entry.place.host])
    return replace(entry, id=entry_id, place=where, origin=where)
