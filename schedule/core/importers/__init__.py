"""Timetable import: CSV (WakeUp, clock times, 教务 grid), iCalendar and JSON, read into courses or problems.

``parse_timetable`` never writes anything and never raises for bad input: it returns a
``ParseReport``. When ``report.problems`` is not empty the caller writes nothing; ``report.skipped``
lists events left out (all-day, outside the semester, not weekly, overlapping...), which the student
may accept to import the rest. With ``fit="file"`` a calendar file that does not fit the student's
semester or section times is read under the frame it implies, offered as ``report.proposal``; with
``fit="mine"`` it is read under the student's frame, every moved time noticed. A CSV of clock times
is read like a calendar (its section grid inferred the same way; it has no dates, so no semester);
a grid export's row labels give its section times.
Given a ``WorkBudget``, it raises ``ImportTooComplex`` once reading the file has taken longer.
Clashes with slots already in the database are checked by the caller with ``find_clashes``.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from datetime import date, timedelta
from typing import Any, Literal

from schedule.core.importers.budget import NO_LIMIT, ImportTooComplex, WorkBudget
from schedule.core.importers.clashes import find_clashes, find_row_clashes
from schedule.core.importers.csv_clock import read_clock_rows
from schedule.core.importers.csv_columns import read_records
from schedule.core.importers.csv_grid import GridTable, grid_courses, read_grid, section_uses
from schedule.core.importers.csv_shapes import CsvShape, detect_shape
from schedule.core.importers.csv_wakeup import parse_csv
from schedule.core.importers.decoding import MAX_IMPORT_BYTES, check_size, decode_text
from schedule.core.importers.duplicates import merge_duplicates
from schedule.core.importers.frame import (
    DatedEvent,
    GridGuess,
    GridSwitch,
    Span,
    aligned,
    infer_grid,
    infer_grid_switch,
    infer_semester,
)
from schedule.core.importers.ics import (
    ALIGNMENT_TOLERANCE,
    IcsEvent,
    TimedMeetings,
    expand_events,
    read_ics,
    sample_dates,
)
from schedule.core.importers.json_format import FORMAT_ID, dump_json, parse_json
from schedule.core.importers.notices import ImportNotice
from schedule.core.importers.placing import place_meetings, side_by_side
from schedule.core.importers.report import (
    PROBLEM_MESSAGES,
    SKIP_MESSAGES,
    FrameProposal,
    ImportedCourse,
    ImportProblem,
    ImportRejected,
    Occurrence,
    ParseReport,
    SkippedEvent,
    problem,
)
from schedule.core.time_model import SectionTemplate, Semester, TimeModelError

TimetableFormat = Literal["csv", "ics", "json"]
Fit = Literal["file", "mine"]
Parser = Callable[
    [str, Semester, SectionTemplate, WorkBudget], tuple[list[ImportedCourse], list[ImportProblem]]
]
PARSERS: dict[str, Parser] = {"json": parse_json}
SUPPORTED_FORMATS = ("csv", "ics", "json")

__all__ = [
    "ALIGNMENT_TOLERANCE",
    "FORMAT_ID",
    "SKIP_MESSAGES",
    "Fit",
    "FrameProposal",
    "SkippedEvent",
    "MAX_IMPORT_BYTES",
    "NO_LIMIT",
    "PROBLEM_MESSAGES",
    "SUPPORTED_FORMATS",
    "ImportNotice",
    "ImportProblem",
    "ImportTooComplex",
    "ImportedCourse",
    "Occurrence",
    "ParseReport",
    "TimetableFormat",
    "WorkBudget",
    "dump_json",
    "find_clashes",
    "find_row_clashes",
    "parse_timetable",
]


def parse_timetable(
    data: bytes,
    fmt: TimetableFormat,
    semester: Semester,
    template: SectionTemplate,
    budget: WorkBudget = NO_LIMIT,
    fit: Fit = "mine",
) -> ParseReport:
    """Read a timetable file into courses; every problem found is listed with its row.

    Raises ImportTooComplex when ``budget`` runs out.
    """
    if fmt not in SUPPORTED_FORMATS:
        return ParseReport(problems=(problem("unknown_format", None, format=fmt),))
    try:
        check_size(data)
        text = decode_text(data)
        if fmt == "ics":
            return _finished(_read_calendar(text, semester, template, budget, fit))
        if fmt == "csv":
            return _finished(_read_csv(text, semester, template, budget, fit))
        courses, problems = PARSERS[fmt](text, semester, template, budget)
    except ImportRejected as rejected:
        return ParseReport(problems=tuple(rejected.problems))
    kept = _rows_side_by_side(merge_duplicates(courses, budget), budget)
    return _finished(ParseReport(tuple(kept), tuple(problems)))


def _rows_side_by_side(courses: list[ImportedCourse], budget: WorkBudget) -> list[ImportedCourse]:
    return side_by_side(sorted(courses, key=lambda c: (c.row, c.day, c.start_section)), budget)


def _finished(report: ParseReport) -> ParseReport:
    # Rows repeating a course were merged where each shape was read (a calendar's placing groups them).
    courses = report.courses
    problems = list(report.problems)
    if not courses and not problems:
        problems.append(problem("no_courses", None))
    ordered = sorted(courses, key=lambda c: (c.row, c.day, c.start_section))
    skipped = sorted(report.skipped, key=lambda s: (s.row, s.code))
    return dataclasses.replace(report, courses=tuple(ordered), problems=tuple(sorted(problems, key=_problem_order)),
                               skipped=tuple(skipped))


def _read_csv(text: str, semester: Semester, template: SectionTemplate, budget: WorkBudget,
              fit: Fit) -> ParseReport:
    """Read a CSV of whichever shape it is: WakeUp rows, clock times or a 教务 grid export."""
    shape = detect_shape(read_records(text))
    if shape.kind == "grid":
        return _read_grid_export(shape, semester, template, budget, fit)
    if shape.kind == "clock":
        meetings, problems = read_clock_rows(shape.data, shape.columns, semester, budget)
        placed = _read_meetings(meetings, semester, template, budget, fit)
        return dataclasses.replace(placed, problems=(*placed.problems, *problems))
    courses, problems = parse_csv(shape.data, shape.columns, semester, template, budget)
    kept = _rows_side_by_side(merge_duplicates(courses, budget), budget)
    return ParseReport(tuple(kept), tuple(problems))


def _read_grid_export(shape: CsvShape, semester: Semester, template: SectionTemplate, budget: WorkBudget,
                      fit: Fit) -> ParseReport:
    """Read a grid export on its own section times (fit="file", when they differ) or the student's."""
    assert shape.grid is not None
    table = read_grid(shape.data, shape.grid, budget)
    proposed = _grid_template(table, template) if fit == "file" else None
    used_template = proposed or template
    courses, problems = grid_courses(table, semester, used_template, budget)
    kept = _rows_side_by_side(merge_duplicates(courses, budget), budget)
    proposal = None
    if proposed is not None:
        proposal = FrameProposal(sections=tuple((s.start, s.end) for s in proposed.sections),
                                 section_uses=section_uses(kept, proposed.count))
    return ParseReport(tuple(kept), tuple(problems), (), proposal)


def _grid_template(table: GridTable, current: SectionTemplate) -> SectionTemplate | None:
    """The section template a grid's labels give; None when they give none, or ``current`` itself."""
    if table.sections is None:
        return None
    try:
        found = SectionTemplate.from_hhmm((f"{a:%H:%M}", f"{b:%H:%M}") for a, b in table.sections)
    except TimeModelError:
        return None  # overlapping or unordered times: read on the student's sections instead
    return None if found.to_hhmm() == current.to_hhmm() else found


def _read_calendar(
    text: str, semester: Semester, template: SectionTemplate, budget: WorkBudget, fit: Fit
) -> ParseReport:
    """Read an iCalendar file, under the frame it implies (fit="file") or the student's."""
    reading = read_ics(text, semester.zone, budget)
    guess = infer_semester(_dated(reading.events), semester) if fit == "file" else None
    used_semester = Semester(guess[0], guess[1], semester.tz) if guess else semester
    meetings, skips = expand_events(reading, used_semester, budget)
    placed = _read_meetings(meetings, used_semester, template, budget, fit, guess)
    repairs = tuple((r.code, r.lines, r.count) for r in reading.repairs)
    return dataclasses.replace(placed, skipped=(*reading.skipped, *skips, *placed.skipped), repairs=repairs)


def _read_meetings(
    meetings: list[TimedMeetings],
    semester: Semester,
    template: SectionTemplate,
    budget: WorkBudget,
    fit: Fit,
    semester_guess: tuple[date, int] | None = None,
) -> ParseReport:
    """Place timed meetings (a calendar's events, a clock-time CSV's rows) on a section grid.

    With fit="file" the grid is the one the meetings' clock spans imply, proposed when it differs from
    ``template``; a file whose times change on a date (winter hours) proposes a second grid from that
    date; spans off the grid keep their own times. ``semester_guess`` is the semester a dated file
    implied (already used for the meetings' dates), carried into the proposal.
    """
    dated: defaultdict[Span, list[date]] = defaultdict(list)
    for meeting in meetings:
        dated[(meeting.start, meeting.end)].extend(meeting.dates)
    grid, switch, proposed = _file_grids(dated, template, fit)
    used_template = proposed or template
    own_times = grid.own_time_spans if grid is not None and (proposed is not None or not grid.uses) else frozenset()
    courses, skips = place_meetings(meetings, semester, used_template, ALIGNMENT_TOLERANCE, own_times, budget)
    proposal = FrameProposal(
        start_monday=semester_guess[0] if semester_guess else None,
        weeks=semester_guess[1] if semester_guess else None,
        sections=grid.sections if proposed is not None and grid is not None else None,
        section_uses=grid.uses if grid else (),
        **_later_grid(switch),
    )
    return ParseReport(tuple(courses), (), tuple(skips), proposal if proposal.changes_anything else None)


def _file_grids(dated: Mapping[Span, list[date]], template: SectionTemplate, fit: Fit
                ) -> tuple[GridGuess | None, GridSwitch | None, SectionTemplate | None]:
    """The grid the file implies (its early one when it switches on a date), the switch, and the template."""
    if fit != "file" or _fits_grids_in_force(dated, template):
        return None, None, None
    # Read under the file's own frame, a time even five minutes off the student's grid is the file's.
    grid = infer_grid({span: len(days) for span, days in dated.items()}, template, timedelta(0))
    switch = infer_grid_switch(dated, grid, template, timedelta(0)) if grid is not None else None
    if switch is not None:
        before, after = _template_of(switch.before), _template_of(switch.after)
        if before is not None and after is not None:
            return switch.before, switch, before.changing_to(after, switch.effective)
    return grid, None, _template_of(grid)


def _fits_grids_in_force(dated: Mapping[Span, list[date]], template: SectionTemplate) -> bool:
    """Whether a student with two grids (winter hours) already has the file's: each span on the grid of its dates."""
    if template.change is None:
        return False  # one grid: infer_grid tells, and proposes nothing when the file fits it
    return all(aligned(span, grid, timedelta(0)) is not None
               for span, days in dated.items() for grid in {template.in_force(day) for day in days})


def _later_grid(switch: GridSwitch | None) -> dict[str, Any]:
    if switch is None:
        return {}
    return {"later_sections": switch.after.sections, "later_section_uses": switch.after.uses,
            "later_from": switch.effective}


def _template_of(grid: GridGuess | None) -> SectionTemplate | None:
    if grid is None or not grid.uses:
        return None
    try:
        return SectionTemplate.from_hhmm((f"{a:%H:%M}", f"{b:%H:%M}") for a, b in grid.sections)
    except TimeModelError:
        return None


def _dated(events: Iterable[IcsEvent]) -> list[DatedEvent]:
    return [DatedEvent(sample_dates(e), e.rule is not None and e.rule.endless, e.text, _series(e)) for e in events]


def _series(event: IcsEvent) -> str:
    """The class an event meets for: files with an event per meeting repeat it every week."""
    return f"{event.facts.name}|{event.start:%a %H:%M}-{event.end:%H:%M}"


def _problem_order(found: ImportProblem) -> int:
    # File-level problems (no row) first, then by row; within a row, in the order found.
    return found.row or 0
