"""Hedged dates: "20号左右", "国庆后", "around the 20th", "after Friday", "thursday-ish".

A day with "about" or "after" around it names a range of days, not a deadline. Picking the day
itself would put a reminder on a date the student never committed to (vague ranges
must never get a date), so the fragment becomes a `vague_time` refusal and the hedge word leaves
the title with it. Relative spans ("3天后", "in 3 days") are not hedged: their 后 is part of them.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .fragments import Fragment
from .result import AmbiguityReason

# After the date: 左右 / 前后 ("about"), 之后 / 以后 / 后 ("after"; 3天后 is its own rule and
# never reaches here); English "-ish", "or so", "give or take".
# 上下 ("about"), 最早 / "at the earliest" (a lower bound is a range), "or later", a question
# mark ("周五?", "friday?": the student is asking, not stating), "maybe" after the day.
_ZH_AFTER = re.compile(r"\s*(?:左右|前后|上下|之后|以后|后(?![天面边来])|或者?更晚|或之后|\?+)")
_EN_AFTER = re.compile(
    r"(?:-?ish\b|\s+or\s+so\b|\s+give\s+or\s+take\b|\s+or\s+thereabouts\b|\s*,?\s*at\s+the\s+earliest\b"
    r"|\s+or\s+(?:later|after|whenever|something)\b|\s*,?\s*(?:maybe|probably|possibly|perhaps|i\s+think|i\s+guess)\b"
    r"|\s*\?+)",
    re.IGNORECASE,
)
_A_REQUEST = re.compile(r"\b(?:can|could|would|will)\s+you\b|\bremind\b|提醒|帮我|能不能|可不可以|可以吗|吗", re.IGNORECASE)
# "3点多", "八点多": some minutes past the hour, a hedge on a clock only (多 after a day is not one).
_ZH_CLOCK_AFTER = re.compile(r"多(?![少久])")
# Before the date, Chinese: a guess (大概周五, 可能明天, 估计下周三, 应该是周四, 最早周五), not a commitment.
# 尽可能 ("as far as possible") is effort, not doubt.
_ZH_BEFORE = re.compile(
    r"(?:大概|大约|大致|约莫|差不多|估计|(?<!尽)可能|也许|或许|说不定|兴许|应该是|最早|没准)(?:是|在|要|会|得)?\s*$"
)
# Before the date: "around", "about", "roughly", "after", "sometime after", 大概/大约 + day.
_EN_BEFORE = re.compile(
    r"\b(?:around|about|approximately|approx\.?|roughly|(?:sometime\s+|some\s+time\s+|any\s*time\s+)?after"
    # a guess ("maybe friday", "probably tmr"), "the week of the 20th", "no earlier than"
    r"|maybe|probably|prob|prolly|possibly|perhaps|likely|(?:the\s+)?week\s+of|no\s+earlier\s+than|at\s+the\s+earliest)"
    r"\s+(?:on\s+|by\s+)?(?:the\s+)?$",
    re.IGNORECASE,
)


# a range already refused keeps its hedge with it, so it leaves the title too
# ("开学前后办户口迁移", "中秋前后寄月饼": 开学前 / 中秋 and then 后 / 前后).
_RANGE_TAIL = re.compile(r"(?:前后|左右|上下|期间|(?<=前)后|(?<=[节秋午明国庆年])(?:之?前|之?后|以前|以后)(?![天面边来]))")


def hedge_fragments(fragments: list[Fragment], text: str) -> list[Fragment]:
    """Turn each dated fragment that carries a hedge into a vague refusal covering the hedge."""
    return [_hedged(fragment, text) or _with_range_tail(fragment, text) for fragment in fragments]


def _with_range_tail(fragment: Fragment, text: str) -> Fragment:
    if fragment.vague is None or fragment.vague_yields_to_date:
        return fragment
    tail = _RANGE_TAIL.match(text, fragment.end)
    return replace(fragment, end=tail.end()) if tail else fragment


def _hedged(fragment: Fragment, text: str) -> Fragment | None:
    if not _is_dated(fragment):
        return None
    after = _ZH_AFTER.match(text, fragment.end) or _EN_AFTER.match(text, fragment.end)
    if after is not None and after.group().strip().startswith("?") and _A_REQUEST.search(text):
        after = None  # "can you remind me to submit it by friday?": a polite request, not doubt
    if after is None and fragment.clock is not None:
        after = _ZH_CLOCK_AFTER.match(text, fragment.end)
    before = _EN_BEFORE.search(text, 0, fragment.start) or _ZH_BEFORE.search(text, 0, fragment.start)
    if before and text.startswith(("'s", "’s"), fragment.end):
        before = None  # "email prof about friday's quiz": the day names the quiz
    if after is None and before is None:
        return None
    return replace(
        Fragment(vague=AmbiguityReason.VAGUE_TIME),
        start=before.start() if before else fragment.start,
        end=after.end() if after else fragment.end,
    )


def _is_dated(fragment: Fragment) -> bool:
    """A day, a clock or a part of the day (明天上午左右); instants ("3小时后", "in 2 hours")
    are relative spans, never hedged."""
    return fragment.is_timing and fragment.instant is None and bool(fragment.day or fragment.clock or fragment.period)
