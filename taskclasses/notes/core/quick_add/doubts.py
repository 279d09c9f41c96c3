"""Where the rules run out: the doubts a parse leaves, which a language model may then help with.

A line is uncertain when the rules found no single reading of its date (they refused), when a
word that looks like time is left in the title (a time word the rules do not know: 520前, 後天,
tomorow), or when neither the importance nor the effort vocabularies matched (so the quadrant is
only the default). Only uncertain lines are worth a model call.
"""

from __future__ import annotations

import re

from .result import Doubt, QuadrantReason

# Time-like words the rules would have cut from the title had they understood them: digits, numbered
# days and clocks (not a course code's: CS101), day words in traditional characters or dialect, and English day words, misspelt
# ones included (tomorow, tmrws, wensday). A false alarm costs one model call, never a date.
_TIME_LIKE = re.compile(
    r"(?<![a-z0-9])\d|[零〇一二两三四五六七八九十]+[点點号號]|[今明后後昨前]天|[今明後后]儿|週|禮拜|星期|下礼拜|[早晚]上|[上下中]午|凌晨"
    # Latin letters only around the English words: 交 and 作 count as \w, so \b misses "tomorow交作业".
    r"|(?<![a-z])(?:to?m+o?r+[a-z]*|tmr[a-z]*|2mor[a-z]*|[a-z]*day|[a-z]*nite|tonight|morning|evening|noon"
    r"|week[a-z]*|month[a-z]*|[ap]m)(?![a-z])",
    re.IGNORECASE,
)


def parse_doubts(*, ambiguous: bool, title: str, quadrant_reason: QuadrantReason) -> tuple[Doubt, ...]:
    """The doubts of one parse, in a fixed order; empty when the rules are sure of every field."""
    doubts = []
    if ambiguous:
        doubts.append(Doubt.NO_SINGLE_READING)
    if _TIME_LIKE.search(title):
        doubts.append(Doubt.UNKNOWN_TIME_WORD)
    if quadrant_reason is QuadrantReason.UNIMPORTANT_DEFAULT:
        doubts.append(Doubt.IMPORTANCE_UNDECIDED)
    return tuple(doubts)
