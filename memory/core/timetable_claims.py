"""What a remembered sentence says about the student's timetable, and whether a timetable still agrees.

A memory such as "周三有早八" or "周五下午没课" is true of one semester's timetable. When a new
timetable comes in, ``contradicted`` tells whether it says otherwise, so the memory can be closed
instead of misleading the assistant all next term. Only plain claims are read — a weekday (or
several), optionally a part of the day, and having or not having class — everything else is no
claim (None) and is never touched: a memory is closed only when the timetable clearly disagrees.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import time
from enum import StrEnum

_WEEKDAYS_ZH = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "日": 7, "天": 7}
_WEEKDAYS_EN = {"mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6, "sun": 7}
_ZH_DAY = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天])")
_EN_DAY = re.compile(r"\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*\b", re.IGNORECASE)

_NO_CLASS = re.compile(r"没(?:有)?课|无课|不用上课|不上课|没有早八|没早八|\bno (?:class|classes|lectures?)\b",
                       re.IGNORECASE)
_HAS_CLASS = re.compile(r"有(?:[^，,。；;没不]{0,8})?课|早八|要上课|得上课|上课|\bhave (?:a )?(?:class|classes|lectures?)\b"
                        r"|\b8 ?am (?:class|lecture)\b", re.IGNORECASE)


class Part(StrEnum):
    EARLY = "early"  # the first class of the day, 早八
    MORNING = "morning"
    AFTERNOON = "afternoon"
    EVENING = "evening"
    DAY = "day"  # the whole day


_PARTS = (
    (Part.EARLY, re.compile(r"早八|第[一1](?:[、,，二2]|[-–~到至]\s*[二2])?节|\b8 ?am\b", re.IGNORECASE)),
    (Part.MORNING, re.compile(r"上午|早上|早晨|\bmorning", re.IGNORECASE)),
    (Part.AFTERNOON, re.compile(r"下午|\bafternoon", re.IGNORECASE)),
    (Part.EVENING, re.compile(r"晚上|晚课|夜里|\bevening|\bnight", re.IGNORECASE)),
)

EARLY_LATEST = time(8, 30)
NOON = time(12, 0)
EVENING_FROM = time(18, 0)


@dataclass(frozen=True)
class Meeting:
    """One regular course meeting of a timetable: weekday (1 = Monday) and its times."""

    weekday: int
    start: time
    end: time


@dataclass(frozen=True)
class TimetableClaim:
    """"On these weekdays, in this part of the day, the student has (or has no) class."""

    weekdays: frozenset[int]
    part: Part
    has_class: bool

    def contradicted(self, meetings: Iterable[Meeting]) -> bool:
        """Whether a timetable with these meetings says otherwise on any claimed weekday."""
        held = {m.weekday for m in meetings if _in_part(m, self.part)}
        if self.has_class:
            return any(day not in held for day in self.weekdays)
        return any(day in held for day in self.weekdays)


def timetable_claim(text: str) -> TimetableClaim | None:
    """The claim a memory makes about the timetable, or None when it makes none (or an unclear one)."""
    weekdays = frozenset(_weekdays(text))
    if not weekdays:
        return None
    # "没有课" holds "有…课": the "no class" phrases are taken out before looking for "has class".
    says_no, says_has = bool(_NO_CLASS.search(text)), bool(_HAS_CLASS.search(_NO_CLASS.sub("", text)))
    if says_no == says_has:
        return None  # neither, or both in one sentence ("周三没课但周四有课"): not a plain claim
    parts = [part for part, pattern in _PARTS if pattern.search(text)]
    if len(parts) > 1 and Part.EARLY in parts:
        parts = [Part.EARLY]  # "周三早上有早八": the early class is the precise one
    if len(parts) > 1:
        return None
    return TimetableClaim(weekdays=weekdays, part=parts[0] if parts else Part.DAY, has_class=says_has)


def _weekdays(text: str) -> list[int]:
    found = [_WEEKDAYS_ZH[day] for day in _ZH_DAY.findall(text)]
    # "周二周四", and "周二、四" / "周二和四": the bare numerals after a weekday word continue the list.
    for listed in re.findall(r"(?:周|星期|礼拜)[一二三四五六日天]((?:[、,，和及与]?[一二三四五六日天])+)", text):
        found += [_WEEKDAYS_ZH[day] for day in listed if day in _WEEKDAYS_ZH]
    found += [_WEEKDAYS_EN[day.lower()[:3]] for day in _EN_DAY.findall(text)]
    return found


def _in_part(meeting: Meeting, part: Part) -> bool:
    if part is Part.EARLY:
        return meeting.start <= EARLY_LATEST
    if part is Part.MORNING:
        return meeting.start < NOON
    if part is Part.AFTERNOON:
        return NOON <= meeting.start < EVENING_FROM
    if part is Part.EVENING:
        return meeting.start >= EVENING_FROM
    return True
