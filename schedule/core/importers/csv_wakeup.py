"""Read WakeUp-style CSV timetables: 课程名称,星期,开始节数,结束节数,老师,地点,周数.

The header is optional and its columns may come in any order (Chinese or English names); without
a header the WakeUp column order is assumed. WakeUp's 9-column variant gives the weeks as
开始周,结束周,单双周 (0 全 / 1 单 / 2 双, or the words) instead of 周数; it reads the same.
Rows are numbered by the line they start on, so the header is row 1. Blank lines are skipped.
An optional 水课/is_filler column marks filler courses.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

from schedule.core.importers.budget import NO_LIMIT, WorkBudget
from schedule.core.importers.csv_columns import COLUMN_HEADERS, Record, cell_of
from schedule.core.importers.csv_dated import dated, sheet_week_one
from schedule.core.importers.fields import RawCourse, build_course, parse_day, parse_section_number
from schedule.core.importers.report import ImportedCourse, ImportProblem, ImportRejected, problem
from schedule.core.time_model import MAX_WEEKS, SectionTemplate, Semester
from schedule.core.weekspec import WeekSpecError, parse_weeks

WAKEUP_COLUMNS = ("name", "day", "start_section", "end_section", "teacher", "location", "weeks")
WAKEUP_9_COLUMNS = (*WAKEUP_COLUMNS[:6], "first_week", "last_week", "parity")
REQUIRED_COLUMNS = ("name", "day", "start_section", "end_section", "weeks")
_SECTION_RANGE = re.compile(r"第?\s*(?P<first>\d{1,2})\s*(?:[-~～—至到]\s*(?P<last>\d{1,2}))?\s*节?")
_PARITY_SUFFIX = {
    "": "", "0": "", "全": "", "全周": "", "每周": "",
    "1": "单", "单": "单", "单周": "单",
    "2": "双", "双": "双", "双周": "双",
}


def parse_csv(
    records: Sequence[Record],
    columns: Mapping[str, int],
    semester: Semester,
    template: SectionTemplate,
    budget: WorkBudget = NO_LIMIT,
) -> tuple[list[ImportedCourse], list[ImportProblem]]:
    """Return the courses of a WakeUp-style CSV's data records and the problems of its rows."""
    courses: list[ImportedCourse] = []
    problems: list[ImportProblem] = []
    week_one = sheet_week_one(records, columns) or semester.start_monday
    for row, cells in records:
        budget.spend()
        raw = raw_course(row, cells, columns)
        if "date" in columns:
            raw = dated(raw, cell_of(cells, columns, "date"), week_one)
        result = build_course(raw, semester, template)
        if isinstance(result, ImportedCourse):
            courses.append(result)
        else:
            problems.extend(result)
    if not records:
        problems.append(problem("no_courses", None))
    return courses, problems


def check_section_columns(header_row: int, named: Mapping[str, int]) -> None:
    """Raise ImportRejected naming each required column a WakeUp header lacks (周数 or 开始周+结束周;
    开始节数+结束节数 or one 节次 column)."""
    has_weeks = "weeks" in named or {"first_week", "last_week"} <= named.keys()
    has_sections = "sections" in named
    missing = [c for c in REQUIRED_COLUMNS if c not in named and (c != "weeks" or not has_weeks)
               and (c not in ("start_section", "end_section") or not has_sections)]
    if missing:
        raise ImportRejected(
            *(problem("missing_column", header_row, c, column=c, header=COLUMN_HEADERS[c]) for c in missing)
        )


def headerless_order(cells: Sequence[str]) -> tuple[str, ...]:
    """The columns of a record without a header: the 9-column variant when its weeks are two numbers."""
    if len(cells) >= len(WAKEUP_9_COLUMNS) and all(_is_number(cells[i]) for i in (6, 7)):
        return WAKEUP_9_COLUMNS
    return WAKEUP_COLUMNS


def reads_as_wakeup(cells: Sequence[str], columns: Mapping[str, int]) -> bool:
    """Whether a record has the WakeUp shape: a name, a day, two section numbers and weeks.

    Only the shape is checked, not the student's semester or sections: a row outside them is a
    WakeUp row with a problem, not a file of another kind.
    """
    raw = raw_course(0, cells, columns)
    if not str(raw.name).strip() or parse_day(raw.day) is None:
        return False
    if parse_section_number(raw.start_section) is None or parse_section_number(raw.end_section) is None:
        return False
    try:
        parse_weeks(str(raw.weeks), MAX_WEEKS)
    except WeekSpecError:
        return False
    return True


def raw_course(row: int, cells: Sequence[str], columns: Mapping[str, int]) -> RawCourse:
    """One record as a RawCourse; a week range and parity (9-column variant) become a week spec."""
    def cell(column: str, default: str = "") -> str:
        return cell_of(cells, columns, column, default)

    weeks = cell("weeks")
    if "weeks" not in columns and "first_week" in columns:
        weeks = weeks_of_range(cell("first_week"), cell("last_week"), cell("parity"))
    start, end = cell("start_section"), cell("end_section")
    if "start_section" not in columns and "sections" in columns:
        start, end = section_range(cell("sections"))
    return RawCourse(
        row=row,
        name=cell("name"),
        day=cell("day"),
        start_section=start,
        end_section=end,
        weeks=weeks,
        teacher=cell("teacher"),
        location=cell("location"),
        is_filler=cell("is_filler", "false"),
        note=cell("note"),
    )


def section_range(text: str) -> tuple[str, str]:
    """The first and last section of one 节次 cell ("1-3", "第3-4节", "5"); unreadable text is kept as
    the first, so the section problem shows what was written."""
    match = _SECTION_RANGE.fullmatch(unicodedata.normalize("NFKC", text).strip())
    if not match:
        return text, text
    return match["first"], match["last"] or match["first"]


def weeks_of_range(first: str, last: str, parity: str) -> str:
    """The week spec that 开始周, 结束周 and 单双周 mean ("1", "16", "1" -> "1-16单").

    An unknown parity is kept in the spec after its column's name, so the spec cannot be read and
    the week problem shows what was written ("1-16 单双周3").
    """
    first, last, parity = (unicodedata.normalize("NFKC", v).strip() for v in (first, last, parity))
    if not first:
        return ""
    weeks = first if last in ("", first) else f"{first}-{last}"
    suffix = _PARITY_SUFFIX.get(parity)
    return weeks + suffix if suffix is not None else f"{weeks} 单双周{parity}"


def _is_number(text: str) -> bool:
    return unicodedata.normalize("NFKC", text).strip().isdigit()
