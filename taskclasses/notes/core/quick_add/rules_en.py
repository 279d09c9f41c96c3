"""Recognisers for English time phrases (tomorrow 8pm, next Friday, in 3 days, by end of month...)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta

from . import calendar_math as cal
from .fragments import Clock, Context, Fragment, Handler, Period, Rule
from .result import AmbiguityReason
from .text import parse_number

_WEEKDAYS = {"mon": 1, "monday": 1, "tue": 2, "tues": 2, "tuesday": 2, "wed": 3, "wednesday": 3,
             "thu": 4, "thur": 4, "thurs": 4, "thursday": 4, "fri": 5, "friday": 5,
             "sat": 6, "saturday": 6, "sun": 7, "sunday": 7,
             # the misspellings students type on a phone
             "weds": 3, "wensday": 3, "wendsday": 3, "wednsday": 3, "wedsday": 3, "tuseday": 2, "tusday": 2,
             "thrusday": 4, "thursay": 4, "firday": 5, "saterday": 6, "satruday": 6}
_MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
           "sep": 9, "oct": 10, "nov": 11, "dec": 12}
_PERIODS = {"morning": Period.MORNING, "afternoon": Period.AFTERNOON,
            "evening": Period.EVENING, "night": Period.EVENING}
# Keys without apostrophes; the pattern accepts "new year's day" and "new years day".
_FIXED_HOLIDAYS = {"new years day": (1, 1), "new years": (1, 1), "new year": (1, 1),
                   "valentines day": (2, 14), "halloween": (10, 31), "christmas eve": (12, 24),
                   "christmas day": (12, 25), "christmas": (12, 25), "new years eve": (12, 31)}
# "movie night" names the task; after these words "night" only says when.
_TIME_WORDS_BEFORE_NIGHT = frozenset({"at", "by", "on", "every", "today", "tomorrow", "tmr", "tmrw", *_WEEKDAYS})

_WEEKDAY = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
WEEKDAY_NAMES, WEEKDAY_PATTERN = _WEEKDAYS, _WEEKDAY  # shared with rules_semester.py
_DAY_WORDS = ("today", "tonight", "tonite", "tomorrow", "tmrw", "tmr")
# Texting spellings (tuning4), read as the word they stand for.
_TEXTING_DAY_WORDS = {"2day": "today", "tdy": "today", "2nite": "tonight", "2night": "tonight", "tn": "tonight",
                      "2morrow": "tomorrow", "2moro": "tomorrow", "tmrrw": "tomorrow", "tmw": "tomorrow",
                      # a phone's spellings of tomorrow ("tomorow" got no date)
                      "tomorow": "tomorrow", "tommorow": "tomorrow", "tommorrow": "tomorrow", "tmrow": "tomorrow"}
_MONTH = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
          r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
_ORDINAL = r"(?:st|nd|rd|th)?"
_YEAR = r"(?:,? (?P<y>\d{4}))?"
_UNIT = r"minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|mos|fortnights?"
_COUNT = r"\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_HOLIDAY = "|".join(sorted((re.sub(r"(year|valentine)s", r"\1['’]?s", name) for name in _FIXED_HOLIDAYS),
                           key=len, reverse=True))
# Movable, or on another day depending on the country (Labor Day: May 1 in China, September
# in the US): refused rather than guessed.
_MOVABLE_HOLIDAY = (r"(?:the )?(?:thanksgiving|easter|labou?r day|memorial day|spring break|reading week|fall break|winter break"
                    r"|summer break|(?:chinese|lunar) new year|spring festival|mid-?autumn(?: festival)?|moon festival"
                    r"|dragon boat(?: festival)?|lantern festival|qingming|tomb[- ]sweeping day|ramadan|eid|diwali"
                    r"|passover|hanukkah|good friday|mother['’]?s day|father['’]?s day)")

_FREE = "|".join([
    r"some ?day|sometime|at some point|eventually|no rush|no hurry",
    r"whenever(?: i (?:can|have (?:the |some )?time))?",
    r"when(?:ever)? i (?:have|get|find) (?:the |some )?time",
    r"when i(?:'m| am) free|in my (?:free|spare) time",
    # "when I get a chance", "if I have time", "one day", "down the road"
    r"when(?:ever)? i (?:get|have|find) (?:a|the) chance|when(?:ever)? i can|if i (?:have|get|find) (?:the |some )?time"
    r"|if there'?s (?:any )?time"
    r"|(?<!in\x20)(?<!within\x20)(?<!for\x20)one day(?! (?:before|after|early|late|ahead))|down the road"
    r"|at my (?:own )?(?:leisure|convenience)|no (?:deadline|due date|set deadline)",
])
_VAGUE = "|".join([
    r"in a while|one of these days|next time|some other (?:day|time)|another (?:day|time)",
    r"(?:in|within) (?:a few|a couple(?: of)?|few|several|some) (?:minutes|hours|days|weeks|months)",
    r"(?:sometime|some time) (?:next|this) (?:week|wk|month)",
    # more ranges of days
    r"later this (?:week|month|year)|(?:in|within|over) the (?:next|coming) (?:few|couple(?: of)?|several) (?:days|weeks)",
    r"(?:in |within )?(?:a|one) (?:day|week|month) or two|(?:a )?couple (?:of )?(?:days|weeks)",
    r"(?:in|within) (?:one or two|two or three|1-2|2-3) (?:days|weeks)",
    r"(?:(?:by|before|at) )?(?:the )?end of (?:the )?(?:semester|term|quarter)",
    r"(?:by|before) (?:the )?(?:finals?|midterms?|exams?)(?: week)?|finals week|midterm season",
    r"(?:this|next) (?:semester|term|summer|winter|spring|fall|autumn)|next year|over the (?:break|holidays)",
    r"(?:before|by|over|during|after) (?:the )?(?:summer|winter|spring|fall|autumn)(?: break| vacation| holidays?)?",
    r"midweek|mid-week|(?:the )?middle of (?:the |this |next )?week",
    # written from how students hedge: an open stretch ahead, a date still to be decided,
    # a part of a week or month, a school period, a season
    r"in the (?:near|not too distant) future|(?:in|over|within) the (?:coming|next) (?:days|weeks|months)"
    r"|(?:the )?next (?:few|couple(?: of)?|several) (?:days|weeks)|before long|any day now|in due course"
    r"|(?:(?:date|time|day) )?(?:tbd|tbc|tba)|to be (?:decided|determined|confirmed|announced)|not sure when"
    r"|no (?:specific|set|fixed) (?:date|time|day)"
    r"|(?:when|once) (?:they|it'?s?|the date(?: is)?) (?:confirm\w*|announce\w*|tell me|let me know|email me|decided)"
    r"|(?:pending|awaiting|wait(?:ing)? for) (?:confirmation|approval|an email|their reply)"
    r"|weather permitting|if it doesn'?t rain"
    r"|depend(?:s|ing) on (?:the )?(?:schedule|weather|time|their reply|how \w+ goes)|(?:once|after|when) i hear back"
    r"|(?:in|within|over) the next (?:day|week) or two|after a while"
    r"|(?:some ?time |any ?time )?(?:this|next) (?:week|wk|month) sometime|any ?time (?:this|next) (?:week|wk|month)"
    r"|(?:the )?week after next|(?:this|the) coming week"
    r"|(?:(?:early|later?|sometime) )?(?:in|during) the (?:week|month)"
    r"|(?:towards?|near|close to) (?:the )?end of (?:the |this |next )?(?:week|month|year|semester|term)"
    rf"|(?:the )?(?:first|second|third|fourth|last|final)"
    rf" (?:week|weekend) of (?:the |this |next )?(?:month|semester|term|{_MONTH})"
    rf"|(?:the )?(?:first|second|latter|last|back) half of (?:the |this |next )?(?:month|week|year|{_MONTH})"
    rf"|(?:(?:some ?time|any ?time) )?in (?:the month of )?(?:{_MONTH})(?! ?\d)"
    r"|(?:before|by|after|during|over) (?:the )?(?:break|holidays?|vacation|graduation|reading week)"
    r"|after (?:the )?(?:finals?|midterms?|exams?)(?: week| season)?"
    r"|(?:in|during) (?:the )?(?:exam|finals|midterm) (?:week|period|season)"
    r"|(?:in|during) (?:the )?(?:summer|winter|spring|fall|autumn)(?! (?:semester|term|quarter|session|class|course))",
])
# "this weekend or next", "by tomorrow or the day after": a second day without its own date word.
_OR_NEXT = r"(?:or|to) (?:the day after|the next day|the following (?:day|week)|next)"
# Vague only when nothing else dates the note: "later today" is today, "call mom later" is vague.
_VAGUE_SOFT = (r"soon(?:-?ish)?|later|shortly|in a (?:bit|little bit|little while|sec|second|moment|min|minute|jiffy)"
               r"|in a few(?! (?:\w+ )?(?:minutes|hours|days|weeks|months))")
# after a daily event the note does not date ("after class", "after lunch", "before bed"):
# vague alone, and "tomorrow after class" is tomorrow; the event stays part of the task's words.
_AFTER_EVENT = (r"(?:right )?(?:after|before) (?:class|lunch|dinner|breakfast|work|school|practice|lab|the gym|gym|bed)"
                r"|after (?:my|the) (?:last )?(?:class|lecture|shift|lab)")
# Two clocks in one breath: "3-5pm", "8 or 9pm", "between 3 and 5", "around 5", "5ish", "at like 7".
_CLOCK_RANGE = (r"(?:between )?\d{1,2}(?::\d{2})? ?(?:[ap]\.?m\.? ?)?(?:-|–|to|or|/|~) ?\d{1,2}(?::\d{2})? ?[ap]\.?m\.?"
                r"|between \d{1,2}(?::\d{2})? ?(?:[ap]\.?m\.? )?and \d{1,2}(?::\d{2})?(?: ?[ap]\.?m\.?)?"
                r"|(?:at )?(?:around|about|like|approx\.?|approximately|roughly|~)"
                r" ?\d{1,2}(?::\d{2})?(?: ?[ap]\.?m\.?)?(?:-?ish)?"
                r"|(?:at )?\d{1,2}(?::\d{2})? ?(?:[ap]\.?m\.?)?-?ish"
                r"|(?:(?:some|any) ?time )?after \d{1,2}(?::\d{2})?(?: ?[ap]\.?m\.?)?")  # "after 3": from 3 on
# ... but "roughly 3 days", "3ish weeks" count days: a hedged span, below.
_NOT_A_SPAN = r"(?! ?(?:-?ish )?(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|%|st|nd|rd|th)\b)"
_HEDGED_SPAN = (rf"(?:in |within )?(?:about|around|roughly|approximately|approx\.?|like|maybe|~) ?(?:{_COUNT}) (?:{_UNIT})"
                rf"(?: from now| later)?|(?:in |within )?(?:{_COUNT})-?ish (?:{_UNIT})"
                rf"|(?:in |within )?(?:\d+|{_COUNT}) ?(?:or|to|-|–) ?(?:\d+|{_COUNT}) (?:{_UNIT})(?: from now| later)?")
# ASAP says how urgent the task is, not when it is due (product promise, tuning4): no date, not
# ambiguous, cut from the title; quadrant.py still reads it in the text as "urgent".
# "rn" / "right now", and "now" ending the note ("fix bike now"), as texted.
_URGENCY_ADVERB = r"asap|a\.s\.a\.p\.?|as soon as possible|right away|immediately|right now|(?-i:rn)|(?<!from\x20)now(?=[\s!.]*$)"
# "weekly report", "lab weekly meeting": a kind of task, not a repetition.
# any word after it that is not a time or joining word is the noun it describes ("weekly
# shift schedule"), written as a rule instead of a list of nouns; "gym weekly", "weekly on sundays",
# "weekly: call grandma" repeat.
_WEEKLY_NOUN = (r"(?! (?!(?:on|at|in|by|until|till|from|for|and|or|with|w|every|each|before|after|this|next"
                r"|starting|from|till|thru|through|at)\b)[a-z0-9])")
_WEEK = (r"next next week|(?:by|before) next week|(?:the )?end of (?:the |this |next )?week|eow"
         r"|(?:(?:by|before) )?(?:the |this |next )?(?:weekend|wknd|wkend)|this week|within the week|next week"
         r"|this wk|next wk")
_MONTH_PART = r"(?:the )?end of (?:the |this |next )?month|eom|month[- ]end|this month|next month"
# Parts of a month (or week) that are ranges of days, not a day (as 月初 / 月中 / 下旬): refused.
_MONTH_RANGE = (rf"(?:early|mid|late)(?:-| )?(?:(?:this |next )?(?:month|week)|{_MONTH})"
                r"|mid (?:of )?(?:the |this |next )?month"
                r"|(?:the )?(?:start|beginning|middle) of (?:the |this |next )?month")


def _day_word(m: re.Match[str], ctx: Context) -> Fragment:
    word = (m.groupdict().get("d") or m[0]).lower()
    word = _TEXTING_DAY_WORDS.get(word, word)
    if "after" in word:
        return Fragment(day=ctx.today + timedelta(days=2))
    if word.removeprefix("late").strip() in ("tonight", "tonite"):
        return Fragment(day=ctx.today, period=Period.EVENING)
    return Fragment(day=ctx.today + timedelta(days=0 if word == "today" else 1))


def _weekday(m: re.Match[str], ctx: Context) -> Fragment | None:
    name = m["d"]
    # "SAT prep" and "the sun" are not days; these abbreviations count only as "Sat"/"Sun", or
    # in lower case where a day is the only reading: last word of the note, or after on/by/this/next.
    if name.lower() in ("sat", "sun") and name not in ("Sat", "Sun") and not _plainly_a_day(m, ctx):
        return None
    if name.lower() in _DAY_WORDS:
        return _day_word(m, ctx)
    weekday = _WEEKDAYS[name.lower()]
    which = " ".join((m.groupdict().get("which") or "").lower().split())
    if which == "next next" or m.groupdict().get("next_next"):
        return Fragment(day=cal.weekday_in_week(ctx.today, 2, weekday))  # "next next friday" = 下下周五
    if which == "next" or m.groupdict().get("next_week") is not None:
        # "next Friday" = Friday of next (Monday-started) week, the same rule as 下周五.
        return Fragment(day=cal.weekday_in_week(ctx.today, 1, weekday))
    if which == "last":
        return Fragment(day=cal.weekday_in_week(ctx.today, -1, weekday))
    if which == "this" and weekday == ctx.today.isoweekday():
        return Fragment(day=ctx.today)  # "this fri" said on a Friday: this week's Friday is today
    if which == "this" and weekday < ctx.today.isoweekday():
        # "this wed" said on a Friday (QUICK-ADD.md): the day just gone, or the coming one?
        this_week = cal.weekday_in_week(ctx.today, 0, weekday)
        return Fragment(vague=AmbiguityReason.WEEKDAY_PASSED, choices=(this_week, this_week + timedelta(days=7)))
    # Bare, "this", "coming", "by", "on": the coming one, today included.
    return Fragment(day=cal.upcoming_weekday(ctx.today, weekday), roll_days=7)


def _plainly_a_day(m: re.Match[str], ctx: Context) -> bool:
    """Lower-case "sat"/"sun" ending or opening the note, or after a day connector."""
    name = m["d"]
    if m.groupdict().get("which"):
        return True
    at_end = not ctx.text[m.end() :].strip(" .!?")
    # "sun call mom": a lower-case day opening the note; "SAT prep" stays a test.
    at_start = name.islower() and not ctx.text[: m.start()].strip()
    timed = re.match(r"\s+(?:morning|afternoon|evening|night|noon|at\b|\d)|\s*[-–—,;:]", ctx.text[m.end() :], re.IGNORECASE)
    after_connector = re.search(r"\b(?:on|by|before|b4|until|due)\s+$", ctx.text[: m.start()], re.IGNORECASE)
    return at_end or at_start or bool(timed or after_connector)


_WEEKEND_NAMES_A_THING = re.compile(
    r" (?:project|plans?|trip|getaway|job|shift|hours|bag|market|class|course|workshop|brunch|reading|sale)s?\b",
    re.IGNORECASE,
)


def _week(m: re.Match[str], ctx: Context) -> Fragment | None:
    phrase = " ".join(m[0].lower().replace("wknd", "weekend").replace("wkend", "weekend").split())
    phrase = phrase.replace(" wk", " week")
    before = phrase.startswith(("by", "before"))
    if before and phrase.endswith("weekend"):
        # "before X" is the end of day X (product promise, tuning4), and the weekend ends on Sunday;
        # until tuning4 it was Friday, "before the weekend starts".
        return Fragment(day=cal.end_of_week(ctx.today, 1 if "next" in phrase else 0))
    if before:  # by next week = before next week starts
        return Fragment(day=cal.end_of_week(ctx.today, 0))
    if "next" in phrase and ("end" in phrase or "weekend" in phrase):
        return Fragment(day=cal.end_of_week(ctx.today, 1))
    if "next" in phrase:
        return Fragment(vague=AmbiguityReason.WEEK_WITHOUT_DAY)
    if phrase.endswith("weekend") and _WEEKEND_NAMES_A_THING.match(ctx.text, m.end()):
        return None  # "weekend project", "weekend shift": a kind of thing, not a time
    if phrase.endswith("weekend") and "this" not in phrase:
        # "weekend" alone: which one, and which day?
        return Fragment(vague=AmbiguityReason.WEEKEND, choices=cal.weekend_choices(ctx.today))
    return Fragment(day=cal.end_of_week(ctx.today, 0))  # this week, end of week, this weekend


def _month(m: re.Match[str], ctx: Context) -> Fragment:
    phrase = " ".join(m[0].lower().split())
    months = 1 if "next" in phrase else 0
    if "end" in phrase or months == 0:
        return Fragment(day=cal.month_end(ctx.today, months))
    return Fragment(vague=AmbiguityReason.MONTH_WITHOUT_DAY)  # "next month": which day?


def _holiday(m: re.Match[str], ctx: Context) -> Fragment:
    name = " ".join(m[0].lower().replace("'", "").replace("’", "").split())
    return Fragment(day=cal.upcoming_annual(ctx.today, *_FIXED_HOLIDAYS[name]), names_holiday=True)


def _named_month_end(m: re.Match[str], ctx: Context) -> Fragment:
    """"end of April" is April's last day, as 4月底."""
    month = _MONTHS[(m["mon"] or m["mon2"])[:3].lower()]
    near = cal.month_day_near(ctx.today, month, cal.last_day_of_month(ctx.today.year, month))
    assert near is not None  # a month's last day always exists
    return Fragment(day=cal.month_end(near))


def _year_end(m: re.Match[str], ctx: Context) -> Fragment:
    return Fragment(day=date(ctx.today.year, 12, 31))


def _relative(m: re.Match[str], ctx: Context) -> Fragment | None:
    unit = m["unit"].lower()
    count = 0.5 if m["n"].lower().startswith("half") else parse_number(m["n"])
    if not count:
        return None
    if unit.startswith(("h", "mi")):
        minutes = count * 60 if unit.startswith("h") else count
        return Fragment(instant=ctx.after(timedelta(minutes=int(minutes))))
    if count != int(count):  # "in half a day": too loose for a date
        return Fragment(vague=AmbiguityReason.VAGUE_TIME)
    base = _relative_base(m, ctx)
    if base is None:
        return None
    if unit.startswith("d"):
        return Fragment(day=base + timedelta(days=int(count)))
    if unit.startswith(("w", "f")):
        return Fragment(day=base + timedelta(weeks=int(count) * (2 if unit.startswith("f") else 1)))
    return Fragment(day=cal.add_months(base, int(count)))


def _relative_base(m: re.Match[str], ctx: Context) -> date | None:
    """The day a span counts from: today, or the day named after "from" ("a week from friday")."""
    start = (m.groupdict().get("base") or "now").lower()
    if start in ("now", "today", "later"):
        return ctx.today
    if start in ("tomorrow", "tmr", "tmrw"):
        return ctx.today + timedelta(days=1)
    weekday = _WEEKDAYS.get(start)
    return cal.upcoming_weekday(ctx.today, weekday) if weekday else None


def _before_month(m: re.Match[str], ctx: Context) -> Fragment:
    # "by June" / "before June" = by the end of May, as 6月前 (tuning4: "personal project by june").
    month = _MONTHS[m["mon"][:3].lower()]
    day = cal.before_month(ctx.today, month)
    return Fragment(day=day) if day else Fragment(vague=AmbiguityReason.INVALID_DATE)


def _month_name_date(m: re.Match[str], ctx: Context) -> Fragment:
    month, day = _MONTHS[m["mon"][:3].lower()], int(m["d"])
    exact = cal.safe_date(int(m["y"]), month, day) if m["y"] else cal.month_day_near(ctx.today, month, day)
    return Fragment(day=exact) if exact else Fragment(vague=AmbiguityReason.INVALID_DATE)


def _ordinal_day(m: re.Match[str], ctx: Context) -> Fragment:
    exact = cal.upcoming_day_of_month(ctx.today, int(m["d"]))
    return Fragment(day=exact) if exact else Fragment(vague=AmbiguityReason.INVALID_DATE)


def _day_then_hour(m: re.Match[str], ctx: Context) -> Fragment | None:
    """"tomorrow 3 dentist", "friday 10 group meeting": a bare hour right after a day is its time."""
    day = _weekday(m, ctx)
    hour = int(m["h"])
    if day is None or not 1 <= hour <= 12:
        return None
    return replace(day, clock=Clock(hour, 0))


def _clock(m: re.Match[str], ctx: Context) -> Fragment | None:
    hour, minute = int(m["h"]), int(m.groupdict().get("m") or 0)
    written = m.groupdict().get("ap")
    meridiem = written.lower().replace(".", "")[0] + "m" if written else None
    if minute > 59 or hour > 24 or (meridiem and not 1 <= hour <= 12):
        return None
    return Fragment(clock=Clock(hour, minute, meridiem))


def _noon_or_midnight(m: re.Match[str], ctx: Context) -> Fragment:
    if "midnight" in m[0].lower():
        return Fragment(clock=Clock(24, 0, midnight=True))
    return Fragment(clock=Clock(12, 0, "pm"))


def _period(m: re.Match[str], ctx: Context) -> Fragment:
    word = m["p"].lower()
    words_before = ctx.text[: m.start()].lower().split()
    names_the_task = word == "night" and m[0].lower() == "night" and (
        not words_before or words_before[-1] not in _TIME_WORDS_BEFORE_NIGHT
    )
    return Fragment(period=_PERIODS[word], keep_in_title=names_the_task, period_needs_clock=names_the_task)


def _duration(m: re.Match[str], ctx: Context) -> Fragment | None:
    raw = m["n"].lower()
    count = 0.5 if raw.startswith("half") else float(raw) if raw[0].isdecimal() else parse_number(raw)
    if not count:
        return None
    return Fragment(duration_minutes=int(count * (60 if m["unit"].lower().startswith("h") else 1)))


def _const(fragment: Fragment) -> Handler:
    return lambda m, ctx: fragment


def _rule(name: str, pattern: str, handler: Handler) -> Rule:
    # Whole words only; " " in a pattern stands for any run of whitespace, " ?" for an optional one.
    # A word's edge is "no Latin letter or digit" rather than \b, for which a Chinese character is a
    # word character: "fri交lab report", "tmr交作业" are English days glued to Chinese.
    spaced = pattern.replace(" ?", r"\s*").replace(" ", r"\s+")
    return Rule(name, re.compile(rf"(?<![A-Za-z0-9_])(?:{spaced})(?![A-Za-z0-9_])", re.IGNORECASE), handler)


RULES: tuple[Rule, ...] = (
    _rule("en_recurring",
          # the day list first: alternation takes the first branch that matches, not the longest
          rf"every (?:{_WEEKDAY})(?: ?(?:&|and|,|/) ?(?:{_WEEKDAY}))+"
          rf"|every (?:day|morning|night|evening|week|month|weekday|{_WEEKDAY})|daily|weekly{_WEEKLY_NOUN}|monthly"
          rf"|every (?:other|second) (?:day|week|month|weekend|{_WEEKDAY})"
          r"|every (?:\d+|two|three|few|couple of) (?:days|weeks|months)"
          r"|(?:once|twice|three times|\d+ times|\dx) (?:a|per|each|every) (?:day|week|month)|(?:on )?weekdays|weeknights"
          rf"|each (?:day|morning|night|evening|week|month|{_WEEKDAY})|bi-?weekly{_WEEKLY_NOUN}|fortnightly|nightly|every weekend"
          r"|(?:on )?(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends)",
          _const(Fragment(vague=AmbiguityReason.RECURRING))),
    _rule("en_or_next", _OR_NEXT, _const(Fragment(vague=AmbiguityReason.CONFLICTING_DATES))),
    _rule("en_free", _FREE, _const(Fragment(free_time=True))),
    _rule("en_vague", _VAGUE, _const(Fragment(vague=AmbiguityReason.VAGUE_TIME))),
    _rule("en_urgency_adverb", _URGENCY_ADVERB, _const(Fragment())),
    _rule("en_vague_soft", _VAGUE_SOFT, _const(Fragment(vague=AmbiguityReason.VAGUE_TIME, vague_yields_to_date=True))),
    _rule("en_after_event", _AFTER_EVENT, _const(Fragment(
        vague=AmbiguityReason.VAGUE_TIME, vague_yields_to_date=True, names_event=True))),
    _rule("en_clock_range", rf"(?:{_CLOCK_RANGE}){_NOT_A_SPAN}", _const(Fragment(vague=AmbiguityReason.VAGUE_TIME))),
    _rule("en_hedged_span", _HEDGED_SPAN, _const(Fragment(vague=AmbiguityReason.VAGUE_TIME))),
    _rule("en_month_end", rf"(?:the )?end of (?P<mon>{_MONTH})|(?P<mon2>{_MONTH}) end", _named_month_end),
    _rule("en_holiday", _HOLIDAY, _holiday),
    _rule("en_movable_holiday", _MOVABLE_HOLIDAY,
          _const(Fragment(vague=AmbiguityReason.MOVABLE_HOLIDAY, names_holiday=True))),
    _rule("en_day_word", r"(?:the )?day after (?:tomorrow|tmrw?|tmr|2moro|2morrow)|today|(?:late )?tonight|tonite"
          r"|tomorrow|tmrw?|tmr"
          rf"|{'|'.join(_TEXTING_DAY_WORDS)}", _day_word),
    _rule("en_weekday",
          rf"(?:(?P<which>this coming|coming|this|next next|next|last) )?(?P<d>{_WEEKDAY})\.?(?P<next_week> next week)?",
          _weekday),
    _rule("en_next_week_weekday", rf"(?P<next_next>next )?next week(?:'s)?:? (?P<d>{_WEEKDAY})(?P<next_week>)", _weekday),
    _rule("en_week", _WEEK, _week),
    _rule("en_month_range", _MONTH_RANGE, _const(Fragment(vague=AmbiguityReason.VAGUE_TIME))),
    _rule("en_month", _MONTH_PART, _month),
    _rule("en_year_end", r"(?:the )?end of (?:the |this )?year|year[- ]end|eoy", _year_end),
    _rule("en_in_relative", rf"(?:in|within) (?P<n>{_COUNT}|half an?) (?P<unit>{_UNIT})", _relative),
    _rule("en_relative_from_now",
          rf"(?P<n>{_COUNT}) (?P<unit>{_UNIT}) (?:from (?:(?P<base>now|today|tomorrow|tmrw?|{_WEEKDAY})\b)|later)",
          _relative),
    _rule("en_before_month", rf"(?:by|before|until|till|b4) (?P<mon>{_MONTH})\.?(?! ?\d)", _before_month),
    _rule("en_month_name_date", rf"(?P<mon>{_MONTH})\.? (?P<d>\d{{1,2}}){_ORDINAL}{_YEAR}", _month_name_date),
    _rule("en_day_month_name", rf"(?:the )?(?P<d>\d{{1,2}}){_ORDINAL} (?:of )?(?P<mon>{_MONTH}){_YEAR}",
          _month_name_date),
    _rule("en_ordinal_day", r"the (?P<d>\d{1,2})(?:st|nd|rd|th)", _ordinal_day),
    _rule("en_clock_meridiem", r"(?:at )?(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))? ?(?P<ap>[ap]\.?m\.?)", _clock),
    # a make-up workday (调休) is why the day is a workday, not the task ("tmr make-up workday, 9am lab")
    _rule("en_makeup_day", r"make-?up (?:work ?day|class day)", _const(Fragment())),
    _rule("en_clock_colon", r"(?:at )?(?P<h>\d{1,2}):(?P<m>\d{2})", _clock),
    # The hour must not count something: "tomorrow 2 exams", "friday 3 chapters" (a plural noun
    # follows), "mon 5%". The day's own rule handles "next"/"this".
    _rule("en_day_then_hour",
          rf"(?:(?P<which>this|next) )?(?P<d>{_WEEKDAY}|{'|'.join(_DAY_WORDS)})\.? (?P<h>\d{{1,2}})"
          r"(?! ?(?:%|st|nd|rd|th|[:/.]\d|[ap]\.?m|days?|hours?|weeks?|minutes?|mins?|hrs?|h\b))"
          r"(?! \w+s\b)",
          _day_then_hour),
    # "@ 3", and "before 5" / "by 5" (a bare hour after a deadline word) as "at 5"
    _rule("en_clock_at", r"(?:at|@|by|before|b4|until|till) ?(?P<h>\d{1,2})"
          rf"(?![/.:\d])(?! ?(?:%|st|nd|rd|th|days?|hours?|weeks?|minutes?|mins?|wks?|hrs?|[ap]\.?m|(?:of )?(?:{_MONTH})\b))",
          _clock),
    _rule("en_noon", r"(?:at )?(?:noon|midday|midnight)", _noon_or_midnight),
    _rule("en_end_of_day", r"(?:the )?end of (?:the )?day|eod", _const(Fragment(period=Period.END_OF_DAY))),
    # "early afternoon", "late tonight": the part of the day, early or late, is still that part
    _rule("en_period", r"(?:in the |this )?(?:(?:early|late|mid) ?-?)?(?P<p>morning|afternoon|evening|night)", _period),
    _rule("en_first_thing", r"first thing(?: in the morning)?", _const(Fragment(period=Period.MORNING))),
    _rule("en_duration",
          r"(?:for )?(?P<n>\d+(?:\.\d+)?|an?|one|two|three|half an?) ?(?P<unit>hours?|hrs?|h|minutes?|mins?)",
          _duration),
)
