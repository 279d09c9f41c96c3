"""Hedged dates: "20号左右", "国庆后", "around the 20th", "after Friday", "thursday-ish".

A day with "about" or "after" around it names a range of days, not a deadline. Picking the day
itself would put a reminder on a date the student never committed to (issue #20: vague ranges
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
_ZH_AFTER = re.compile(r"\s*(?:左右|前后|之后|以后|后(?![天面边来]))")
_EN_AFTER = re.compile(r"(?:-?ish\b|\s+or\s+so\b|\s+give\s+or\s+take\b)", re.IGNORECASE)
# Before the date: "around", "about", "roughly", "after", "sometime after", 大概/大约 + day.
_EN_BEFORE = re.compile(
    r"\b(?:around|about|approximately|approx\.?|roughly|(?:sometime\s+|some\s+time\s+|any\s*time\s+)?after)\s+(?:the\s+)?$",
    re.IGNORECASE,
)


def hedge_fragments(fragments: list[Fragment], text: str) -> list[Fragment]:
    """Turn each dated fragment that carries a hedge into a vague refusal covering the hedge."""
    return [_hedged(fragment, text) or fragment for fragment in fragments]


def _hedged(fragment: Fragment, text: str) -> Fragment | None:
    if not _is_dated(fragment):
        return None
    after = _ZH_AFTER.match(text, fragment.end) or _EN_AFTER.match(text, fragment.end)
    before = _EN_BEFORE.search(text, 0, fragment.start)
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
    """A day or a clock; instants ("3小时后", "in 2 hours") are relative spans, never hedged."""
    return fragment.is_timing and fragment.instant is None and bool(fragment.day or fragment.clock)
