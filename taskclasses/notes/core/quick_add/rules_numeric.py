"""Recognisers for numeric dates written the same way in both languages (2026-03-20, 12/5)."""

from __future__ import annotations

import re

from . import calendar_math as cal
from .fragments import Clock, Context, Fragment, Rule
from .result import AmbiguityReason


def _iso(m: re.Match[str], ctx: Context) -> Fragment:
    day = cal.safe_date(int(m["y"]), int(m["m"]), int(m["d"]))
    if day is None:
        return Fragment(vague=AmbiguityReason.INVALID_DATE)
    if m["H"] is None:
        return Fragment(day=day)
    hour, minute = int(m["H"]), int(m["M"])
    if hour > 23 or minute > 59:
        return Fragment(vague=AmbiguityReason.INVALID_DATE)
    return Fragment(day=day, clock=Clock(hour, minute, "24h"))


def _slash(m: re.Match[str], ctx: Context) -> Fragment:
    first, second = int(m["a"]), int(m["b"])
    month_day = _slash_order(first, second, chinese_text=ctx.cjk)
    if month_day is None and not m["y"]:
        month_day = _the_near_reading(first, second, ctx)
    if month_day is None:
        return Fragment(vague=AmbiguityReason.DAY_MONTH_ORDER)
    month, day = month_day
    if m["y"]:
        year = int(m["y"]) + (2000 if len(m["y"]) == 2 else 0)
        exact = cal.safe_date(year, month, day)
    else:
        exact = cal.month_day_near(ctx.today, month, day) if 1 <= month <= 12 else None
    return Fragment(day=exact) if exact else Fragment(vague=AmbiguityReason.INVALID_DATE)


def _the_near_reading(first: int, second: int, ctx: Context) -> tuple[int, int] | None:
    """(month, day) of "a/b" when one reading is in the coming weeks and the other already gone.

    "12/5" said in March stays refused: both readings lie ahead, and either could be meant.
    """
    readings = ((first, second), (second, first))
    for (month, day), (other_month, other_day) in (readings, readings[::-1]):
        exact = cal.month_day_near(ctx.today, month, day)
        other = cal.safe_date(ctx.today.year, other_month, other_day)
        if exact and other and 0 <= (exact - ctx.today).days <= _NEAR_DAYS and other < ctx.today:
            return month, day
    return None


def _slash_order(first: int, second: int, *, chinese_text: bool) -> tuple[int, int] | None:
    """(month, day) of "a/b", or None when either order is possible.

    Chinese writing is always month/day; in English text 12/5 may be Dec 5 or 12 May, so only
    a part above 12 (or two equal parts) decides.
    """
    if chinese_text or first == second or second > 12:
        return first, second
    if first > 12:
        return second, first
    return None


_DATE_CONNECTOR = re.compile(r"\b(?:by|before|b4|due|on|until|till|deadline|ddl)\s*:?\s*$", re.IGNORECASE)
# "deadlines lie ahead". An English 4/3 said on March 31 is April 3 (3 days ahead), not
# 4 March (gone): when exactly one reading is a near future day, it is the one meant.
_NEAR_DAYS = 30


def _dotted(m: re.Match[str], ctx: Context) -> Fragment | None:
    """"3.15 体检": month.day in Chinese notes; in English text 3.15 is a number, unless a
    deadline word stands before it ("scholarship form by 12.18")."""
    if not ctx.cjk and not _DATE_CONNECTOR.search(ctx.text, 0, m.start()):
        return None
    month, day = int(m["m"]), int(m["d"])
    if not 1 <= month <= 12:
        return None
    exact = cal.month_day_near(ctx.today, month, day)
    return Fragment(day=exact) if exact else Fragment(vague=AmbiguityReason.INVALID_DATE)


RULES: tuple[Rule, ...] = (
    Rule("iso_date", re.compile(
        r"(?<!\d)(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?!\d)"
        r"(?:(?:T| )(?P<H>\d{1,2}):(?P<M>\d{2})(?::\d{2})?)?"), _iso),
    Rule("slash_date", re.compile(r"(?<![\d/.:-])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<y>\d{4}|\d{2}))?(?![\d/])"),
         _slash),
    # 3.15, 10.8, 12.20: not a decimal amount (3.5小时, 12.5元, 2.5k, 0.5倍)
    Rule("dotted_date", re.compile(
        r"(?<![\d.:/-])(?P<m>\d{1,2})\.(?P<d>\d{1,2})(?![\d.]|\s*(?:小时|h|个|元|块|k|%|倍|分|米|公里|km|万|亿|折|斤|g|kg))"),
         _dotted),
)
