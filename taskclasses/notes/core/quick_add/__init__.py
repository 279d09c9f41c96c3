"""Quick-add parsing for quick notes (four quadrants): pure Python, no Django.

    parse_quick_note("下周日之前交概率论作业", now=<aware datetime>, tz="Asia/Shanghai")

returns a frozen `QuickNoteParse`: title, deadline (aware, in `tz`) or a reason why there is
none, an "ambiguous" flag instead of a guessed date, a quadrant suggestion with its reason,
estimated sections and the urgency threshold. The rules and the evaluation of `dateparser`
(not used) are in ../QUICK_ADD.md.
"""

from .lessons import lesson_keyword, matching_keyword, quadrant_from_lesson
from .parser import parse_quick_note
from .quadrant import URGENCY_LEAD, urgency_lead, urgency_threshold
from .result import AmbiguityReason, Doubt, NoDeadlineReason, QuadrantReason, QuickNoteParse, Reading

__all__ = [
    "URGENCY_LEAD",
    "AmbiguityReason",
    "Doubt",
    "NoDeadlineReason",
    "QuadrantReason",
    "QuickNoteParse",
    "Reading",
    "lesson_keyword",
    "matching_keyword",
    "parse_quick_note",
    "quadrant_from_lesson",
    "urgency_lead",
    "urgency_threshold",
]
