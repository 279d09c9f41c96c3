"""A school's make-up-day notice (调休通知) read into the make-up date and the date whose classes it runs.

Pure Python (no Django). Schools announce 调休 in a handful of shapes, and a student pastes one line of it:

* "12-13 补 12-11 的课", "12月13日（周日）上12月11日（周五）的课", "12月13日按12月11日课表上课":
  the first date is the make-up day, the second the day whose classes it runs;
* "12月11日（周五）的课调到12月13日（周日）上": the other way round (调到 / 移到 / 改到 …);
* "12月11日放假，12月13日补课": the day off first, the make-up day second.

Exactly two dates, or nothing is guessed. A date without a year takes the year that puts it nearest to
``near`` (the semester's middle), so a winter semester's January notice lands in the right year. A
weekday written beside a date ("（周日）") must be that date's weekday: a mismatch means the year or a
digit is wrong, and the notice is refused rather than read another way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

_DATE = re.compile(
    r"(?:(?P<year>\d{4})\s*[年./-]\s*)?(?P<month>\d{1,2})\s*[月./-]\s*(?P<day>\d{1,2})\s*[日号]?"
    r"\s*(?:[（(]\s*(?:周|星期|礼拜)(?P<weekday>[一二三四五六日天1-7])\s*[)）])?")
_MOVED_TO = re.compile(r"(?:调|移|挪|改|换)(?:到|至)")
_DAY_OFF = re.compile(r"放假|休息|停课|不上课")
_WEEKDAYS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "日": 7, "天": 7,
             **{str(n): n for n in range(1, 8)}}


class NoticeProblem(StrEnum):
    NOT_TWO_DATES = "notice_not_two_dates"
    BAD_DATE = "notice_bad_date"
    WEEKDAY_MISMATCH = "notice_weekday_mismatch"
    SAME_DAY = "notice_same_day"


@dataclass(frozen=True)
class MakeupNotice:
    """The make-up date and the date whose classes run on it."""

    on: date
    runs: date


class NoticeError(ValueError):
    def __init__(self, code: NoticeProblem, detail: dict[str, object] | None = None) -> None:
        super().__init__(code.value)
        self.code, self.detail = code, detail or {}


@dataclass(frozen=True)
class _Found:
    when: date
    start: int
    end: int


def makeup_notice_parse(text: str, *, near: date) -> MakeupNotice:
    """Read one notice line; raise NoticeError (with a code) when it is not two clear dates."""
    found = [_date_of(match, near) for match in _DATE.finditer(text or "")]
    if len(found) != 2:
        raise NoticeError(NoticeProblem.NOT_TWO_DATES, {"dates": len(found)})
    first, second = found
    between, before = text[first.end:second.start], text[:first.start]
    moved = _MOVED_TO.search(between) is not None
    day_off_first = _DAY_OFF.search(between) is not None and "补" in text[second.start:]
    on, runs = (second.when, first.when) if moved or day_off_first or _MOVED_TO.search(before) else \
        (first.when, second.when)
    if on == runs:
        raise NoticeError(NoticeProblem.SAME_DAY, {"date": on.isoformat()})
    return MakeupNotice(on=on, runs=runs)


def _date_of(match: re.Match[str], near: date) -> _Found:
    month, day = int(match["month"]), int(match["day"])
    years = [int(match["year"])] if match["year"] else [near.year - 1, near.year, near.year + 1]
    candidates = []
    for year in years:
        try:
            candidates.append(date(year, month, day))
        except ValueError:
            continue
    if not candidates:
        raise NoticeError(NoticeProblem.BAD_DATE, {"text": match.group(0).strip()})
    when = min(candidates, key=lambda d: abs((d - near).days))
    if match["weekday"] and _WEEKDAYS[match["weekday"]] != when.isoweekday():
        raise NoticeError(NoticeProblem.WEEKDAY_MISMATCH, {"date": when.isoformat(), "text": match.group(0).strip()})
    return _Found(when, match.start(), match.end())
