"""Rows that carry their own date: a school's teaching-progress sheet (教学进度表), one row per meeting.

Such a sheet writes 周次, 日期 and 星期 on every row. The date is the truth: a make-up class on a
Sunday keeps the week number of the class it replaces (周次 5 on the Sunday of week 4), and its 星期
says Sunday. So each row's week and weekday are read from its date, counted from the sheet's own week
1: the Monday most rows' 周次 and 日期 agree on, or the student's week 1 when the sheet has no 周次.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date, timedelta

from schedule.core.importers.csv_columns import Record, cell_of
from schedule.core.importers.fields import RawCourse

_DATE = re.compile(r"(?P<year>\d{4})\s*[-/.年]\s*(?P<month>\d{1,2})\s*[-/.月]\s*(?P<day>\d{1,2})\s*日?")


def read_date(text: str) -> date | None:
    """The date of a cell written 2025/9/1, 2025-09-01, 2025.9.1 or 2025年9月1日; None otherwise."""
    match = _DATE.fullmatch(unicodedata.normalize("NFKC", text).strip())
    if not match:
        return None
    try:
        return date(int(match["year"]), int(match["month"]), int(match["day"]))
    except ValueError:
        return None


def sheet_week_one(records: Sequence[Record], columns: Mapping[str, int]) -> date | None:
    """The Monday of week 1 that most rows' 周次 and 日期 agree on; None without both columns."""
    if "weeks" not in columns or "date" not in columns:
        return None
    votes: Counter[date] = Counter()
    for _row, cells in records:
        day, week = read_date(cell_of(cells, columns, "date")), cell_of(cells, columns, "weeks").strip()
        if day is not None and week.isdigit():
            votes[day - timedelta(days=day.weekday(), weeks=int(week) - 1)] += 1
    return votes.most_common(1)[0][0] if votes else None


def dated(raw: RawCourse, written: str, week_one: date) -> RawCourse:
    """``raw`` with its week and weekday read from the date written on its row (unchanged when none)."""
    day = read_date(written)
    if day is None:
        return raw
    week = (day - week_one).days // 7 + 1
    return replace(raw, weeks=str(week), day=str(day.isoweekday()))
