"""The parse result of a quick note and the reason codes it carries."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class AmbiguityReason(StrEnum):
    """Why the parser refused to pick a deadline."""

    VAGUE_TIME = "vague_time"  # 改天, 过几天, soon, later, ASAP
    CONFLICTING_DATES = "conflicting_dates"  # 明天或者后天, tomorrow or Friday
    CONFLICTING_TIMES = "conflicting_times"  # 上午或者晚上
    WEEK_WITHOUT_DAY = "week_without_day"  # 下周 (which day?), next week
    MONTH_WITHOUT_DAY = "month_without_day"  # 下个月, next month
    DAY_MONTH_ORDER = "day_month_order"  # 12/5 in English text
    RECURRING = "recurring"  # 每周五, every Sunday: not a one-off deadline
    INVALID_DATE = "invalid_date"  # 2月30日, 2026-13-45
    MOVABLE_HOLIDAY = "movable_holiday"  # 春节, 中秋: lunar dates this parser does not compute
    WEEKDAY_IS_TODAY = "weekday_is_today"  # 周五交 said on a Friday with no time: today, or next week's?
    WEEKDAY_PASSED = "weekday_passed"  # "this wed" said on a Friday: the past day, or next week's?
    WEEKEND = "weekend"  # 周末 alone: Saturday or Sunday, this weekend or the next?
    SEMESTER_WEEK = "semester_week"  # 第七周周三 without the student's semester to count from


class NoDeadlineReason(StrEnum):
    """Why `deadline` is None; set exactly when it is."""

    FREE_TIME = "free_time"  # 有空的时候, someday: the student said there is none
    NOT_GIVEN = "not_given"  # no time phrase at all
    AMBIGUOUS = "ambiguous"  # a time phrase we refuse to guess (see ambiguity_reason)


class QuadrantReason(StrEnum):
    """Which branch of the quadrant rule decided the suggestion."""

    IMPORTANT_URGENT = "important_urgent"
    IMPORTANT_NOT_URGENT = "important_not_urgent"
    UNIMPORTANT_SIMPLE = "unimportant_simple"
    UNIMPORTANT_COMPLEX = "unimportant_complex"
    # Neither a named chore nor a long job (a meal, an outing, a meeting to attend): quick, so 3.
    UNIMPORTANT_DEFAULT = "unimportant_default"
    LEARNED = "learned"  # the student corrected a task with this keyword before (notes/models.py)
    MODEL = "model"  # the rules could not decide; a language model's refinement did (refinement.py)


class Doubt(StrEnum):
    """One reason the rules' answer for a line is not sure (doubts.py); a model may refine such a line."""

    NO_SINGLE_READING = "no_single_reading"  # ambiguous: no deadline, maybe choices
    UNKNOWN_TIME_WORD = "unknown_time_word"  # something time-like left in the title
    IMPORTANCE_UNDECIDED = "importance_undecided"  # no vocabulary decided the quadrant


@dataclass(frozen=True)
class Reading:
    """One plausible deadline of an ambiguous note, offered to the student as a choice."""

    deadline: datetime  # aware, in the user's zone
    has_time: bool  # False: the 23:59 end-of-day default
    is_past: bool
    weeks_ahead: int = 0  # calendar weeks (Monday..Sunday) from today's: 0 this week, 1 next week
    remembered: bool = False  # the student picked this reading for the same phrasing before


# How sure the rules are of the deadline field (see QUICK-ADD.md "refuse to guess"): the text named
# it outright (or named no time at all); the spec's own convention filled a gap the text left (a
# bare weekday already passed this week rolls on, a bare 3点 is the afternoon); the rules refused.
CONFIDENCE_STATED = 1.0
CONFIDENCE_CONVENTION = 0.8
CONFIDENCE_REFUSED = 0.0
CONFIDENCE_MODEL = 0.6  # a model chose the date among the plausible ones (refinement.py)


@dataclass(frozen=True)
class QuickNoteParse:
    """What a quick note says: a title, maybe a deadline, and a suggested quadrant.

    Invariants: `deadline` is None exactly when `no_deadline_reason` is set; `ambiguous`
    implies no deadline; every datetime is aware and in the user's zone.
    """

    text: str  # the input, as given
    title: str  # the text without the time phrases, prefixes and stray punctuation
    deadline: datetime | None
    deadline_text: str  # the time phrase(s) found, as written (normalised); "" if none
    has_time: bool  # a time of day was given; False means the 23:59 end-of-day default
    is_past: bool  # the deadline is before `now` (e.g. 这周一 said on Wednesday)
    ambiguous: bool
    ambiguity_reason: AmbiguityReason | None
    no_deadline_reason: NoDeadlineReason | None
    quadrant: int  # 1 important+urgent, 2 important, 3 simple unimportant, 4 complex unimportant
    quadrant_reason: QuadrantReason
    estimated_sections: int | None  # 1..4 when the note states a duration or effort
    urgency_threshold_at: datetime | None  # when a 2 becomes 1
    urgent: bool = False  # the threshold has been reached, or the note says 尽快 / ASAP
    # Ambiguous notes: the plausible deadlines, earliest first, for the student to pick (may be
    # empty: 改天 has no reading worth offering). Never set when `deadline` is.
    readings: tuple[Reading, ...] = ()
    confidence: float = CONFIDENCE_STATED  # in the deadline field; see the CONFIDENCE_* values
    doubts: tuple[Doubt, ...] = ()  # where the rules ran out, in a fixed order (doubts.py)
