"""Suggest a quadrant, an effort in sections and the urgency threshold (see QUICK_ADD.md).

Rule, small on purpose:
- important: the title names an important category (categories.py: coursework and classes, exam,
  submission, career and job shifts, admin, money, medical, advisor), a deadline word, or 重要/!!;
- urgent: the urgency threshold has been reached (the deadline is within the lead, 48 h by
  default), the deadline is past, or the note says 尽快/马上/ASAP;
- important: 1 if urgent else 2. Unimportant: the split is effort, not urgency (the original
  product's four queues, QUICK-ADD.md): 4 when the task takes real time or effort (a hobby project,
  a long game, an instrument, 3+ sections), else 3 (a chore, an errand, a meal, an outing, a
  meeting to attend).
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta

from .categories import COMPLEX, DEADLINE_WORD, SIMPLE, TAKES_TIME, URGENCY_WORDS, importance_category
from .fragments import Fragment
from .markers import PriorityMarks
from .result import QuadrantReason

URGENCY_LEAD = timedelta(hours=48)  # a deadline within 48 h makes a task urgent
EXTRA_LEAD_PER_SECTION = timedelta(hours=24)  # big jobs need warning earlier
SECTION_MINUTES = 45
MAX_SECTIONS = 4  # the Task model clamps estimated_sections to 1..4
_QUICK = re.compile(r"顺手|随手|\bquick(?:ly)?\b", re.IGNORECASE)


def estimate_sections(fragments: list[Fragment], text: str) -> int | None:
    """Sections (45 min) the note says the task takes: "2小时" -> 3, "4节课" -> 4, "顺手" -> 1."""
    minutes = [fragment.duration_minutes for fragment in fragments if fragment.duration_minutes]
    if minutes:
        return max(1, min(MAX_SECTIONS, math.ceil(max(minutes) / SECTION_MINUTES)))
    return 1 if _QUICK.search(text) else None


def urgency_lead(sections: int | None) -> timedelta:
    """48 h, plus a day per section beyond a standard two-section block."""
    return URGENCY_LEAD + EXTRA_LEAD_PER_SECTION * max(0, (sections or 2) - 2)


def urgency_threshold(deadline: datetime | None, now: datetime, sections: int | None) -> datetime | None:
    """When the task turns urgent: deadline minus the lead, but never before now.

    A deadline nearer than the lead gets `now` (urgent already); one already past keeps the
    deadline itself, so the threshold never lies after the deadline.
    """
    if deadline is None:
        return None
    # Subtract in UTC (elapsed hours, not wall-clock hours, across a DST change).
    lead_start = (deadline.astimezone(UTC) - urgency_lead(sections)).astimezone(deadline.tzinfo)
    return max(lead_start, min(now, deadline))


NO_MARKS = PriorityMarks()


def is_important(title: str, text: str, marks: PriorityMarks = NO_MARKS) -> bool:
    """An important category in the title, a stated deadline word, or the student's own 重要/!!."""
    return marks.important or importance_category(title) is not None or bool(DEADLINE_WORD.search(text))


def is_urgent(text: str, now: datetime, threshold: datetime | None, marks: PriorityMarks = NO_MARKS) -> bool:
    """The urgency threshold has been reached, or the note says 尽快 / ASAP / 急."""
    return (threshold is not None and threshold <= now) or marks.urgent or bool(URGENCY_WORDS.search(text))


def suggest_quadrant(
    *,
    title: str,
    text: str,
    urgent: bool,
    sections: int | None,
    marks: PriorityMarks = NO_MARKS,
) -> tuple[int, QuadrantReason]:
    """The quadrant (1..4) and the branch of the rule that chose it."""
    if is_important(title, text, marks):
        if urgent:
            return 1, QuadrantReason.IMPORTANT_URGENT
        return 2, QuadrantReason.IMPORTANT_NOT_URGENT
    effort = _effort(title, sections)
    if effort == "complex":
        return 4, QuadrantReason.UNIMPORTANT_COMPLEX
    if effort == "simple":
        return 3, QuadrantReason.UNIMPORTANT_SIMPLE
    # Neither a named chore nor a long job: a meal, an outing, a club meeting to attend is quick.
    return 3, QuadrantReason.UNIMPORTANT_DEFAULT


def _effort(title: str, sections: int | None) -> str | None:
    """'complex', 'simple' or None; a stated duration wins, else the first effort word."""
    if sections is not None and sections >= 3:
        return "complex"
    if sections == 1:
        return "simple"
    if TAKES_TIME.search(title):
        return "complex"
    simple, complex_ = SIMPLE.search(title), COMPLEX.search(title)
    if simple and complex_:
        # The verb comes first: 整理复习笔记 is tidying, 复习整理好的笔记 is studying; a word
        # of both kinds at the start is a verb ("Book a study room"), so the chore wins a tie.
        return "simple" if simple.start() <= complex_.start() else "complex"
    return "simple" if simple else "complex" if complex_ else None
