"""Whether the student allowed a class's blocks to leave their order, read from their own message.

The write tools keep each class's order (``OrderRule.KEEP``) unless the student allowed reordering
(``ToolContext.allow_reorder``). That permission comes from the student, never from the model or
from memory: only the text of the message the student sent this turn is read, by a small fixed set
of phrases, and a "keep the order" phrase wins over an "any order" one (like the original's keyword
override, without its model flag). Pure: no Django.
"""

from __future__ import annotations

# "Keep the order": any of these (not negated) refuses reordering, whatever else the message says.
KEEP = ("不要打乱", "别打乱", "不能打乱", "不许打乱", "不可以打乱", "勿打乱", "保持顺序", "保持原来的顺序",
        "按原来的顺序", "不要改变顺序", "不要调换顺序", "keep the order", "keep their order", "don't reorder",
        "do not reorder")
# "Any order is fine".
ALLOW = ("打乱顺序", "顺序打乱", "不按顺序", "不用按顺序", "不必按顺序", "不需要按顺序", "顺序无所谓", "顺序不重要",
         "顺序可以变", "可以调换顺序", "可以换顺序", "可以不按顺序", "allow reordering", "in any order", "any order is fine",
         "order doesn't matter", "order does not matter")
# Words that turn a "keep" phrase right after them into its opposite ("不用保持顺序").
NEGATIONS = ("不用", "不必", "不需要", "无需", "没必要", "no need to ", "don't need to ")


def reorder_allowed(student_text: str) -> bool:
    """True when the student's message allows reordering and nothing in it asks to keep the order."""
    text = (student_text or "").lower()
    if any(_kept_at(text, phrase) for phrase in KEEP):
        return False
    return any(phrase in text for phrase in ALLOW) or any(_negated_keep(text, phrase) for phrase in KEEP)


def _occurrences(text: str, phrase: str) -> list[int]:
    found, start = [], text.find(phrase)
    while start >= 0:
        found.append(start)
        start = text.find(phrase, start + 1)
    return found


def _negated(text: str, at: int) -> bool:
    return any(text[:at].endswith(word) for word in NEGATIONS)


def _kept_at(text: str, phrase: str) -> bool:
    return any(not _negated(text, at) for at in _occurrences(text, phrase))


def _negated_keep(text: str, phrase: str) -> bool:
    return any(_negated(text, at) for at in _occurrences(text, phrase))
