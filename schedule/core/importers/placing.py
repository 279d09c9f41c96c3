"""Put timed meetings on the section grid: one weekly course per name, place, day and sections.

Each meeting's clock span is read as sections of the grid in force on its date: on the grid (within
the tolerance, noticed when moved), as a course's own times (it holds the sections it overlaps and
keeps its clock times), or, when the student keeps their own sections, moved onto the sections it
overlaps with a notice. Consecutive sections of one class on one day (files with an event per
section) become one block; the same block in several weeks becomes one course with those weeks.
Where two courses of the file would hold the same section, the later one (by row) is shown beside
the earlier in the weeks they share, holding no sections, and says so.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, time, timedelta

from schedule.core.importers.budget import NO_LIMIT, WorkBudget
from schedule.core.importers.frame import MIN_SECTION, Span, aligned
from schedule.core.importers.ics import TimedMeetings
from schedule.core.importers.notices import BesideAnother, ImportNotice, SnappedToSections
from schedule.core.importers.report import ImportedCourse, SkippedEvent, skipped
from schedule.core.time_model import SectionTemplate, Semester, SlotKey

MAX_INNER_BREAK = 20  # minutes: two meetings of a class closer than this are one block

@dataclass(frozen=True, slots=True)
class _Block:
    """One meeting on one day, as sections."""

    row: int
    name: str
    location: str
    teacher: str
    note: str
    week: int
    day: int
    first: int
    last: int
    clock: Span | None
    notices: tuple[ImportNotice, ...]
    span: Span  # the clock times the file gives, whichever sections they were read as


def place_meetings(
    meetings: Iterable[TimedMeetings],
    semester: Semester,
    template: SectionTemplate,
    tolerance: timedelta,
    own_time_spans: frozenset[Span] = frozenset(),
    budget: WorkBudget = NO_LIMIT,
) -> tuple[list[ImportedCourse], list[SkippedEvent]]:
    """Return the weekly courses the meetings make and the meetings that fit no section."""
    blocks: list[_Block] = []
    skips: list[SkippedEvent] = []
    for meeting in meetings:
        budget.spend()
        for grid, dates in _dates_by_grid(meeting.dates, template):
            found = _sections(meeting, grid, tolerance, own_time_spans)
            if found is None:
                skips.append(skipped("outside_sections", meeting.row, meeting.line, meeting.facts.name,
                                     start=f"{meeting.start:%H:%M}", end=f"{meeting.end:%H:%M}"))
                break
            blocks.extend(_blocks(meeting, semester, dates, *found))
    return side_by_side(_courses(_merged_consecutive(blocks)), budget), skips


def _dates_by_grid(dates: tuple[date, ...], template: SectionTemplate
                   ) -> list[tuple[SectionTemplate, tuple[date, ...]]]:
    """The meeting's dates under each grid in force on them (a school switching to winter hours has two)."""
    if template.change is None:
        return [(template, dates)]
    effective = template.change.effective
    split = [(template, tuple(d for d in dates if d < effective)),
             (template.change.template, tuple(d for d in dates if d >= effective))]
    return [(grid, on) for grid, on in split if on]


def _sections(
    meeting: TimedMeetings, template: SectionTemplate, tolerance: timedelta, own_time_spans: frozenset[Span]
) -> tuple[int, int, Span | None, tuple[ImportNotice, ...]] | None:
    """(first, last, own clock or None, notices) of a meeting's span, None if it touches no section."""
    span = (meeting.start, meeting.end)
    on_grid = aligned(span, template, tolerance)
    if on_grid is not None and span not in own_time_spans:
        return (*on_grid, None, _snap_notice(meeting, template, *on_grid))
    overlapped = [s.index for s in template.sections if s.start < meeting.end and meeting.start < s.end]
    if not overlapped:
        return None
    first, last = overlapped[0], overlapped[-1]
    if span in own_time_spans:
        return first, last, span, ()
    return first, last, None, _snap_notice(meeting, template, first, last)


def _snap_notice(meeting: TimedMeetings, template: SectionTemplate, first: int, last: int) -> tuple[ImportNotice, ...]:
    section_start, section_end = template.section(first).start, template.section(last).end
    if (meeting.start, meeting.end) == (section_start, section_end):
        return ()
    return (SnappedToSections(meeting.row, meeting.facts.name, meeting.start, meeting.end, first, last,
                              section_start, section_end),)


def _blocks(meeting: TimedMeetings, semester: Semester, dates: tuple[date, ...], first: int, last: int,
            clock: Span | None, notices: tuple[ImportNotice, ...]) -> list[_Block]:
    facts = meeting.facts
    return [_Block(meeting.row, facts.name, facts.location, facts.teacher, facts.note, *semester.week_day_of(on),
                   first, last, clock, (*notices, *meeting.notices), (meeting.start, meeting.end))
            for on in dates]


def _merged_consecutive(blocks: list[_Block]) -> list[_Block]:
    """Join blocks of one class that follow each other on a day (an event per section) into one."""
    by_day: dict[tuple[str, str, str, int, int], list[_Block]] = defaultdict(list)
    for block in blocks:
        by_day[(block.name, block.location, block.teacher, block.week, block.day)].append(block)
    merged: list[_Block] = []
    for day_blocks in by_day.values():
        day_blocks.sort(key=lambda b: (b.first, b.row))
        current = day_blocks[0]
        for block in day_blocks[1:]:
            if _follows(current, block):
                clock = (current.clock[0], block.clock[1]) if current.clock and block.clock else None
                current = dataclasses.replace(current, last=max(current.last, block.last), clock=clock,
                                              row=min(current.row, block.row), notices=(*current.notices, *block.notices),
                                              span=(current.span[0], max(current.span[1], block.span[1])))
            elif (block.first, block.last, block.clock) != (current.first, current.last, current.clock):
                merged.append(current)
                current = block
        merged.append(current)
    return merged


def _follows(current: _Block, block: _Block) -> bool:
    """Whether ``block`` continues ``current``: the next section, or (own times) after a short break."""
    if current.clock is None and block.clock is None:
        # Two meetings with room for a whole section between them (a morning and an afternoon class
        # on a grid that has sections over lunch) are two meetings, not one long block.
        gap = _minutes(block.span[0]) - _minutes(current.span[1])
        return block.first == current.last + 1 and gap < MIN_SECTION
    if current.clock is None or block.clock is None:
        return False
    gap = _minutes(block.clock[0]) - _minutes(current.clock[1])
    return 0 <= gap <= MAX_INNER_BREAK


def _minutes(moment: time) -> int:
    return moment.hour * 60 + moment.minute


def _courses(blocks: list[_Block]) -> list[ImportedCourse]:
    """One course per name, place, teacher, day, sections and own times, holding every week it meets."""
    grouped: dict[tuple[str, str, str, int, int, int, Span | None], list[_Block]] = defaultdict(list)
    for block in blocks:
        grouped[(block.name, block.teacher, block.location, block.day, block.first, block.last, block.clock)].append(block)
    courses = []
    for (name, teacher, location, day, first, last, clock), group in grouped.items():
        notices = tuple(dict.fromkeys(n for b in sorted(group, key=lambda b: b.row) for n in b.notices))
        note = next((b.note for b in group if b.note), "")
        courses.append(ImportedCourse(min(b.row for b in group), name, day, first, last,
                                      tuple(sorted({b.week for b in group})), teacher, location,
                                      note=note, clock=clock, notices=notices))
    return sorted(courses, key=lambda c: (c.row, c.day, c.start_section))


def side_by_side(courses: list[ImportedCourse], budget: WorkBudget) -> list[ImportedCourse]:
    """Keep each later course's meetings where an earlier one holds its sections beside that one.

    WakeUp shows two courses of one time side by side; so does the board. The weeks a later course
    shares become an arrangement of their own, marked ``beside`` (it holds no sections) with a notice;
    its other weeks hold their sections as usual. Nothing is skipped.
    """
    claimed: dict[SlotKey, ImportedCourse] = {}
    kept: list[ImportedCourse] = []
    for course in courses:
        budget.spend()
        clashes: dict[int, ImportedCourse] = {}
        for key in course.slot_keys():
            if key in claimed:
                clashes.setdefault(key.week, claimed[key])
        if clashes:
            kept.append(_beside(course, clashes))
            course = dataclasses.replace(course, weeks=tuple(w for w in course.weeks if w not in clashes))
        if course.weeks:
            kept.append(course)
            claimed.update({key: course for key in course.slot_keys()})
    return kept


def _beside(course: ImportedCourse, clashes: dict[int, ImportedCourse]) -> ImportedCourse:
    """The weeks of ``course`` another course holds, as meetings shown beside it, with the notice."""
    other = clashes[min(clashes)]
    weeks = tuple(sorted(clashes))
    notice = BesideAnother(course.row, course.name, other.name, course.day, course.start_section,
                           course.end_section, weeks)
    return dataclasses.replace(course, weeks=weeks, beside=True, notices=(*course.notices, notice))
