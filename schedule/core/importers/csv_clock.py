"""Read CSV timetables of clock times: 课程名,星期几,开始时间,结束时间 (and, if present, 地点, 教师, 周数).

Such a file (usually made by hand) names no sections and often no weeks: each row is one class on
one weekday at one clock span, in every week of the semester unless a 周数 column (or its cell)
says which. Rows become ``TimedMeetings`` on the dates of those weeks, so the section grid is
inferred and the courses placed exactly as for a calendar file. Without a header the columns are
taken in ``CLOCK_COLUMNS`` order.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import time

from schedule.core.importers.budget import NO_LIMIT, WorkBudget
from schedule.core.importers.csv_columns import COLUMN_HEADERS, Record, cell_of
from schedule.core.importers.fields import (
    MAX_NAME_LENGTH,
    MAX_TEXT_LENGTH,
    course_name,
    day_field,
    parse_day,
    text_field,
    weeks_field,
)
from schedule.core.importers.ics import TimedMeetings
from schedule.core.importers.metadata import CourseFacts
from schedule.core.importers.notices import WeeksClipped
from schedule.core.importers.people import teacher_names
from schedule.core.importers.report import ImportProblem, ImportRejected, problem
from schedule.core.time_model import Semester

CLOCK_COLUMNS = ("name", "day", "start_time", "end_time", "location", "teacher", "weeks")
CLOCK_REQUIRED = ("name", "day", "start_time", "end_time")
_CLOCK = re.compile(r"^(\d{1,2})[:.](\d{2})(?::\d{2})?$")


def parse_clock(value: str) -> time | None:
    """The time of '9:00', '09:00', '9：00', '9.00' or '09:00:00'; None if it is no time of day."""
    match = _CLOCK.match(unicodedata.normalize("NFKC", value).strip())
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        return None
    return time(int(match[1]), int(match[2]))


def is_clock_header(named: Mapping[str, int]) -> bool:
    """Whether a header names clock times and no sections: the shape this module reads."""
    return {"start_time", "end_time"} <= named.keys() and not {"start_section", "end_section"} & named.keys()


def check_clock_columns(header_row: int, named: Mapping[str, int]) -> None:
    """Raise ImportRejected naming each required column a clock-time header lacks."""
    missing = [column for column in CLOCK_REQUIRED if column not in named]
    if missing:
        raise ImportRejected(*(problem("missing_column", header_row, c, column=c, header=COLUMN_HEADERS[c])
                               for c in missing))


def reads_as_clock_row(cells: Sequence[str]) -> bool:
    """Whether a record without a header has the clock shape: a name, a day and two clock times."""
    columns = {column: i for i, column in enumerate(CLOCK_COLUMNS)}
    return (bool(cell_of(cells, columns, "name").strip()) and parse_day(cell_of(cells, columns, "day")) is not None
            and parse_clock(cell_of(cells, columns, "start_time")) is not None
            and parse_clock(cell_of(cells, columns, "end_time")) is not None)


def read_clock_rows(
    records: Sequence[Record], columns: Mapping[str, int], semester: Semester, budget: WorkBudget = NO_LIMIT
) -> tuple[list[TimedMeetings], list[ImportProblem]]:
    """Return each row's meetings in the semester's weeks and the problems of the rows."""
    meetings: list[TimedMeetings] = []
    problems: list[ImportProblem] = []
    for row, cells in records:
        budget.spend()
        found = _meetings(row, cells, columns, semester)
        if isinstance(found, TimedMeetings):
            meetings.append(found)
        else:
            problems.extend(found)
    return meetings, problems


def _meetings(row: int, cells: Sequence[str], columns: Mapping[str, int],
              semester: Semester) -> TimedMeetings | list[ImportProblem]:
    def cell(column: str) -> str:
        return cell_of(cells, columns, column)

    problems: list[ImportProblem] = []
    name = course_name(text_field(row, "name", cell("name"), MAX_NAME_LENGTH, problems, required=True))
    teacher = teacher_names(text_field(row, "teacher", cell("teacher"), MAX_TEXT_LENGTH, problems))
    location = text_field(row, "location", cell("location"), MAX_TEXT_LENGTH, problems)
    day = day_field(row, cell("day"), problems)
    start = _clock_field(row, "start_time", cell("start_time"), problems)
    end = _clock_field(row, "end_time", cell("end_time"), problems)
    if start is not None and end is not None and end <= start:
        problems.append(problem("reversed_times", row, "end_time", start=f"{start:%H:%M}", end=f"{end:%H:%M}"))
    # A file of clock times usually names no weeks: the class meets every week of the semester.
    weeks, dropped = weeks_field(row, cell("weeks").strip() or f"1-{semester.weeks}", semester, problems)
    if problems or day is None or start is None or end is None:
        return problems
    notices = (WeeksClipped(row, name, dropped, semester.weeks),) if dropped else ()
    dates = tuple(semester.date_of(week, day) for week in weeks)
    return TimedMeetings(row, row, CourseFacts(name, location, teacher), start, end, dates, notices)


def _clock_field(row: int, name: str, value: str, problems: list[ImportProblem]) -> time | None:
    if not value.strip():
        problems.append(problem("missing_value", row, name))
        return None
    found = parse_clock(value)
    if found is None:
        problems.append(problem("invalid_time", row, name, value=value.strip()))
    return found
