"""Timetable import: WakeUp-style CSV, iCalendar and JSON, read into courses or a list of problems.

``parse_timetable`` never writes anything and never raises for bad input: it returns a
``ParseReport``. All-or-nothing: when ``report.problems`` is not empty the caller writes nothing.
Given a ``WorkBudget``, it raises ``ImportTooComplex`` once reading the file has taken longer.
Clashes with slots already in the database are checked by the caller with ``find_clashes``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from schedule.core.importers.budget import NO_LIMIT, ImportTooComplex, WorkBudget
from schedule.core.importers.clashes import find_clashes, find_row_clashes
from schedule.core.importers.csv_wakeup import parse_csv
from schedule.core.importers.decoding import MAX_IMPORT_BYTES, check_size, decode_text
from schedule.core.importers.duplicates import merge_duplicates
from schedule.core.importers.ics import ALIGNMENT_TOLERANCE, parse_ics
from schedule.core.importers.json_format import FORMAT_ID, dump_json, parse_json
from schedule.core.importers.notices import ImportNotice
from schedule.core.importers.report import (
    PROBLEM_MESSAGES,
    ImportedCourse,
    ImportProblem,
    ImportRejected,
    Occurrence,
    ParseReport,
    problem,
)
from schedule.core.time_model import SectionTemplate, Semester

TimetableFormat = Literal["csv", "ics", "json"]
Parser = Callable[
    [str, Semester, SectionTemplate, WorkBudget], tuple[list[ImportedCourse], list[ImportProblem]]
]
PARSERS: dict[str, Parser] = {"csv": parse_csv, "ics": parse_ics, "json": parse_json}
SUPPORTED_FORMATS = tuple(PARSERS)

__all__ = [
    "ALIGNMENT_TOLERANCE",
    "FORMAT_ID",
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
) -> ParseReport:
    """Read a timetable file into courses; every problem found is listed with its row.

    Raises ImportTooComplex when ``budget`` runs out.
    """
    parser = PARSERS.get(fmt)
    if parser is None:
        return ParseReport(problems=(problem("unknown_format", None, format=fmt),))
    try:
        check_size(data)
        courses, problems = parser(decode_text(data), semester, template, budget)
    except ImportRejected as rejected:
        return ParseReport(problems=tuple(rejected.problems))
    courses = merge_duplicates(courses, budget)
    problems.extend(find_row_clashes(courses, budget))
    if not courses and not problems:
        problems.append(problem("no_courses", None))
    ordered = sorted(courses, key=lambda c: (c.row, c.day, c.start_section))
    return ParseReport(tuple(ordered), tuple(sorted(problems, key=_problem_order)))


def _problem_order(found: ImportProblem) -> int:
    # File-level problems (no row) first, then by row; within a row, in the order found.
    return found.row or 0
