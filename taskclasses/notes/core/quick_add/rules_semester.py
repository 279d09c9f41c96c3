"""Semester weeks: 第七周周三, 第7周的周三, "wk 19 thu", "week 12 tue" (QUICK-ADD.md "Semester weeks").

Week N, day X counts from the student's own semester (the Monday of week 1, passed by the caller in
`Context.semester_start`). Without a semester, or without a weekday, the phrase names no single day:
the note is ambiguous rather than dated by a guess, and the week number leaves the title either way.
"""

from __future__ import annotations

import re
from datetime import timedelta

from . import calendar_math as cal
from .fragments import Context, Fragment, Rule
from .result import AmbiguityReason
from .rules_en import WEEKDAY_NAMES, WEEKDAY_PATTERN
from .text import NUM, parse_number

_ZH_WEEKDAYS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "日": 7, "天": 7,
                "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7}
# A teaching week runs at most this long; 第99周 is not a semester week.
MAX_SEMESTER_WEEK = 30


def _semester_day(m: re.Match[str], ctx: Context) -> Fragment | None:
    week = parse_number(m["n"])
    if week is None or not 1 <= week <= MAX_SEMESTER_WEEK:
        return None
    day_name = (m["d"] or "").lower()
    weekday = _ZH_WEEKDAYS.get(day_name) or WEEKDAY_NAMES.get(day_name)
    if weekday is None:
        # 第十六周 期末考: which day? With a day elsewhere ("week 12 problem set due thursday") the
        # week names the task instead, and stays in its title.
        return Fragment(vague=AmbiguityReason.WEEK_WITHOUT_DAY, vague_yields_to_date=True, names_event=True)
    if ctx.semester_start is None:
        return Fragment(vague=AmbiguityReason.SEMESTER_WEEK)
    week_one = cal.monday_of(ctx.semester_start)
    return Fragment(day=week_one + timedelta(weeks=week - 1, days=weekday - 1))


RULES: tuple[Rule, ...] = (
    Rule("zh_semester_week",
         re.compile(rf"第(?P<n>{NUM})个?(?:教学)?周(?!末)(?: ?的? ?(?:周|星期|礼拜)(?P<d>[一二三四五六日天1-7]))?"),
         _semester_day),
    Rule("en_semester_week",
         re.compile(rf"(?<![A-Za-z0-9_])(?:wk|week)\s*(?P<n>\d{{1,2}})(?:\s+(?P<d>{WEEKDAY_PATTERN})\.?)?"
                    r"(?![A-Za-z0-9_])", re.IGNORECASE),
         _semester_day),
)
