"""Read WakeUp-style CSV timetables: 课程名称,星期,开始节数,结束节数,老师,地点,周数.

The header is optional and its columns may come in any order (Chinese or English names); without
a header the WakeUp column order is assumed. Rows are numbered by the line they start on, so the
header is row 1. Blank lines are skipped. An optional 水课/is_filler column marks filler courses.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterator

from schedule.core.importers.budget import NO_LIMIT, WorkBudget
from schedule.core.importers.fields import RawCourse, build_course
from schedule.core.importers.report import ImportedCourse, ImportProblem, ImportRejected, problem
from schedule.core.time_model import SectionTemplate, Semester

WAKEUP_COLUMNS = ("name", "day", "start_section", "end_section", "teacher", "location", "weeks")
REQUIRED_COLUMNS = ("name", "day", "start_section", "end_section", "weeks")
COLUMN_ALIASES: dict[str, frozenset[str]] = {
    "name": frozenset({"课程名称", "课程名", "课程", "name", "course", "course_name"}),
    "day": frozenset({"星期", "周几", "day", "weekday", "day_of_week"}),
    "start_section": frozenset({"开始节数", "开始节次", "起始节", "start_section", "start"}),
    "end_section": frozenset({"结束节数", "结束节次", "结束节", "end_section", "end"}),
    "teacher": frozenset({"老师", "教师", "任课教师", "teacher"}),
    "location": frozenset({"地点", "教室", "上课地点", "location", "room"}),
    "weeks": frozenset({"周数", "周次", "上课周次", "weeks", "week"}),
    "is_filler": frozenset({"水课", "可嵌入", "is_filler", "filler"}),
}
# The header a student writes for each column: WakeUp's own names, the first ones a message suggests.
WAKEUP_HEADERS: dict[str, str] = {
    "name": "课程名称",
    "day": "星期",
    "start_section": "开始节数",
    "end_section": "结束节数",
    "teacher": "老师",
    "location": "地点",
    "weeks": "周数",
    "is_filler": "水课",
}
_COLUMN_OF_ALIAS = {
    alias: column for column, aliases in COLUMN_ALIASES.items() for alias in aliases
}


def parse_csv(
    text: str, semester: Semester, template: SectionTemplate, budget: WorkBudget = NO_LIMIT
) -> tuple[list[ImportedCourse], list[ImportProblem]]:
    """Return the courses of a CSV timetable and the problems of its rows."""
    records = list(_records(text))
    if not records:
        raise ImportRejected(problem("no_courses", None))
    columns, data = _columns(records)
    courses: list[ImportedCourse] = []
    problems: list[ImportProblem] = []
    for row, cells in data:
        budget.spend()
        result = build_course(_raw_course(row, cells, columns), semester, template)
        if isinstance(result, ImportedCourse):
            courses.append(result)
        else:
            problems.extend(result)
    if not data:
        problems.append(problem("no_courses", None))
    return courses, problems


def _records(text: str) -> Iterator[tuple[int, list[str]]]:
    """Yield (first line number, cells) for each non-blank CSV record."""
    reader = csv.reader(io.StringIO(text, newline=""), _dialect(text))
    next_line = 1
    for cells in reader:
        row, next_line = next_line, reader.line_num + 1
        if any(cell.strip() for cell in cells):
            yield row, cells


def _dialect(text: str) -> type[csv.Dialect]:
    # Some spreadsheets export tab-separated text under a .csv name.
    first_line = text.lstrip().split("\n", 1)[0]
    return csv.excel_tab if "\t" in first_line and "," not in first_line else csv.excel


def _normalise_header(cell: str) -> str:
    return unicodedata.normalize("NFKC", cell).strip().lower().replace(" ", "_")


def _columns(
    records: list[tuple[int, list[str]]],
) -> tuple[dict[str, int], list[tuple[int, list[str]]]]:
    """Map column names to positions from the header, or the WakeUp order if there is none."""
    header_row, header = records[0]
    # Walk right to left so that, if a column name repeats, the leftmost one wins.
    named = {
        _COLUMN_OF_ALIAS[_normalise_header(cell)]: position
        for position, cell in reversed(list(enumerate(header)))
        if _normalise_header(cell) in _COLUMN_OF_ALIAS
    }
    if not named:
        return {column: i for i, column in enumerate(WAKEUP_COLUMNS)}, records
    missing = [column for column in REQUIRED_COLUMNS if column not in named]
    if missing:
        raise ImportRejected(
            *(
                problem("missing_column", header_row, column, column=column, header=WAKEUP_HEADERS[column])
                for column in missing
            )
        )
    return named, records[1:]


def _raw_course(row: int, cells: list[str], columns: dict[str, int]) -> RawCourse:
    def cell(column: str, default: str = "") -> str:
        position = columns.get(column)
        if position is None or position >= len(cells):
            return default
        return cells[position]

    return RawCourse(
        row=row,
        name=cell("name"),
        day=cell("day"),
        start_section=cell("start_section"),
        end_section=cell("end_section"),
        weeks=cell("weeks"),
        teacher=cell("teacher"),
        location=cell("location"),
        is_filler=cell("is_filler", "false"),
    )
