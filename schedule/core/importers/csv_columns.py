"""CSV timetables as records and named columns: what every CSV shape SmartMate reads shares.

Rows are numbered by the line they start on, so the header is row 1; blank records are dropped.
Header cells name columns in Chinese or English; case, width, spaces and a trailing bracketed note
("单双周(0全1单2双)") do not matter.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Mapping, Sequence

Record = tuple[int, list[str]]

COLUMN_ALIASES: Mapping[str, frozenset[str]] = {
    "name": frozenset({"课程名称", "课程名", "课程", "name", "course", "course_name"}),
    "day": frozenset({"星期", "星期几", "周几", "day", "weekday", "day_of_week"}),
    "start_section": frozenset({"开始节数", "开始节次", "开始节", "起始节", "起始节次", "start_section", "start"}),
    "end_section": frozenset({"结束节数", "结束节次", "结束节", "终止节", "end_section", "end"}),
    # One column of both ("1-3", "第1-2节"): a school's dated teaching-progress sheet (教学进度表).
    "sections": frozenset({"节次", "上课节次", "节数", "sections", "periods"}),
    "teacher": frozenset({"老师", "教师", "任课教师", "任课老师", "授课教师", "授课老师", "主讲教师", "上课教师",
                          "上课老师", "教师姓名", "teacher", "instructor"}),
    "location": frozenset({"地点", "教室", "上课地点", "授课地点", "上课教室", "location", "room"}),
    "weeks": frozenset({"周数", "周次", "上课周次", "weeks", "week"}),
    "date": frozenset({"日期", "上课日期", "date"}),
    "is_filler": frozenset({"水课", "可嵌入", "is_filler", "filler"}),
    "note": frozenset({"备注", "说明", "课程备注", "note", "notes", "remark", "remarks"}),
    # WakeUp's 9-column variant (python-ical-timetable): a week range and a parity instead of 周数.
    "first_week": frozenset({"开始周", "起始周", "start_week", "first_week"}),
    "last_week": frozenset({"结束周", "end_week", "last_week"}),
    "parity": frozenset({"单双周", "单双", "parity", "odd_even"}),
    # Hand-made timetables of clock times instead of sections.
    "start_time": frozenset({"开始时间", "上课时间", "start_time", "starts_at"}),
    "end_time": frozenset({"结束时间", "下课时间", "end_time", "ends_at"}),
}
# The header a student writes for each column: the first one a message suggests.
COLUMN_HEADERS: Mapping[str, str] = {
    "name": "课程名称",
    "day": "星期",
    "start_section": "开始节数",
    "end_section": "结束节数",
    "sections": "节次",
    "teacher": "老师",
    "location": "地点",
    "weeks": "周数",
    "date": "日期",
    "is_filler": "水课",
    "note": "备注",
    "first_week": "开始周",
    "last_week": "结束周",
    "parity": "单双周",
    "start_time": "开始时间",
    "end_time": "结束时间",
}
_COLUMN_OF_ALIAS = {alias: column for column, aliases in COLUMN_ALIASES.items() for alias in aliases}
_TRAILING_NOTE = re.compile(r"\s*\([^()]*\)$")


def read_records(text: str) -> list[Record]:
    """Return (first line number, cells) for each CSV record with any text."""
    reader = csv.reader(io.StringIO(text, newline=""), _dialect(text))
    records: list[Record] = []
    next_line = 1
    for cells in reader:
        row, next_line = next_line, reader.line_num + 1
        if any(cell.strip() for cell in cells):
            records.append((row, cells))
    return records


def _dialect(text: str) -> type[csv.Dialect]:
    # Some spreadsheets export tab-separated text under a .csv name.
    first_line = text.lstrip().split("\n", 1)[0]
    return csv.excel_tab if "\t" in first_line and "," not in first_line else csv.excel


def normalise_header(cell: str) -> str:
    """The form header cells are compared in: NFKC, lower case, no note in brackets, _ for spaces."""
    text = unicodedata.normalize("NFKC", cell).strip().lower()
    return _TRAILING_NOTE.sub("", text).strip().replace(" ", "_")


def named_columns(header: Sequence[str]) -> dict[str, int]:
    """Map the column names a header row holds to their positions; empty when it names none."""
    # Walk right to left so that, if a column name repeats, the leftmost one wins.
    return {
        _COLUMN_OF_ALIAS[normalise_header(cell)]: position
        for position, cell in reversed(list(enumerate(header)))
        if normalise_header(cell) in _COLUMN_OF_ALIAS
    }


def cell_of(cells: Sequence[str], columns: Mapping[str, int], column: str, default: str = "") -> str:
    """The text of a named column in one record; ``default`` when the column or the cell is missing."""
    position = columns.get(column)
    if position is None or position >= len(cells):
        return default
    return cells[position]
