"""Tell which kind of CSV timetable a file is, before reading any row of it.

SmartMate reads three CSV shapes:

* ``sections``: WakeUp's 课程名称,星期,开始节数,结束节数,老师,地点,周数 (or its 9-column variant
  with 开始周,结束周,单双周), with a header in any order or, without one, in WakeUp's order;
* ``clock``: 课程名,星期几,开始时间,结束时间 (with 地点/教师/周数 if present): clock times, no sections;
* ``grid``: a 教务系统 export whose header row names the weekdays and whose rows are sections.

A header says which shape a file is. Without one, the first few rows are tried in the WakeUp and the
clock order; a file none of whose first rows reads either way is refused in one line
(``unknown_csv_shape``) rather than with a problem per cell of a file that is no timetable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from schedule.core.importers.csv_clock import (
    CLOCK_COLUMNS,
    check_clock_columns,
    is_clock_header,
    reads_as_clock_row,
)
from schedule.core.importers.csv_columns import Record, named_columns
from schedule.core.importers.csv_grid import GridHeader, find_grid_header
from schedule.core.importers.csv_wakeup import check_section_columns, headerless_order, reads_as_wakeup
from schedule.core.importers.report import ImportRejected, problem

ShapeKind = Literal["sections", "clock", "grid"]
ROWS_TRIED = 5  # rows of a file without a header tried to tell its shape
_NOT_A_TIMETABLE_ALONE = frozenset({"date", "note"})  # columns any spreadsheet may have


@dataclass(frozen=True, slots=True)
class CsvShape:
    """A CSV file's shape: which reader, its columns (name -> position) and its data records.

    A grid's columns are its ``grid`` header's; ``data`` is then every record.
    """

    kind: ShapeKind
    columns: Mapping[str, int]
    data: Sequence[Record]
    grid: GridHeader | None = None


def detect_shape(records: Sequence[Record]) -> CsvShape:
    """The shape of a CSV's records; raise ImportRejected for an empty file, a header lacking a
    required column, or a file of no known shape."""
    if not records:
        raise ImportRejected(problem("no_courses", None))
    grid = find_grid_header(records)
    if grid is not None:
        return CsvShape("grid", {}, records, grid)
    header_row, header = records[0]
    named = named_columns(header)
    if not named.keys() - _NOT_A_TIMETABLE_ALONE:
        named = {}  # "日期,摘要,金额": a bank statement is no timetable for having a date column
    if named and is_clock_header(named):
        check_clock_columns(header_row, named)
        return CsvShape("clock", named, records[1:])
    if named:
        check_section_columns(header_row, named)
        return CsvShape("sections", named, records[1:])
    return _headerless(records)


def _headerless(records: Sequence[Record]) -> CsvShape:
    tried = records[:ROWS_TRIED]
    sections = {column: i for i, column in enumerate(headerless_order(records[0][1]))}
    if any(reads_as_wakeup(cells, sections) for _row, cells in tried):
        return CsvShape("sections", sections, records)
    if any(reads_as_clock_row(cells) for _row, cells in tried):
        return CsvShape("clock", {column: i for i, column in enumerate(CLOCK_COLUMNS)}, records)
    raise ImportRejected(problem("unknown_csv_shape", None))
