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
# A time word inside the task: a Chinese character of the task on both sides (not a joiner such as
# 或/到, which makes two dates), or an English word before it and a noun after it.
_ZH_INSIDE_BEFORE = re.compile(r"[\u4e00-\u9fff](?<![或和到至与及跟是还在于从前后每])$")
_ZH_INSIDE_AFTER = re.compile(r"(?![前之以内后的点号日])[\u4e00-\u9fff]")
_EN_CONNECTORS = (r"by|before|b4|on|at|in|until|till|til|thru|through|due|for|this|next|every|each|or|and|to|from|after|around"
                  r"|about|during|of|than|since|last|coming|with|then|is|are|be|it|that")
_EN_INSIDE_BEFORE = re.compile(rf"\b(?!(?:{_EN_CONNECTORS})\b)[a-z]+ $", re.IGNORECASE)
_EN_INSIDE_AFTER = re.compile(rf" (?!(?:{_EN_CONNECTORS})\b)[a-z]{{3,}}\b", re.IGNORECASE)
# Nothing, or only a joiner, between two time phrases: 明天或者后天, "tomorrow or friday".
_JOINED = re.compile(r"\s*(?:或者|或|和|到|至|与|及|跟|还是|or|and|to|,|、|~|-)?\s*", re.IGNORECASE)
# "the midterm on Tuesday": the day says which midterm, as "friday's seminar" does.
_EVENT_ON = re.compile(
    r"\b(?:exam|midterm|final|quiz|test|presentation|meeting|seminar|lecture|class|interview|party|game|talk)s?"
    r" on $",
    re.IGNORECASE,
)
# Refusals that a describing day would otherwise cause: 下周的组会 is not "next week, which day?".
_DAYLESS_PERIODS = (AmbiguityReason.WEEK_WITHOUT_DAY, AmbiguityReason.MONTH_WITHOUT_DAY)


# 劳动节拍的照片, 国庆回家的高铁票, 假期拍的vlog: a holiday or a stretch of days, then a short verb
# phrase and 的, says *which* photos or tickets; it is never the deadline, dated note or not.
_RELATIVE_CLAUSE = re.compile(r"(?![前后之以期里内中])[\u4e00-\u9fff]{1,3}的(?=[\u4e00-\u9fffA-Za-z])")


def set_aside_object_days(fragments: list[Fragment], text: str) -> list[Fragment]:
    """Mark the days that describe the task's object, when another phrase gives the deadline."""
    fragments = [_object_of_a_clause(fragment, fragments, text) for fragment in fragments]
    describing: set[int] = set()
    for index, fragment in enumerate(fragments):
        if index and _joined_to_a_day(fragments[index - 1], fragment, text):
            continue  # "thursday or friday lab quiz": a second date, not the quiz's name
        if _is_day_like(fragment):
            run = _day_with_its_time(index, fragments, text)
            if _names_an_object(fragments[run[-1]].end, fragments, text):
                describing.update(run)
        elif _is_named_range(fragment) and _POSSESSIVE.match(text, fragment.end):
            describing.add(index)  # 下学期的住宿申请, next semester's course registration
    inside = {index for index, fragment in enumerate(fragments)
              if index not in describing
              and (_inside_the_task(fragment, fragments, text) or _holiday_names_a_thing(fragment, text))}
    if any(_dates_the_note(fragment) for index, fragment in enumerate(fragments)
           if index not in describing | inside):
        describing |= inside  # only while another phrase is left to date the note
    if not describing or not any(
        _dates_the_note(fragment) for index, fragment in enumerate(fragments) if index not in describing
    ):
        return fragments
    return [
        replace(fragment, describes_task=True, keep_in_title=True) if index in describing else fragment
        for index, fragment in enumerate(fragments)
    ]


# 周末 alone is a range of days too (确认周末值班表 names the roster, the other phrase dates the note).
_RANGES = (AmbiguityReason.VAGUE_TIME, AmbiguityReason.WEEKEND)


def _object_of_a_clause(fragment: Fragment, fragments: list[Fragment], text: str) -> Fragment:
    clause = _RELATIVE_CLAUSE.match(text, fragment.end)
    if not (fragment.names_holiday or _is_named_range(fragment)) or clause is None:
        return fragment
    if any(clause.start() <= other.start < clause.end() for other in fragments):
        return fragment  # 调休那天早八的…, 周末买下周的…: the clause holds a time of its own
    return replace(fragment, describes_task=True, keep_in_title=True)


def _is_named_range(fragment: Fragment) -> bool:
    return fragment.vague in _RANGES and not fragment.vague_yields_to_date


def _inside_the_task(fragment: Fragment, fragments: list[Fragment], text: str) -> bool:
    """A time word wrapped in the task's own words: 确认周末值班表,
    给外教寄感恩节卡片, "buy christmas gifts", "submit weekend hours", "the Monday group
    presentation", "the midterm on Tuesday", (下周三考). The deadline is then another phrase.
    """
    a_day = fragment.day is not None and fragment.clock is None and fragment.period is None
    if not fragment.is_timing or not (a_day or _is_named_range(fragment)):
        return False
    if any(_touching(other.end, fragment.start, text) for other in fragments if other is not fragment):
        return False  # "明天下午", "或者后天": part of a longer time phrase or a list of dates
    if _in_brackets(fragment, text) or _EVENT_ON.search(text, 0, fragment.start):
        return True
    if any(other.start == _next_word_start(text, fragment.end) for other in fragments):
        return False  # "sunday morning": the next word is time too
    before, after = text[: fragment.start], text[fragment.end :]
    if text[fragment.start : fragment.start + 4].lower() == "the ":
        before = text[: fragment.start + 4]  # "for the weekend bbq": "the" is the word before the noun
    zh = _ZH_INSIDE_BEFORE.search(before) and _ZH_INSIDE_AFTER.match(after)
    en = _EN_INSIDE_BEFORE.search(before) and _EN_INSIDE_AFTER.match(after)
    return bool(zh or en)


# A real joining word between two dates (not a mere space): 或, 到, or, to, thru, -.
_JOINER_WORD = re.compile(r"\s*(?:或者|或|还是|到|至|or|to|thru|through|-|/)\s*", re.IGNORECASE)
# What may follow a holiday's name without naming a thing: a connector, or another time word.
# A verb after it (教师节给老师送花, 国庆回家) makes the holiday the time, not a thing's name.
_ZH_HOLIDAY_THING = re.compile(r"(?![前之以内后的期假快当那这节日给送去回寄买做发打吃在和跟陪带要准要得把])[\u4e00-\u9fff]")
_EN_HOLIDAY_THING = re.compile(
    rf" (?!(?:{_EN_CONNECTORS}|break|day|eve|holidays?|vacation|morning|afternoon|evening|night|week|weekend)\b)[a-z]{{3,}}\b",
    re.IGNORECASE,
)


def _joined_to_a_day(previous: Fragment, fragment: Fragment, text: str) -> bool:
    return (previous.is_timing and previous.day is not None and fragment.day is not None
            and previous.end <= fragment.start and bool(_JOINER_WORD.fullmatch(text, previous.end, fragment.start)))


def _holiday_names_a_thing(fragment: Fragment, text: str) -> bool:
    """"万圣节派对", "halloween costume shopping", "new year call w/ family": the holiday names the thing;
    the note's other phrase is then the deadline."""
    if not fragment.names_holiday:
        return False
    return bool(_ZH_HOLIDAY_THING.match(text, fragment.end) or _EN_HOLIDAY_THING.match(text, fragment.end))


def _touching(end: int, start: int, text: str) -> bool:
    return end <= start and bool(_JOINED.fullmatch(text, end, start))


def _in_brackets(fragment: Fragment, text: str) -> bool:
    opened = max(text.rfind("(", 0, fragment.start), text.rfind("（", 0, fragment.start))
    closed = max(text.rfind(")", 0, fragment.start), text.rfind("）", 0, fragment.start))
    return opened > closed and bool(re.match(r"[^()（）]*[)）]", text[fragment.end :]))


def _next_word_start(text: str, end: int) -> int:
    return end + len(text[end:]) - len(text[end:].lstrip())


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
        # "明天的下午3点" / "3天后的早上": 的 followed by another time phrase is one phrase; a named
        # range after it is the object's name (下周的考试周计划表).
        return not any(other.start == possessive.end() and not _is_named_range(other) for other in fragments)
    return bool(_ZH_EVENT.match(text, end) or _EN_EVENT.match(text, end))


def _dates_the_note(fragment: Fragment) -> bool:
    """A phrase that can be the deadline (or refuses one) on its own: a day, an instant, a vague word."""
    # A soft vague word (晚点, later, after class) yields to any date, so it cannot stand in for one.
    soft = fragment.vague is not None and fragment.vague_yields_to_date
    return fragment.is_timing and not soft and bool(fragment.day or fragment.instant or fragment.vague)
