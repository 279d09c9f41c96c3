"""Priority markers a student types next to the task: 重要, 急, 急急急, !!, URGENT, "important:".

They say how the student ranks the task, not what the task is, so they are cut from the title
("周五前完成实验报告 重要" had become the title "完成实验报告重要") and counted by the
quadrant rule instead: 重要 / important / !! make the task important, 急 / 紧急 / urgent make it
urgent.

A marker is only a marker where it stands apart from the task's words: at the start or the end
of the note set off by a space or punctuation, alone between spaces, or in brackets anywhere. "急诊挂号" and
"important meeting with prof" keep their words; "URGENT call" and "urgent: fix" lose the marker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ZH_IMPORTANT = r"(?:很|非常|超级?|特别)?重要"
_ZH_URGENT = r"(?:很|非常|特别|超级?)?(?:紧急|加急|急+)"
_EN_IMPORTANT = r"(?:very\s+)?important|IMPORTANT|imp(?=\s*:)"
_EN_URGENT = r"(?:very\s+)?urgent|URGENT"
_BANGS = r"!{2,}"  # "!!": emphasis, read as "this matters"
_WORD = rf"{_ZH_IMPORTANT}|{_ZH_URGENT}|{_EN_IMPORTANT}|{_EN_URGENT}|{_BANGS}"
# What sets a marker apart from the task's words.
_SEPARATOR = r"[\s:;,，、!.\-–—]"

# In brackets anywhere: "整理错题本（重要）", "[urgent]".
_BRACKETED = re.compile(rf"[(\[【]\s*(?P<w>{_WORD})\s*[)\]】]", re.IGNORECASE)
# Standing alone in the middle, set off on both sides: "交报告 重要 明天", "call mom URGENT today".
_STANDALONE = re.compile(
    rf"(?:(?<=[\s,，、;；])|^)(?P<w>{_ZH_IMPORTANT}|{_ZH_URGENT}|IMPORTANT|URGENT|{_BANGS})(?=[\s,，、;；!]|$)"
)
# "urgent tidy my desk", "urgent reply to recruiter": before a verb the word is a marker;
# before a noun it describes the task ("urgent care", "important meeting with prof").
_EN_NOT_A_NOUN = (r"(?!(?:care|meeting|meetings|matters?|things?|stuff|email|emails|call|calls|message|messages|news"
                  r"|info|notes?|tasks?|deadlines?|appointments?|documents?|papers?|files?|dates?|issues?|questions?"
                  r"|business|reminder|update|updates|request|requests)\b)[a-z]")
# At the start: "重要：下周三前…", "急 帮室友带饭", "!! finish…", "URGENT call…". A word needs a
# separator after it; English words count only before punctuation or in capitals, because
# "important meeting" and "urgent care" use them as adjectives of the task.
_LEADING = re.compile(
    rf"^\s*(?P<w>{_BANGS}|(?:{_ZH_IMPORTANT}|{_ZH_URGENT}|IMPORTANT|URGENT)(?={_SEPARATOR})"
    rf"|(?i:{_EN_IMPORTANT}|{_EN_URGENT})(?=\s*[:\-–—!,]|\s+{_EN_NOT_A_NOUN})){_SEPARATOR}*"
)
# At the end, after a separator: "… 重要", "… 急", "… URGENT", "…!! important"; "!!" needs none.
_TRAILING = re.compile(rf"(?P<sep>{_SEPARATOR}*)(?P<w>{_WORD})[!.。\s]*$", re.IGNORECASE)


@dataclass(frozen=True)
class PriorityMarks:
    """Where the markers are (to cut from the title) and what they say."""

    spans: tuple[tuple[int, int], ...] = ()
    important: bool = False
    urgent: bool = False


def find_priority_markers(text: str) -> PriorityMarks:
    """The markers at the note's edges (repeatedly: "fix the printer!! important") and in brackets."""
    spans: list[tuple[int, int]] = []
    words: list[str] = []
    start, end = 0, len(text)
    while True:
        edge = _leading_marker(text, start, end) or _trailing_marker(text, start, end)
        if edge is None:
            break
        spans.append((edge.start(), edge.end()))
        words.append(edge["w"])
        start, end = (edge.end(), end) if edge.start() == start else (start, edge.start())
    for pattern in (_BRACKETED, _STANDALONE):
        for inside in pattern.finditer(text, start, end):
            spans.append((inside.start(), inside.end()))
            words.append(inside["w"])
    return PriorityMarks(
        spans=tuple(sorted(spans)),
        important=any(_says_important(word) for word in words),
        urgent=any(not _says_important(word) for word in words),
    )


def _leading_marker(text: str, start: int, end: int) -> re.Match[str] | None:
    match = _LEADING.match(text, start, end)
    return match if match and _leaves_a_task(text[match.end() : end]) else None


def _trailing_marker(text: str, start: int, end: int) -> re.Match[str] | None:
    # "这个很重要" / "报告重要" glued to the task is a sentence, not a marker: a word needs a separator.
    match = _TRAILING.search(text, start, end)
    if match is None or not (match["sep"] or match["w"].startswith("!")):
        return None
    return match if _leaves_a_task(text[start : match.start()]) else None


def _leaves_a_task(rest: str) -> bool:
    """A note that is only "重要!" keeps its words: there is nothing else to call the task."""
    return bool(rest.strip(" :;,，、!.-–—"))


def _says_important(word: str) -> bool:
    return "重要" in word or "important" in word.lower() or word.startswith("!")
