"""Days that belong to the task's own words, not to its deadline.

"交周一实验课的报告 周五前", "prep slides for friday's seminar by wednesday", "下周的组会PPT 明天做完":
the first day word names *which* report, seminar or meeting; the other one is the deadline. Before
this rule the two days conflicted (no date at all) and the title lost "周一" / "friday's".

A day describes the task when it is followed by 的 / 's, or directly by a course or event noun
(下周一组会, the friday seminar), **and** the note dates the task some other way. Alone,
"准备周六的面试" still means "by Saturday": the event's day is then the only deadline there is.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .fragments import Fragment
from .result import AmbiguityReason

# 的 is checked separately: "3天后的早上" is one time phrase, not a day describing 早上.
_ZH_EVENT = re.compile(
    r"(?!上课)[\u4e00-\u9fff]{0,3}课(?!外|间)|组会|班会|例会|周会|讲座|活动|晚会|聚会|比赛|考试|小测|测验|面试|答辩"
    r"|汇报|展示|研讨|讨论|实验|读书会|分享会|聚餐"
)
_EN_EVENT = re.compile(
    r"\s+(?:seminar|lecture|class|lab|meeting|quiz|test|exam|midterm|session|party|event|talk|tutorial"
    r"|workshop|recitation|section|discussion|presentation|game|match|shift)s?\b",
    re.IGNORECASE,
)
# 下周要交的开题报告: "要交的 / 要用的" also says which object, like 的 (tuning4).
_POSSESSIVE = re.compile(r"(?:要[交用做考讲]的)|的|['’]s\b")
# Refusals that a describing day would otherwise cause: 下周的组会 is not "next week, which day?".
_DAYLESS_PERIODS = (AmbiguityReason.WEEK_WITHOUT_DAY, AmbiguityReason.MONTH_WITHOUT_DAY)


def set_aside_object_days(fragments: list[Fragment], text: str) -> list[Fragment]:
    """Mark the days that describe the task's object, when another phrase gives the deadline."""
    describing: set[int] = set()
    for index, fragment in enumerate(fragments):
        if _is_day_like(fragment):
            run = _day_with_its_time(index, fragments, text)
            if _names_an_object(fragments[run[-1]].end, fragments, text):
                describing.update(run)
    if not describing or not any(
        _dates_the_note(fragment) for index, fragment in enumerate(fragments) if index not in describing
    ):
        return fragments
    return [
        replace(fragment, describes_task=True, keep_in_title=True) if index in describing else fragment
        for index, fragment in enumerate(fragments)
    ]


def _is_day_like(fragment: Fragment) -> bool:
    return fragment.day is not None and fragment.clock is None or fragment.vague in _DAYLESS_PERIODS


def _day_with_its_time(index: int, fragments: list[Fragment], text: str) -> list[int]:
    """The day and the clock or period written right after it: 周一早八的课 describes as a whole."""
    run = [index]
    for following in range(index + 1, len(fragments)):
        fragment = fragments[following]
        touching = not text[fragments[run[-1]].end : fragment.start].strip()
        if not touching or fragment.day is not None or not (fragment.clock or fragment.period):
            break
        run.append(following)
    return run


def _names_an_object(end: int, fragments: list[Fragment], text: str) -> bool:
    possessive = _POSSESSIVE.match(text, end)
    if possessive:
        # "明天的下午3点" / "3天后的早上": 的 followed by another time phrase is one phrase.
        return not any(other.start == possessive.end() for other in fragments)
    return bool(_ZH_EVENT.match(text, end) or _EN_EVENT.match(text, end))


def _dates_the_note(fragment: Fragment) -> bool:
    """A phrase that can be the deadline (or refuses one) on its own: a day, an instant, a vague word."""
    return fragment.is_timing and bool(fragment.day or fragment.instant or fragment.vague)
