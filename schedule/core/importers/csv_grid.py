"""Read 教务系统 grid exports: rows are sections, columns are weekdays, cells hold the courses.

The header row (one of the first few) names several weekdays: 星期一…星期日, 周一, Monday. Every
later row is labelled with its section in one column: "1(08:00-08:45)", "第1节", "1-2节", "第一节",
"08:00-08:45", perhaps beside a 时段 column (上午/下午/晚上) that says nothing more. Consecutive rows
of a weekday with the same cell text are one block; ``grid_cells`` reads a cell's courses. When every
row is one section with its clock times, those times are the school's section grid.

Nothing raises for a cell: a cell that cannot be read is a problem naming its row and column. Only a
grid where nothing at all can be read (no section labels, or no cell understood) is refused whole,
in one line, instead of a problem per cell.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import time

from schedule.core.importers.budget import NO_LIMIT, WorkBudget
from schedule.core.importers.csv_columns import Record
from schedule.core.importers.fields import RawCourse, build_course, parse_day
from schedule.core.importers.frame import Span
from schedule.core.importers.grid_cells import read_cell
from schedule.core.importers.report import ImportedCourse, ImportProblem, ImportRejected, problem
from schedule.core.time_model import SectionTemplate, Semester

MIN_WEEKDAYS = 3  # a header naming this many weekdays is a grid's
HEADER_SEARCH = 5  # records looked at for the header: exports may put a title above it
_CN_NUMBERS = {word: n for n, word in enumerate(
    ("一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四", "十五"), start=1)}
_NUMBER = r"(\d{1,2}|[一二三四五六七八九十]{1,3})"
_LABEL_SECTIONS = re.compile(rf"^第?\s*{_NUMBER}\s*(?:[-~至—–]\s*{_NUMBER})?\s*(?=节|$|[(\[\s])")
_LABEL_TIMES = re.compile(r"(\d{1,2}):(\d{2})\s*[-~至—–]?\s*(\d{1,2}):(\d{2})")


@dataclass(frozen=True, slots=True)
class GridHeader:
    """Where a grid's header is (index among the records, its line) and which column is which day."""

    index: int
    line: int
    days: Mapping[int, int]  # column position -> weekday 1..7
    names: Mapping[int, str]  # column position -> the header's text, for problems


@dataclass(frozen=True, slots=True)
class SectionLabel:
    """What a row's label says: its sections (None: not written) and its clock span (None: not written)."""

    first: int | None
    last: int | None
    span: Span | None


@dataclass(frozen=True, slots=True)
class GridRow:
    """One section row: its line, the sections it stands for, its times, and its weekday cells."""

    line: int
    first: int
    last: int
    span: Span | None
    cells: Mapping[int, str]  # weekday -> cell text (stripped)


@dataclass(frozen=True, slots=True)
class GridTable:
    """A grid export's rows, the section times its labels give (None: not every row gives one section's
    times), and the problems of rows that could not be placed."""

    header: GridHeader
    rows: tuple[GridRow, ...]
    sections: tuple[Span, ...] | None
    problems: tuple[ImportProblem, ...]


def find_grid_header(records: Sequence[Record]) -> GridHeader | None:
    """The header of a grid export among the first records, None when the file is no grid."""
    for index, (line, cells) in enumerate(records[:HEADER_SEARCH]):
        days = {position: day for position, cell in enumerate(cells) if (day := _weekday_word(cell)) is not None}
        if len(set(days.values())) >= MIN_WEEKDAYS:
            return GridHeader(index, line, days, {p: cells[p].strip() for p in days})
    return None


def _weekday_word(cell: str) -> int | None:
    # A weekday written as a word: a bare digit is a WakeUp row's day, not a grid's column.
    text = unicodedata.normalize("NFKC", cell).strip()
    return None if not text or text.isdigit() else parse_day(text)


def parse_label(cell: str) -> SectionLabel | None:
    """What a row label says of its sections and times; None when it says neither."""
    text = unicodedata.normalize("NFKC", cell).strip()
    numbers = _LABEL_SECTIONS.match(text)
    times = _LABEL_TIMES.search(text)
    span = _span(times) if times else None
    if numbers is None and span is None:
        return None
    first = _number(numbers[1]) if numbers else None
    last = _number(numbers[2]) if numbers and numbers[2] else first
    return SectionLabel(first, last, span)


def _number(text: str) -> int:
    return int(text) if text.isdigit() else _CN_NUMBERS.get(text, 0)


def _span(match: re.Match[str]) -> Span | None:
    h1, m1, h2, m2 = (int(part) for part in match.groups())
    if max(h1, h2) > 23 or max(m1, m2) > 59 or (h2, m2) <= (h1, m1):
        return None
    return time(h1, m1), time(h2, m2)


def read_grid(records: Sequence[Record], header: GridHeader, budget: WorkBudget = NO_LIMIT) -> GridTable:
    """The section rows below ``header``; raise ImportRejected when no column labels the sections."""
    data = records[header.index + 1:]
    label_column = _label_column(data, header)
    if label_column is None:
        raise ImportRejected(problem("grid_export_unreadable", header.line))
    rows: list[GridRow] = []
    problems: list[ImportProblem] = []
    next_section = 1
    for line, cells in data:
        budget.spend()
        label = parse_label(cells[label_column]) if label_column < len(cells) else None
        texts = {day: text for position, day in header.days.items()
                 if position < len(cells) and (text := cells[position].strip())}
        if label is None:
            # A note under the grid has no label; a course there cannot be placed.
            problems.extend(_unreadable(line, header, day, text) for day, text in texts.items())
            continue
        first = label.first or next_section
        last = max(first, label.last or first)
        next_section = last + 1
        rows.append(GridRow(line, first, last, label.span, texts))
    return GridTable(header, tuple(rows), _section_times(rows), tuple(problems))


def _label_column(data: Sequence[Record], header: GridHeader) -> int | None:
    """The column (not a weekday's) whose cells read as section labels most often."""
    width = max((len(cells) for _line, cells in data), default=0)
    counts = {position: sum(1 for _line, cells in data if position < len(cells) and parse_label(cells[position]))
              for position in range(width) if position not in header.days}
    best = max(counts, key=lambda position: (counts[position], -position), default=None)
    return best if best is not None and counts[best] else None


def _section_times(rows: Sequence[GridRow]) -> tuple[Span, ...] | None:
    """The grid the labels give: every row one section, numbered 1..n in order, with its times."""
    if not rows or any(row.span is None or row.first != row.last for row in rows):
        return None
    if [row.first for row in rows] != list(range(1, len(rows) + 1)):
        return None
    return tuple(row.span for row in rows if row.span is not None)


def _unreadable(line: int, header: GridHeader, day: int, text: str) -> ImportProblem:
    column = next(name for position, name in header.names.items() if header.days[position] == day)
    return problem("grid_cell_unreadable", line, None, column=column, value=text[:80])


# --- Courses ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Block:
    line: int
    day: int
    first: int
    last: int
    text: str


def grid_courses(
    table: GridTable, semester: Semester, template: SectionTemplate, budget: WorkBudget = NO_LIMIT
) -> tuple[list[ImportedCourse], list[ImportProblem]]:
    """The courses of a grid's cells, checked against ``template``, and the problems of its cells.

    Raise ImportRejected (one problem) when cells hold text but not one of them can be read.
    """
    courses: list[ImportedCourse] = []
    problems = list(table.problems)
    read_any = False
    for block in _blocks(table.rows):
        budget.spend()
        entries = read_cell(block.text)
        if entries is None:
            problems.append(_unreadable(block.line, table.header, block.day, block.text))
            continue
        read_any = True
        for entry in entries:
            raw = RawCourse(block.line, entry.name, block.day, block.first, block.last, entry.weeks,
                            entry.teacher, entry.location)
            built = build_course(raw, semester, template)
            if isinstance(built, ImportedCourse):
                courses.append(built)
            else:
                problems.extend(built)
    if problems and not read_any:
        raise ImportRejected(problem("grid_export_unreadable", table.header.line))
    return courses, problems


def _blocks(rows: Sequence[GridRow]) -> list[_Block]:
    """Each weekday's runs of consecutive section rows with the same cell text."""
    blocks: list[_Block] = []
    for day in sorted({day for row in rows for day in row.cells}):
        current: _Block | None = None
        for row in rows:
            text = row.cells.get(day, "")
            if current is not None and text == current.text and row.first == current.last + 1:
                current = _Block(current.line, day, current.first, row.last, text)
                continue
            if current is not None:
                blocks.append(current)
            current = _Block(row.line, day, row.first, row.last, text) if text else None
        if current is not None:
            blocks.append(current)
    return sorted(blocks, key=lambda b: (b.line, b.day))


def section_uses(courses: Sequence[ImportedCourse], count: int) -> tuple[int, ...]:
    """How many meetings of the courses each of ``count`` sections holds."""
    uses = [0] * count
    for course in courses:
        for section in course.sections:
            if 1 <= section <= count:
                uses[section - 1] += len(course.weeks)
    return tuple(uses)
