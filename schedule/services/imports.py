"""Timetable import: all or nothing, with a dry run that shows what would be created."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import time as clock_time
from typing import cast

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from accounts.models import User
from schedule.core.importers import (
    MAX_IMPORT_BYTES,
    Fit,
    FrameProposal,
    ImportedCourse,
    ImportNotice,
    ImportProblem,
    ImportTooComplex,
    Occurrence,
    ParseReport,
    SkippedEvent,
    TimetableFormat,
    WorkBudget,
    find_clashes,
    parse_timetable,
)
from schedule.core.time_model import SectionTemplate, Semester, SlotKey, meeting_bounds
from schedule.exceptions import ImportRejectedError, ImportTooComplexError
from schedule.messages import (
    day_label,
    frame_not_adopted_message,
    frame_refused_message,
    import_notice_message,
    import_problem_message,
    import_rejected_message,
    import_too_complex_message,
    repair_message,
    sections_label,
    skip_message,
    skip_summary,
    skips_not_accepted_message,
)
from schedule.models import ChangeSet, Course, ScheduleEvent, ScheduleSlot
from schedule.selectors import time_frame_get
from schedule.services.academic_calendar import academic_calendar_sync
from schedule.services.calendar import calendar_settings_ensure, calendar_settings_update
from schedule.services.changesets import changeset_record
from schedule.services.timetable_records import empty_record
from schedule.signals import timetable_imported

CourseKey = tuple[str, str]  # (name, teacher): how a re-import recognises a course it already has
BesideKey = tuple[int, int, int, int, str, str]  # (week, day, first, last, name, teacher) of a meeting beside another

# The clock of the import budget: the thread's CPU time, not the process's, so other requests served by
# the same process at the same time do not eat this import's budget, and waiting (database, a busy CPU)
# is not work. Tests replace it.
cpu_clock: Callable[[], float] = time.thread_time

# A refusal lists this many problems and counts the rest: a file of 38,000 bad rows would otherwise
# answer with megabytes of messages, and nobody fixes more than the first few hundred before retrying.
MAX_LISTED_PROBLEMS = 200


@dataclass(frozen=True)
class PlannedCourse:
    """One arrangement of the file and what importing it would do."""

    row: int
    name: str
    teacher: str
    location: str
    day: int
    start_section: int
    end_section: int
    weeks_text: str
    new_meetings: int
    existing_meetings: int
    is_filler: bool
    start_time: str = ""  # the first section's start, "08:00"
    end_time: str = ""  # the last section's end, "09:35"
    notices: tuple[str, ...] = ()  # what the importer adjusted to read this row, in the student's language
    own_times: bool = False  # start_time/end_time are the course's own, off the section grid
    beside: bool = False  # these meetings share their time with another course's and are shown beside it
    note: str = ""

    @property
    def day_label(self) -> str:
        return day_label(self.day)

    @property
    def sections_label(self) -> str:
        return sections_label(self.start_section, self.end_section)


@dataclass(frozen=True)
class ProposedSection:
    """One section of the proposed day beside the student's section of the same number."""

    number: int
    start: str
    end: str
    uses: int  # the file's meetings in it; 0 = one of the student's sections the file does not use
    current: str  # the student's section of this number, "08:00–08:45", or "" when they have fewer


@dataclass(frozen=True)
class FrameChange:
    """What adopting the file's frame would change: the semester, the section times, or both."""

    current_start: str
    current_weeks: int
    start: str | None  # the proposed Monday of week 1, None to keep the student's
    weeks: int | None
    sections: tuple[ProposedSection, ...]  # empty to keep the student's section times
    # The school's second grid (winter or summer hours) and the date it starts; empty / None: one grid.
    later_sections: tuple[ProposedSection, ...] = ()
    later_from: str | None = None


@dataclass(frozen=True)
class SkippedGroup:
    """Skipped events of one kind: a summary line and up to ``SKIP_EXAMPLES`` of them in full."""

    code: str
    summary: str
    examples: tuple[str, ...]
    count: int


@dataclass
class ImportOutcome:
    """What an import wrote, or for a dry run would write: the same counts either way."""

    dry_run: bool
    courses: list[PlannedCourse] = field(default_factory=list)
    created_courses: int = 0
    created_events: int = 0
    skipped_existing: int = 0
    frame: FrameChange | None = None  # the file's own semester / section times, when they differ
    adopted: bool = False  # the write took the file's frame
    skipped: list[SkippedGroup] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)
    changeset_id: int | None = None  # the write, undoable whole
    created_course_ids: list[int] = field(default_factory=list)

    @property
    def notice_count(self) -> int:
        return sum(len(course.notices) for course in self.courses)

    @property
    def skipped_count(self) -> int:
        return sum(group.count for group in self.skipped)


SKIP_EXAMPLES = 5


def detect_format(filename: str, data: bytes) -> str:
    """Guess csv / ics / json from the file name, then from the first bytes."""
    lowered = filename.lower()
    for extension, fmt in ((".ics", "ics"), (".ical", "ics"), (".json", "json"), (".csv", "csv")):
        if lowered.endswith(extension):
            return fmt
    head = data[:200].lstrip(b"\xef\xbb\xbf \r\n\t")
    if head.startswith(b"BEGIN:VCALENDAR"):
        return "ics"
    if head.startswith(b"{"):
        return "json"
    return "csv"


def timetable_import(*, user: User, data: bytes, fmt: str, dry_run: bool = False, fit: Fit = "file",
                     adopt: bool = False, accept_skips: bool = False) -> ImportOutcome:
    """Read a timetable file and write its courses, or raise ImportRejectedError listing its problems.

    ``fit="file"`` reads a calendar under the semester and section times it implies; the outcome's
    ``frame`` says how they differ from the student's, and a write must ``adopt`` them (the settings
    change and the import land in one transaction). ``fit="mine"`` reads it under the student's own,
    every moved time noticed. Events the import leaves out are listed in ``skipped``; a write with
    any must ``accept_skips``. Meetings already on the board (same course, same sections) are
    skipped, so importing an exported file again creates nothing twice. Reading and checking the file
    may take at most ``settings.IMPORT_CPU_SECONDS`` of CPU time, else ImportTooComplexError.
    """
    budget = WorkBudget.start(settings.IMPORT_CPU_SECONDS, cpu_clock)
    try:
        return _import(user=user, data=data, fmt=fmt, dry_run=dry_run, budget=budget, fit=fit, adopt=adopt,
                       accept_skips=accept_skips)
    except ImportTooComplex as exc:
        raise ImportTooComplexError(import_too_complex_message(exc.limit_seconds),
                                    detail={"cpu_seconds_limit": exc.limit_seconds}) from None


def _import(*, user: User, data: bytes, fmt: str, dry_run: bool, budget: WorkBudget, fit: Fit, adopt: bool,
            accept_skips: bool) -> ImportOutcome:
    semester, template = time_frame_get(user=user)
    # An unknown format is one of the problems parse_timetable reports.
    report = parse_timetable(data, cast(TimetableFormat, fmt), semester, template, budget, fit=fit)
    if report.problems:
        reject_problems(report.problems)
    if not dry_run:
        _check_consent(report, adopt=adopt, accept_skips=accept_skips)
    with transaction.atomic():
        calendar_before = None  # the settings a write replaces, kept for its undo
        if report.proposal is not None and not dry_run:
            calendar_before = _calendar_snapshot(user=user)
            semester, template = _adopt_frame(user=user, proposal=report.proposal)
        existing = _existing_meetings(user=user)
        fresh, known = _split_known(report.occurrences(), existing, _beside_meetings(user=user), budget)
        occupied = {key: title for key, (title, _course) in existing.items()}
        clashes = find_clashes(fresh, occupied, budget)
        if clashes:
            reject_problems(clashes)
        outcome = ImportOutcome(dry_run=dry_run, courses=_plan(report.courses, fresh, known, _template_for(report, template)),
                                skipped_existing=len(known), frame=frame_change(report.proposal, semester, template),
                                adopted=report.proposal is not None and not dry_run,
                                skipped=skipped_groups(report.skipped), repairs=repair_messages(report))
        if dry_run:
            # The counts a real import would report, from the same rules the write follows.
            outcome.created_events = len(fresh)
            outcome.created_courses = len(_missing_course_keys(user=user, imported=[o.course for o in fresh]))
            return outcome
        try:
            with transaction.atomic():
                events = _write(user=user, occurrences=fresh, semester=semester, template=template, outcome=outcome)
                # Holidays set the new meetings aside and make-up days copy them (a conflict refuses all).
                academic_calendar_sync(user=user)
                changeset_id = _record_import(user=user, outcome=outcome, events=events,
                                              calendar_before=calendar_before)
                outcome.changeset_id = changeset_id
                timetable_imported_on_commit(user=user, changeset_id=changeset_id)
        except IntegrityError:
            # A slot was taken between the check and the write: name it and refuse the whole file.
            taken = {key: title for key, (title, _course) in _existing_meetings(user=user).items()}
            clashes = find_clashes(fresh, taken)
            if clashes:
                reject_problems(clashes)
            raise
        return outcome


def _check_consent(report: ParseReport, *, adopt: bool, accept_skips: bool) -> None:
    """A write needs the student's yes to the file's frame and to leaving events out (all or nothing)."""
    if report.proposal is not None and not adopt:
        raise ImportRejectedError(frame_not_adopted_message(), code="frame_not_adopted",
                                  detail={"proposal": True})
    if report.skipped and not accept_skips:
        listed = [{"row": s.row, "line": s.line, "code": s.code, "message": skip_message(s)}
                  for s in report.skipped[:MAX_LISTED_PROBLEMS]]
        raise ImportRejectedError(skips_not_accepted_message(len(report.skipped)), code="skips_not_accepted",
                                  detail={"problems": listed, "problem_count": len(report.skipped),
                                          "problems_not_listed": len(report.skipped) - len(listed),
                                          "max_bytes": MAX_IMPORT_BYTES})


def _adopt_frame(*, user: User, proposal: FrameProposal) -> tuple[Semester, SectionTemplate]:
    """Take the file's semester and section times into the student's settings (retiming what is there)."""
    sections = _hhmm_lists(proposal.sections) if proposal.sections else None
    # A file on one grid replaces a second grid the student had; one on two grids brings its own.
    later = (_hhmm_lists(proposal.later_sections or ()), proposal.later_from) if proposal.sections else None
    try:
        calendar_settings_update(user=user, semester_start=proposal.start_monday, semester_weeks=proposal.weeks,
                                 section_times=sections, later_sections=later)
    except ValidationError as exc:
        raise ImportRejectedError(frame_refused_message(" ".join(exc.messages)), code="frame_refused",
                                  detail={"errors": exc.messages}) from None
    return time_frame_get(user=user)


def _hhmm_lists(sections: Iterable[tuple[clock_time, clock_time]]) -> list[list[str]]:
    return [[f"{a:%H:%M}", f"{b:%H:%M}"] for a, b in sections]


def _template_for(report: ParseReport, template: SectionTemplate) -> SectionTemplate:
    """The sections the report's courses are on: the proposal's when it changes them (a dry run)."""
    proposal = report.proposal
    if proposal is None or not proposal.sections:
        return template
    first = SectionTemplate.from_hhmm((f"{a:%H:%M}", f"{b:%H:%M}") for a, b in proposal.sections)
    later = SectionTemplate.from_hhmm((f"{a:%H:%M}", f"{b:%H:%M}") for a, b in proposal.later_sections or ())  \
        if proposal.later_sections else None
    return first.changing_to(later, proposal.later_from)


def frame_change(proposal: FrameProposal | None, semester: Semester, template: SectionTemplate) -> FrameChange | None:
    """The proposal beside the student's settings, as the import page and the API show it."""
    if proposal is None:
        return None
    later = _proposed_sections(proposal.later_sections or (), proposal.later_section_uses,
                               template.in_force(proposal.later_from) if proposal.later_from else template)
    return FrameChange(current_start=semester.start_monday.isoformat(), current_weeks=semester.weeks,
                       start=proposal.start_monday.isoformat() if proposal.start_monday else None,
                       weeks=proposal.weeks,
                       sections=_proposed_sections(proposal.sections or (), proposal.section_uses, template),
                       later_sections=later,
                       later_from=proposal.later_from.isoformat() if proposal.later_from else None)


def _proposed_sections(sections: Iterable[tuple[clock_time, clock_time]], uses: Iterable[int],
                       current: SectionTemplate) -> tuple[ProposedSection, ...]:
    """Proposed sections beside the student's section of the same number."""
    mine = current.to_hhmm()
    return tuple(
        ProposedSection(number=n, start=f"{a:%H:%M}", end=f"{b:%H:%M}", uses=used,
                        current="–".join(mine[n - 1]) if n <= len(mine) else "")
        for n, ((a, b), used) in enumerate(zip(sections, uses), start=1))


def skipped_groups(skipped: Iterable[SkippedEvent]) -> list[SkippedGroup]:
    """One group per kind of skipped event: a counted summary line and the first few in full."""
    by_code: dict[str, list[SkippedEvent]] = defaultdict(list)
    for found in skipped:
        by_code[found.code].append(found)
    return [SkippedGroup(code=code, summary=skip_summary(code, len(found)), count=len(found),
                         examples=tuple(skip_message(s) for s in found[:SKIP_EXAMPLES]))
            for code, found in by_code.items()]


def repair_messages(report: ParseReport) -> list[str]:
    return [repair_message(code, lines, count) for code, lines, count in report.repairs]


def reject_problems(problems: tuple[ImportProblem, ...]) -> None:
    """Refuse the file: list the first MAX_LISTED_PROBLEMS problems and count them all."""
    listed = [
        {"row": p.row, "field": p.field, "code": p.code, "message": import_problem_message(p)}
        for p in problems[:MAX_LISTED_PROBLEMS]
    ]
    raise ImportRejectedError(
        import_rejected_message(len(problems), listed=len(listed)),
        detail={"problems": listed, "problem_count": len(problems), "problems_not_listed": len(problems) - len(listed),
                "max_bytes": MAX_IMPORT_BYTES})


def _existing_meetings(*, user: User) -> dict[SlotKey, tuple[str, CourseKey | None]]:
    """Map every occupied slot to its occupant's title and, for course meetings, its course."""
    rows = ScheduleSlot.objects.filter(user=user).values_list(
        "week", "day", "section", "event__title", "event__course__name", "event__course__teacher")
    return {
        SlotKey(week, day, section): (title, (name, teacher) if name is not None else None)
        for week, day, section, title, name, teacher in rows
    }


def _beside_meetings(*, user: User) -> set[BesideKey]:
    """The course meetings shown beside another (they hold no slots), as a re-import recognises them."""
    rows = ScheduleEvent.objects.filter(user=user, beside=True, course__isnull=False).values_list(
        "week", "day", "start_section", "end_section", "course__name", "course__teacher")
    return set(rows)


def _split_known(
    occurrences: tuple[Occurrence, ...], existing: dict[SlotKey, tuple[str, CourseKey | None]],
    beside: set[BesideKey], budget: WorkBudget,
) -> tuple[list[Occurrence], list[Occurrence]]:
    """Separate meetings already on the board (every section held by the same course, or the same meeting
    shown beside another) from new ones."""
    fresh: list[Occurrence] = []
    known: list[Occurrence] = []
    for occurrence in occurrences:
        budget.spend()
        c = occurrence.course
        if c.beside:
            on_board = (occurrence.week, c.day, c.start_section, c.end_section, c.name, c.teacher) in beside
        else:
            on_board = {existing.get(slot, (None, None))[1] for slot in occurrence.slot_keys()} == {(c.name, c.teacher)}
        (known if on_board else fresh).append(occurrence)
    return fresh, known


def notice_messages(notices: Iterable[ImportNotice]) -> tuple[str, ...]:
    """Word what the importer adjusted in the active language, one line per notice."""
    return tuple(import_notice_message(notice) for notice in notices)


def _plan(courses: tuple[ImportedCourse, ...], fresh: list[Occurrence], known: list[Occurrence],
          template: SectionTemplate) -> list[PlannedCourse]:
    # Counted per row and side: a row's meetings beside another course are listed on a line of their own.
    fresh_by_row: dict[tuple[int, bool], int] = defaultdict(int)
    known_by_row: dict[tuple[int, bool], int] = defaultdict(int)
    for occurrence in fresh:
        fresh_by_row[(occurrence.course.row, occurrence.course.beside)] += 1
    for occurrence in known:
        known_by_row[(occurrence.course.row, occurrence.course.beside)] += 1
    return [
        PlannedCourse(row=c.row, name=c.name, teacher=c.teacher, location=c.location, day=c.day,
                      start_section=c.start_section, end_section=c.end_section, weeks_text=c.weeks_text,
                      new_meetings=fresh_by_row[(c.row, c.beside)], existing_meetings=known_by_row[(c.row, c.beside)],
                      is_filler=c.is_filler, start_time=f"{(c.clock or _section_span(template, c))[0]:%H:%M}",
                      end_time=f"{(c.clock or _section_span(template, c))[1]:%H:%M}",
                      notices=notice_messages(c.notices), own_times=c.clock is not None, note=c.note,
                      beside=c.beside)
        for c in sorted(courses, key=lambda c: c.row)
    ]


def _section_span(template: SectionTemplate, course: ImportedCourse) -> tuple[clock_time, clock_time]:
    return template.section(course.start_section).start, template.section(course.end_section).end


def _calendar_snapshot(*, user: User) -> dict:
    calendar = calendar_settings_ensure(user=user)
    later_from = calendar.later_sections_from
    return {"semester_start": calendar.semester_start.isoformat(), "semester_weeks": calendar.semester_weeks,
            "section_times": calendar.section_times, "later_section_times": calendar.later_section_times,
            "later_sections_from": later_from.isoformat() if later_from else None}


def _record_import(*, user: User, outcome: ImportOutcome, events: list[ScheduleEvent],
                   calendar_before: dict | None) -> int:
    """Record the import as one change the student can undo whole (with the settings it adopted)."""
    record = empty_record()
    record["events_created"] = [event.pk for event in events]
    record["courses_created"] = outcome.created_course_ids
    if calendar_before is not None:
        record["calendar_before"] = calendar_before
    record["summary"] = {"action": "import", "first": True, "added": outcome.created_courses, "changed": 0,
                         "removed": 0, "meetings_added": outcome.created_events, "blocks": 0,
                         "adopted": calendar_before is not None}
    return changeset_record(user=user, kind=ChangeSet.Kind.IMPORT, timetable=record).pk


def _write(*, user: User, occurrences: list[Occurrence], semester, template,
           outcome: ImportOutcome) -> list[ScheduleEvent]:
    courses = _courses_for(user=user, imported=[o.course for o in occurrences], outcome=outcome)
    events = [meeting_row(user=user, occurrence=occurrence, semester=semester, template=template,
                          course=courses[(occurrence.course.name, occurrence.course.teacher)])
              for occurrence in occurrences]
    insert_events(events)
    ScheduleSlot.objects.bulk_create(
        (ScheduleSlot(user=user, event=event, week=event.week, day=event.day, section=section)
         for event in events for section in event.held_sections),
        batch_size=1000,
    )
    outcome.created_events = len(events)
    return events


def meeting_row(*, user: User, occurrence: Occurrence, course: Course, semester: Semester,
                template: SectionTemplate) -> ScheduleEvent:
    """The (unsaved) course meeting an imported occurrence becomes, at its own times if it has them."""
    imported = occurrence.course
    starts_at, ends_at = meeting_bounds(semester, template, occurrence.week, imported.day, imported.start_section,
                                        imported.end_section, imported.clock)
    clock_start, clock_end = imported.clock or (None, None)
    return ScheduleEvent(
        user=user, kind=ScheduleEvent.Kind.COURSE, source=ScheduleEvent.Source.IMPORT, course=course,
        title=imported.name, location=imported.location, week=occurrence.week, day=imported.day,
        start_section=imported.start_section, end_section=imported.end_section, starts_at=starts_at, ends_at=ends_at,
        clock_start=clock_start, clock_end=clock_end, beside=imported.beside)


def _courses_for(*, user: User, imported: list[ImportedCourse], outcome: ImportOutcome) -> dict[CourseKey, Course]:
    """Return the Course of each (name, teacher), creating those the student does not have yet."""
    found = _owned_courses(user=user, imported=imported)
    for key, course in _missing_course_keys(user=user, imported=imported, owned=found).items():
        found[key] = Course.objects.create(user=user, name=course.name, teacher=course.teacher,
                                           location=course.location, note=course.note, is_filler=course.is_filler)
        outcome.created_courses += 1
        outcome.created_course_ids.append(found[key].pk)
    return found


def _owned_courses(*, user: User, imported: list[ImportedCourse]) -> dict[CourseKey, Course]:
    names = {course.name for course in imported}
    return {(c.name, c.teacher): c for c in Course.objects.filter(user=user, name__in=names)}


def _missing_course_keys(*, user: User, imported: list[ImportedCourse],
                         owned: dict[CourseKey, Course] | None = None) -> dict[CourseKey, ImportedCourse]:
    """The courses an import must create (first arrangement of each), shared by the dry run and the write."""
    found = _owned_courses(user=user, imported=imported) if owned is None else owned
    wanted: dict[CourseKey, ImportedCourse] = {}
    for course in imported:
        key = (course.name, course.teacher)
        if key not in found:
            wanted.setdefault(key, course)
    return wanted


def insert_events(events: list[ScheduleEvent]) -> None:
    # MariaDB and SQLite return ids from a bulk insert; MySQL 8 does not, so insert one by one there.
    if connection.features.can_return_rows_from_bulk_insert:
        ScheduleEvent.objects.bulk_create(events, batch_size=500)
    else:
        for event in events:
            event.save(force_insert=True)


def timetable_imported_on_commit(*, user: User, changeset_id: int) -> None:
    """Tell the apps above, once the import is committed, that the student's timetable was replaced or added to."""
    transaction.on_commit(lambda: timetable_imported.send(sender=ChangeSet, user=user, changeset_id=changeset_id),
                          robust=True)
