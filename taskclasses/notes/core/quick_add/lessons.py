"""Pure rules for learning from a student's quadrant corrections (the storage is in notes/models.py).

A correction is keyed by the task's keyword: its title, lower-cased, without leading filler verbs
(去, 把, 要, go to, the…), trailing particles (了, 一下) or numbers ("problem set 4" teaches
"problem set"). It applies to a later note whose title contains the keyword; the longest such
keyword wins. What is learned is the *kind* of task (important or not, complex or simple); urgency
still comes from the new note's own deadline, so "缴费 → 2" becomes 1 when the fee is due tomorrow.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MAX_KEYWORD_LENGTH = 40
_LEADING_FILLER = re.compile(r"^(?:(?:去|来|把|要|得|给|帮|再|先)|(?:go\s+to|go|the|a|an|my|to)\b\s*)+", re.IGNORECASE)
_TRAILING_FILLER = re.compile(r"(?:了|一下|吧|掉)+$")
_NUMBERS = re.compile(r"\d+")


def lesson_keyword(title: str) -> str:
    """The key a correction of this task is remembered under; "" when nothing is left."""
    key = " ".join(_NUMBERS.sub(" ", title.casefold()).split())
    key = _TRAILING_FILLER.sub("", _LEADING_FILLER.sub("", key)).strip(" ,.;:!?-")
    return key[:MAX_KEYWORD_LENGTH]


def matching_keyword(title: str, keywords: Iterable[str]) -> str | None:
    """The longest learned keyword that the title contains, if any."""
    folded = " ".join(title.casefold().split())
    found = [keyword for keyword in keywords if keyword and keyword in folded]
    return max(found, key=len) if found else None


def quadrant_from_lesson(learned: int, *, urgent: bool) -> int:
    """The learned kind of task, with the urgency of the new note.

    Urgency splits only the important (QUICK-ADD.md): a learned 3 or 4 is an effort, kept as taught.
    """
    if learned in (1, 2):
        return 1 if urgent else 2
    return learned
