"""Re-import as a sync: what a new timetable file would change in the student's courses, and writing it.

Courses are recognised by (name, teacher), meetings by (course, week, day, sections). A meeting in
both stays (its place may change); one only on the board is deleted, one only in the file created.
A course only on the board is removed. What the changes displace is listed for the student before
confirming: study blocks embedded in meetings that disappear, blocks and quick notes in free time a
new meeting would cover; a custom event a new meeting would cover is a conflict (it blocks the sync).
Lifting the displaced blocks is the week board's business (``board.timetable_edits``);
this module plans and writes the timetable rows only, recording them for undo.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import cast

from django.conf import settings

from accounts.models import User
from schedule.core.importers import (
    ImportedCourse,
    ImportProblem,
    ImportTooComplex,
    Occurrence,
    TimetableFormat,
    WorkBudget,
    find_clashes,
    parse_timetable,
)
from schedule.core.time_model import SlotKey
from schedule.core.weekspec import format_weeks
from schedule.exceptions import ImportTooComplexError
from schedule.messages import day_label, import_problem_message, import_too_complex_message
from schedule.models import Course, ScheduleEvent, ScheduleSlot, SuspendedMeeting
from schedule.selectors import time_frame_get
from schedule.services import imports
from schedule.services.academic_calendar import makeup_copies_drop
from schedule.services.timetable_records import (
    course_change_recorded,
    course_delete_recorded,
    event_location_recorded,
    events_delete,
    suspended_delete,
)

CourseKey = tuple[str, str]
MeetingKey = tuple[str, str, int, int, int, int]  # name, teacher, week, day, first and last section

ADDED, CHANGED, REMOVED = "added", "changed", "removed"


@dataclass(frozen=True)
class Arrangement:
    """One weekly arrangement of a course: a day, its sections, the weeks and the place."""

    day: int
    start_section: int
    end_section: int
    weeks_text: str
    location: str

    @property
    def day_label(self) -> str:
        return day_label(self.day)


@dataclass(frozen=True)
class DisplacedBlock:
    """A study block (``item``) or quick note (``note``) a change takes off the board, and where it sat."""

    kind: str
    id: int
    title: str
    week: int
    day: int
    start_section: int
    end_section: int
    event_id: int | None  # its own event (free time); None when embedded
    host_event_id: int | None  # the filler meeting holding it

    @property
    def day_label(self) -> str:
        return day_label(self.day)


@dataclass
class CourseDiff:
    status: str
    name: str
    teacher: str
    course_id: int | None
    before: list[Arrangement] = field(default_factory=list)
    after: list[Arrangement] = field(default_factory=list)
    meetings_added: int = 0
    meetings_removed: int = 0
    displaced: list[DisplacedBlock] = field(default_factory=list)


@dataclass
class SyncPlan:
    """What a sync would do; ``digest`` names it, so a confirm can tell the timetable changed since."""

    courses: list[CourseDiff]
    unchanged: int
    conflicts: list[ImportProblem]  # custom events new meetings would cover: the sync is refused
    delete_meetings: list[int]
    create: list[Occurrence]
    create_courses: list[ImportedCourse]
    remove_courses: list[int]
    course_locations: dict[int, str]
    meeting_locations: dict[int, tuple[str, str]]  # event id -> (before, after)
    displaced: list[DisplacedBlock]
    digest: str = ""
    delete_suspended: list[int] = field(default_factory=list)  # meetings a holiday keeps aside, no longer wanted
    notices: tuple[str, ...] = ()  # what the importer adjusted to read the file, in the student's language

    def count(self, status: str) -> int:
        return sum(1 for course in self.courses if course.status == status)

    @property
    def added(self) -> int:
        return self.count(ADDED)

    @property
    def changed(self) -> int:
        return self.count(CHANGED)

    @property
    def removed(self) -> int:
        return self.count(REMOVED)

    @property
    def conflict_messages(self) -> list[str]:
        return [import_problem_message(p) for p in self.conflicts]

    @property
    def meetings_added(self) -> int:
        return len(self.create)

    @property
    def meetings_removed(self) -> int:
        return len(self.delete_meetings) + len(self.delete_suspended)

    @property
    def has_changes(self) -> bool:
        return bool(self.delete_meetings or self.create or self.remove_courses or self.course_locations
                    or self.meeting_locations or self.create_courses or self.delete_suspended)


def user_has_courses(*, user: User) -> bool:
    """A student with courses re-imports as a sync; the first import only adds."""
    return Course.objects.filter(user=user).exists()


def timetable_sync_plan(*, user: User, data: bytes, fmt: str) -> SyncPlan:
    """Read the file and compare it with the student's courses; a file with problems is refused as today."""
    budget = WorkBudget.start(settings.IMPORT_CPU_SECONDS, imports.cpu_clock)
    semester, template = time_frame_get(user=user)
    try:
        # The file read as it means itself (a course's own times kept); under the student's settings
        # when it implies another semester or section times, as a re-import does not change them.
        report = parse_timetable(data, cast(TimetableFormat, fmt), semester, template, budget, fit="file")
        if report.proposal is not None:
            report = parse_timetable(data, cast(TimetableFormat, fmt), semester, template, budget, fit="mine")
        if report.problems:
            imports.reject_problems(report.problems)
        plan = _plan(user=user, courses=report.courses, occurrences=report.occurrences(), budget=budget)
        plan.notices = imports.notice_messages(report.notices)
        return plan
    except ImportTooComplex as exc:
        raise ImportTooComplexError(import_too_complex_message(exc.limit_seconds),
                                    detail={"cpu_seconds_limit": exc.limit_seconds}) from None


def _plan(*, user: User, courses: tuple[ImportedCourse, ...], occurrences: tuple[Occurrence, ...],
          budget: WorkBudget) -> SyncPlan:
    existing = {(c.name, c.teacher): c for c in Course.objects.filter(user=user)}
    # The timetable as imported: a make-up day's copies are the calendar's (it redoes them after the
    # sync), and a meeting a holiday keeps aside is still the student's meeting.
    meetings = {(e.course.name, e.course.teacher, e.week, e.day, e.start_section, e.end_section): e
                for e in ScheduleEvent.objects.filter(user=user, kind=ScheduleEvent.Kind.COURSE)
                .exclude(source=ScheduleEvent.Source.CALENDAR).select_related("course") if e.course is not None}
    aside = {(m.course.name, m.course.teacher, m.week, m.day, m.start_section, m.end_section): m
             for m in SuspendedMeeting.objects.filter(user=user).select_related("course")}
    wanted: dict[MeetingKey, Occurrence] = {}
    for occurrence in occurrences:
        budget.spend()
        c = occurrence.course
        wanted[(c.name, c.teacher, occurrence.week, c.day, c.start_section, c.end_section)] = occurrence
    file_courses: dict[CourseKey, ImportedCourse] = {}
    file_rooms: dict[CourseKey, set[str]] = defaultdict(set)
    for course in sorted(courses, key=lambda c: c.row):
        file_courses.setdefault((course.name, course.teacher), course)
        file_rooms[(course.name, course.teacher)].add(course.location)
    delete = sorted(meetings[k].pk for k in meetings.keys() - wanted.keys())
    create = sorted((wanted[k] for k in wanted.keys() - meetings.keys() - aside.keys()), key=lambda o: o.sort_key())
    moved_place = {meetings[k].pk: (meetings[k].location, wanted[k].course.location)
                   for k in meetings.keys() & wanted.keys() if meetings[k].location != wanted[k].course.location}
    plan = SyncPlan(
        courses=[], unchanged=0, conflicts=[], delete_meetings=delete, create=create,
        create_courses=[c for k, c in file_courses.items() if k not in existing],
        remove_courses=sorted(c.pk for k, c in existing.items() if k not in file_courses),
        # A course moves to a new room only when the file gives it one room; a course held in two rooms
        # keeps its own and each meeting its room, whatever order the file lists them in.
        course_locations={existing[k].pk: _only(file_rooms[k]) for k in file_courses
                          if k in existing and len(file_rooms[k]) == 1 and existing[k].location != _only(file_rooms[k])},
        meeting_locations=moved_place, displaced=[],
        delete_suspended=sorted(aside[k].pk for k in aside.keys() - wanted.keys()))
    _displacement(user=user, plan=plan)
    _describe(plan=plan, existing=existing, meetings=list(meetings.values()), file_courses=file_courses,
              occurrences=occurrences, aside=list(aside.values()))
    plan.digest = _digest(plan)
    return plan


def _only(rooms: set[str]) -> str:
    (room,) = rooms
    return room


def embedded_blocks(*, event_ids: list[int]) -> list[DisplacedBlock]:
    """The study blocks embedded in these course meetings, one per block, in meeting order."""
    embedded: dict[tuple[int, int], list] = defaultdict(list)
    for slot in ScheduleSlot.objects.filter(event_id__in=event_ids, embedded_item__isnull=False) \
            .values("event_id", "embedded_item_id", "embedded_item__content", "week", "day", "section"):
        embedded[(slot["event_id"], slot["embedded_item_id"])].append(slot)
    blocks = []
    for (host, item_id), slots in embedded.items():
        sections = sorted(s["section"] for s in slots)
        blocks.append(DisplacedBlock(
            kind="item", id=item_id, title=slots[0]["embedded_item__content"], week=slots[0]["week"],
            day=slots[0]["day"], start_section=sections[0], end_section=sections[-1], event_id=None,
            host_event_id=host))
    return sorted(blocks, key=lambda b: (b.week, b.day, b.start_section, b.id))


def _displacement(*, user: User, plan: SyncPlan) -> None:
    """Fill in the blocks the plan displaces and the custom events it would cover (conflicts)."""
    plan.displaced.extend(embedded_blocks(event_ids=plan.delete_meetings))
    needed = {key for occurrence in plan.create for key in occurrence.slot_keys()}
    occupants = {}
    for slot in ScheduleSlot.objects.filter(user=user, week__in={k.week for k in needed}) \
            .exclude(event_id__in=plan.delete_meetings).exclude(event__source=ScheduleEvent.Source.CALENDAR) \
            .select_related("event"):
        key = SlotKey(slot.week, slot.day, slot.section)
        if key in needed:
            occupants[key] = slot.event
    covered = {event.pk: event for event in occupants.values() if _block_id(event) is not None}
    for event in sorted(covered.values(), key=lambda e: (e.week, e.day, e.start_section)):
        is_item = event.kind == ScheduleEvent.Kind.TASK_ITEM
        block_id = _block_id(event)
        assert block_id is not None
        plan.displaced.append(DisplacedBlock(
            kind="item" if is_item else "note", id=block_id, title=event.title, week=event.week, day=event.day,
            start_section=event.start_section, end_section=event.end_section, event_id=event.pk, host_event_id=None))
    blocking = {key: event.title for key, event in occupants.items() if event.pk not in covered}
    plan.conflicts = list(find_clashes(plan.create, blocking))


def _block_id(event: ScheduleEvent) -> int | None:
    """The study item or quick note a block event holds (None: not a block, e.g. a custom event)."""
    if event.kind == ScheduleEvent.Kind.TASK_ITEM:
        return event.task_item_id
    return event.task_id if event.kind == ScheduleEvent.Kind.QUICK_NOTE else None


def _arrangements(rows: list[tuple[int, int, int, str, int]]) -> list[Arrangement]:
    """Group meetings (day, first, last, place, week) into weekly arrangements."""
    weeks: dict[tuple[int, int, int, str], list[int]] = defaultdict(list)
    for day, first, last, location, week in rows:
        weeks[(day, first, last, location)].append(week)
    return [Arrangement(day, first, last, format_weeks(ws), location) for (day, first, last, location), ws
            in sorted(weeks.items())]


def _describe(*, plan: SyncPlan, existing: dict[CourseKey, Course], meetings: list[ScheduleEvent],
              file_courses: dict[CourseKey, ImportedCourse], occurrences: tuple[Occurrence, ...],
              aside: list[SuspendedMeeting]) -> None:
    before: dict[CourseKey, list] = defaultdict(list)
    for e in meetings:
        assert e.course is not None
        before[(e.course.name, e.course.teacher)].append((e.day, e.start_section, e.end_section, e.location, e.week))
    for m in aside:
        before[(m.course.name, m.course.teacher)].append((m.day, m.start_section, m.end_section, m.location, m.week))
    aside_removed: dict[CourseKey, int] = defaultdict(int)
    for m in aside:
        if m.pk in plan.delete_suspended:
            aside_removed[(m.course.name, m.course.teacher)] += 1
    after: dict[CourseKey, list] = defaultdict(list)
    for o in occurrences:
        c = o.course
        after[(c.name, c.teacher)].append((c.day, c.start_section, c.end_section, c.location, o.week))
    deleted = set(plan.delete_meetings)
    by_meeting = {e.pk: (e.course.name, e.course.teacher) for e in meetings if e.course is not None}
    added_by: dict[CourseKey, int] = defaultdict(int)
    for o in plan.create:
        added_by[(o.course.name, o.course.teacher)] += 1
    for key in sorted(existing.keys() | file_courses.keys()):
        status = ADDED if key not in existing else REMOVED if key not in file_courses else CHANGED
        diff = CourseDiff(status=status, name=key[0], teacher=key[1],
                          course_id=existing[key].pk if key in existing else None,
                          before=_arrangements(before[key]), after=_arrangements(after[key]),
                          meetings_added=added_by[key],
                          meetings_removed=sum(1 for pk in deleted if by_meeting.get(pk) == key)
                          + aside_removed[key])
        diff.displaced = [b for b in plan.displaced if _displaced_by(b, key, by_meeting, plan.create)]
        if status == CHANGED and diff.before == diff.after and not diff.displaced:
            plan.unchanged += 1
            continue
        plan.courses.append(diff)


def _displaced_by(block: DisplacedBlock, key: CourseKey, by_meeting: dict[int, CourseKey],
                  create: list[Occurrence]) -> bool:
    if block.host_event_id is not None:
        return by_meeting.get(block.host_event_id) == key
    sections = set(range(block.start_section, block.end_section + 1))
    return any((o.course.name, o.course.teacher) == key and o.week == block.week and o.course.day == block.day
               and sections & set(o.course.sections) for o in create)


def _digest(plan: SyncPlan) -> str:
    body = {"delete": plan.delete_meetings, "aside": plan.delete_suspended, "remove": plan.remove_courses,
            "create": [[o.course.name, o.course.teacher, o.week, o.course.day, o.course.start_section,
                        o.course.end_section, o.course.location] for o in plan.create],
            "courses": sorted([c.name, c.teacher] for c in plan.create_courses),
            "locations": sorted(plan.course_locations.items()), "meetings": sorted(plan.meeting_locations.items()),
            "displaced": [[b.kind, b.id, b.week, b.day, b.start_section, b.event_id, b.host_event_id]
                          for b in plan.displaced], "conflicts": plan.conflict_messages}
    return hashlib.sha256(json.dumps(body, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:16]


def timetable_sync_write(*, user: User, plan: SyncPlan, record: dict) -> None:
    """Write the plan's timetable rows, recording them (the displaced blocks must be lifted already).

    The caller runs ``academic_calendar_sync`` afterwards: make-up copies are dropped here first (they
    are the calendar's, redone from the new timetable), and new meetings on a holiday are set aside then.
    """
    makeup_copies_drop(user=user)
    suspended_delete(user=user, ids=plan.delete_suspended, record=record)
    events_delete(user=user, event_ids=plan.delete_meetings, record=record)
    for course in Course.objects.filter(user=user, pk__in=plan.remove_courses):
        course_delete_recorded(user=user, course=course, record=record)
    for course in Course.objects.filter(user=user, pk__in=list(plan.course_locations)):
        course_change_recorded(course=course, values={"location": plan.course_locations[course.pk]}, record=record)
    for event_id, (was, now) in sorted(plan.meeting_locations.items()):
        event_location_recorded(event_id=event_id, location=now, before=was, record=record)
    courses = {(c.name, c.teacher): c for c in Course.objects.filter(user=user)}
    for imported in plan.create_courses:
        course = Course.objects.create(user=user, name=imported.name, teacher=imported.teacher,
                                       location=imported.location, note=imported.note, is_filler=imported.is_filler)
        courses[(course.name, course.teacher)] = course
        record["courses_created"].append(course.pk)
    semester, template = time_frame_get(user=user)
    events = []
    for occurrence in plan.create:
        c = occurrence.course
        events.append(imports.meeting_row(user=user, occurrence=occurrence, course=courses[(c.name, c.teacher)],
                                          semester=semester, template=template))
    imports.insert_events(events)
    ScheduleSlot.objects.bulk_create(
        (ScheduleSlot(user=user, event=event, week=event.week, day=event.day, section=section)
         for event in events for section in event.held_sections), batch_size=1000)
    record["events_created"].extend(event.pk for event in events)
