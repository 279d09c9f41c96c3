"""Recognisers for Chinese time phrases (明天, 下周日之前, 周三下午3点, 月底, 3天后, 有空的时候...)."""

from __future__ import annotations

import re
from datetime import date, timedelta

from . import calendar_math as cal
from .fragments import Clock, Context, Fragment, Handler, Period, Rule
from .result import AmbiguityReason
from .text import NUM, parse_number

_PERIODS = {
    "凌晨": Period.EARLY_MORNING, "清晨": Period.MORNING, "早上": Period.MORNING,
    "早晨": Period.MORNING, "上午": Period.MORNING, "中午": Period.NOON,
    "下午": Period.AFTERNOON, "傍晚": Period.DUSK, "晚上": Period.EVENING,
    "夜里": Period.EVENING, "夜间": Period.EVENING,
    # 明天一早 / 一大早 is the morning
    "一大早": Period.MORNING, "大清早": Period.MORNING, "一早": Period.MORNING,
}
# 晚8点 / 早7点, the one-character period students put before a clock (not 今晚/明早, day words).
_SHORT_PERIODS = {"晚": Period.EVENING, "早": Period.MORNING}
# 一早 is not the 一 of 周一 ("周一早上" is Monday morning).
_PERIOD = "|".join("(?<![周期拜])一早" if word == "一早" else word for word in _PERIODS)

# Day words: (days from today, period they imply).
_DAY_WORDS = {
    "今天": (0, None), "今日": (0, None), "今儿": (0, None),
    "今晚": (0, Period.EVENING), "今早": (0, Period.MORNING), "今晨": (0, Period.MORNING),
    "明天": (1, None), "明日": (1, None), "明儿": (1, None),
    "明晚": (1, Period.EVENING), "明早": (1, Period.MORNING), "明晨": (1, Period.MORNING),
    "后天": (2, None), "大后天": (3, None),
}
_WEEKDAYS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "日": 7, "天": 7,
             "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7}
# 下 must not be the tail of 一下 ("帮我记一下周五..." is 周五, not 下周五).
_WEEK_PREFIX = r"(?<!一)下下个?|(?<!一)下个?|这个?|本|上个?"
_WEEKS_AHEAD = {"": 0, "这": 0, "本": 0, "上": -1, "下": 1, "下下": 2}
_MONTH_WHICH = r"下下个?|下个?|本|这个?"
_MONTHS_AHEAD = {"": 0, "本": 0, "这": 0, "下": 1, "下下": 2}
_BEFORE = ("前", "之前", "以前")

# Repetition: 每周五, 每两周, 每隔一天, 隔周, 一周三次, 天天, spaced and counted forms too.
_DAY_LIST = r"[一二三四五六日天](?:[、,，和及与跟/]?[一二三四五六日天])*"
_RECURRING = "|".join([
    rf"每隔?(?:[一两二三四五六七八九十几\d]|半)?个?(?:天|日|晚|早上?|(?:周|星期|礼拜)(?:{_DAY_LIST})?|月(?:\d{{1,2}}[号日])?|年|学期)",
    r"隔(?:一)?(?:天|日|周|星期)|天天|(?:一|每)(?:周|星期|天|个?月)[一两二三四五六七八九十\d]+次|工作日",
])
# Phrases saying there is explicitly no deadline. 有空/有时间 after 没 mean the opposite.
_FREE = "|".join([
    r"(?:等|趁)?(?<!没)有空(?:的时候|时|了)?再?",
    r"(?:等|趁)?(?<!没)有时间(?:的时候|时|了)?再?",
    r"(?:等|趁)?闲(?:下来|的时候)了?再?",
    r"不急|不着急|不用急|随时|随便什么时候|什么时候都行|抽空|得空|找个?时间|有机会再?",
    r"以后再?|将来|哪天|迟早|早晚要|总有一天",
])
# Phrases naming a time too vaguely to pick a date: refuse rather than guess.
_VAGUE = "|".join([
    r"改天|改日|过几天|过两天|过些天|过些日子|过一?阵子?|过一?段时间|过会儿?",
    r"最近|近期|近几天|近日|这几天|这两天|下次|几天[后内]|几天之内|几个?小时后|几周后|明年",
    # "the next day" of an unnamed day; the day term starts (the parser does not know it)
    r"次日|翌日|第二天|隔天|开学(?:那天|当天|第一天|时|的时候)",
    r"下个?学期(?:开学)?(?:之?前)?|开学(?:之前|以前|前|之后|以后|后)",  # bare 开学 is a noun (开学报到)
    r"(?:放假|期中|期末|寒假|暑假|考试周)(?:考试)?(?:之前|以前|前)|年[初中]|周中",
    # 学期末 = the end of term, but not the 学 of a subject: 药理学期末, 计量经济学期中考试
    r"(?:(?<![\u4e00-\u9fff])|(?<=[这本上下该]))学期[初中末]",
    # a count that is a range: 一两天内, 两三天后, 一两周
    r"[一两二三四五六七八九](?:[一两二三四五六七八九])个?(?:天|日|周|星期|礼拜|月)(?:之?[内后]|以[内后])?",
    # written from how students hedge rather than from fixture phrases:
    # a span with "about" (一周左右, 三天上下, 十来天, 个把月, 几周后, 一阵子)
    rf"(?:{NUM}|几)?个?半?个?(?:天|日|周|星期|礼拜|月|小时)(?:左右|上下)(?:之?后|以后)?"
    r"|(?:十|二十|几十)来(?:个)?(?:天|周|星期|月)(?:之?[后内]|以[后内])?|个把(?:月|星期|礼拜)(?:之?后|以后)?"
    r"|几个?(?:周|星期|礼拜|月)(?:之?[内后]|以[内后])?|[这那一]阵子?(?:之?后|以后)?|这段时间|前段时间|一段时间(?:之?后|以后)?",
    # a date still to be announced or decided: 等通知, 时间待定, 另行通知, 看情况, 到时候再说
    r"(?:具体)?(?:时间|日期)?(?:待定|未定|待通知|另行通知|再定|还没定|不确定)|等[^,，。;；\s]{0,6}通知(?:了|以后|之后|后)?再?|[看视](?:情况|天气|心情)(?:而定)?再?"
    r"|到时候(?:再说|再看|看)?再?|再说吧?$",
    # parts of a week or term that are ranges: 周初, 这周初, 下半周, 开学初, 开学第一周, 这学期内
    r"(?:(?:这|本|下下?|上)个?)?(?:周|星期|礼拜)(?:初|前半|后半)|(?:这|本|下下?)个?(?:周|星期|礼拜)中(?![午心])"
    r"|[上下]半个?(?:周|星期)|开学(?:初|第[一二三1-3]周|那周|头几天)|(?:这|本|该)个?学期(?:之?内|以内|结束前|底)?",
    # school and holiday periods: 国庆假期, 寒假里, 暑假期间, 假期后, 考试周, 期末周, 节后, 过完年, 考完试
    r"(?:国庆|十一|五一|清明|端午|中秋|春节)?(?:假期|长假|小长假|黄金周)(?:里|期间|中|内|前|之前|以前|后|之后|以后|结束前|结束后)?"
    r"|(?:寒假|暑假)(?:里|期间|中|内|后|之后|以后|结束前|结束后|回来|(?=[去回在把要和跟带出做学找打考]|\s))|(?:考试周|期末周|复习周|期中周)(?![一二三四五六日天1-7末])(?:前|之前|后|之后|里|期间)?"
    r"|(?<![章小第\d一二三四五六七八九十])节(?:前|后)(?![面边])|过完(?:年|节)|过了年|(?:期中|期末)(?:考试)?(?:以后|之后|后)",
    # seasons and quarters: 今年夏天, 秋天, 冬天前, 季度末 (not "夏天的衣服": 的 makes it the object)
    r"(?:今年|明年)?(?:春天|夏天|秋天|冬天|春季|夏季|秋季|冬季|开春|入冬|入秋)(?:前|之前|以前|后|之后|以后|里|的时候)?(?!的|学期)"
    r"|(?:本|这个?|下个?)?季度(?:末|初|底)?",
])
# Vague only when nothing else dates the note: 今天晚点 is today, 明天早点 is tomorrow.
_VAGUE_SOFT = r"晚些时候|晚些|晚一点|晚点|稍晚|稍后|待会儿?|等会儿?|回头|早点|早一点|早些时候|早些"
# after an event the note does not date (考完试, 下课后, 吃完饭, 睡前): no date of its own, so
# vague alone ("明天下课后" is tomorrow). The event is part of what the student wrote as the task
# ("下个月 考完试去云南玩" keeps 考完试 in its title in tuning5), so it stays in the title.
_AFTER_EVENT = (r"等?(?:(?:期中|期末)考完(?:试)?|考完试|考试结束)(?:以后|之后|后)?"
                r"|下课(?:以后|之后|后)|放学(?:以后|之后|后)|下班(?:以后|之后|后)|吃完(?:午|晚)?饭|(?<![\u4e00-\u9fff])(?:午|晚)?饭后"
                r"|睡(?:觉)?前|起床(?:以后|之后|后)|回(?:家|宿舍|学校)(?:以后|之后|后)|(?:出差)?回来(?:以后|之后|后)|出差回来"
                # 等室友回来, 等工资发了, 等出成绩: waiting for an event the note does not date
                r"|等[^,，。;；\s]{1,8}?(?:回来|到了|发了|出来|出了|好了|完了|定了)(?:以后|之后|后)?再?|等出[^,，。;；\s]{1,4}再")
# Spec9 (QUICK-ADD.md "refuse to guess"): the end of an exam or interview, and the edges of a life
# event the note does not date (毕业前, 回家前, 熄灯前, 秋招结束后): times, undated. 考完马原 names the
# exam taken, 去/跟/把… starts the task.
_LIFE_EVENT = (r"(?:考|面)完(?:试|[\u4e00-\u9fff]{1,4}?(?=[去跟和把再就聚吃那]|\s|$))(?:以后|之后|后)?"
               r"|(?:毕业|回家|熄灯|离校|放假|秋招|春招|考研|考试周|期末周|答辩|实习)(?:结束)?(?:之前|以前|前|之后|以后|后)再?")
# 尽快/马上 say how urgent the task is, not when it is due (product promise, tuning4): no date, not
# ambiguous, cut from the title; quadrant.py still reads them in the text as "urgent".
_URGENCY_ADVERB = r"尽快|尽早|赶紧|赶快|马上|立刻|立即|立马|即刻|现在就"
# Holidays on fixed Gregorian dates; the lunar ones are refused rather than guessed.
_FIXED_HOLIDAYS = {
    "元旦": (1, 1), "情人节": (2, 14), "妇女节": (3, 8), "愚人节": (4, 1), "劳动节": (5, 1),
    "五一": (5, 1), "青年节": (5, 4), "儿童节": (6, 1), "教师节": (9, 10), "国庆节": (10, 1),
    "国庆": (10, 1), "双十一": (11, 11), "双11": (11, 11), "平安夜": (12, 24), "圣诞节": (12, 25),
    "圣诞": (12, 25), "万圣节": (10, 31),
}
# 年前/年后 = around the lunar new year, except in 两年前 ("two years ago").
_MOVABLE_HOLIDAYS = (r"春节|过年|除夕|元宵节?|清明节?|端午节?|七夕|中秋节?|重阳节?|腊八节?|小年|冬至|中元节?|寒食节?"
                     r"|母亲节|父亲节|感恩节|复活节"
                     r"|(?<![\d一二两三四五六七八九十几])年[前后]")


def _prefix(raw: str | None) -> str:
    return (raw or "").replace("个", "")


def _day_or_invalid(day: date | None) -> Fragment:
    """A day fragment, or a refusal when the date does not exist (2月30日)."""
    if day is None:
        return Fragment(vague=AmbiguityReason.INVALID_DATE)
    return Fragment(day=day)


def _day_word(m: re.Match[str], ctx: Context) -> Fragment:
    offset, period = _DAY_WORDS[m[0]]
    return Fragment(day=ctx.today + timedelta(days=offset), period=period)


def _weekday(m: re.Match[str], ctx: Context) -> Fragment:
    weekday, prefix = _WEEKDAYS[m["d"]], _prefix(m["prefix"])
    if not prefix:
        # Bare 周X: the coming one, today included; next week's once its moment has passed.
        return Fragment(day=cal.upcoming_weekday(ctx.today, weekday), roll_days=7)
    # 这周X keeps this week even when already past (then flagged past); 下周X = next week's X.
    return Fragment(day=cal.weekday_in_week(ctx.today, _WEEKS_AHEAD[prefix], weekday))


def _week(m: re.Match[str], ctx: Context) -> Fragment:
    weeks, suffix = _WEEKS_AHEAD[_prefix(m["prefix"])], m["suffix"] or ""
    if suffix in _BEFORE and weeks > 0:  # 下周之前 = before next week = end of this week
        return Fragment(day=cal.end_of_week(ctx.today, weeks - 1))
    if suffix or weeks <= 0:  # 这周, 本周内, 下周内
        return Fragment(day=cal.end_of_week(ctx.today, max(weeks, 0)))
    return Fragment(vague=AmbiguityReason.WEEK_WITHOUT_DAY)  # 下周: which day?


def _weekend(m: re.Match[str], ctx: Context) -> Fragment:
    prefix = m["prefix"]
    if prefix is None and not m["suffix"]:  # 周末 alone: which weekend, and which day?
        return Fragment(vague=AmbiguityReason.WEEKEND, choices=cal.weekend_choices(ctx.today))
    # A weekend as a deadline means its last day, Sunday; 周末前 too, because "X前" is the end of
    # day X (product promise, tuning4; it was Friday, "before the weekend starts", until then).
    return Fragment(day=cal.end_of_week(ctx.today, _WEEKS_AHEAD[_prefix(prefix)]))


def _holiday(m: re.Match[str], ctx: Context) -> Fragment:
    # The coming one, today included: a holiday is never "overdue".
    return Fragment(day=cal.upcoming_annual(ctx.today, *_FIXED_HOLIDAYS[m[0]]), names_holiday=True)


def _month_part(m: re.Match[str], ctx: Context) -> Fragment:
    # 月初/月中/上旬/中旬/下旬 and anything "左右" are ranges of days, not a day: picking the 1st
    # or the 15th put a date on the task the student never said. Only 月底/月末 is one day.
    if m["part"] not in ("底", "末") or m["approx"]:
        return Fragment(vague=AmbiguityReason.VAGUE_TIME)
    if m["m"]:
        month = parse_number(m["m"])
        if month is None or not 1 <= month <= 12:
            return Fragment(vague=AmbiguityReason.INVALID_DATE)
        near = cal.month_day_near(ctx.today, month, cal.last_day_of_month(ctx.today.year, month))
        assert near is not None  # a month's last day always exists
        return Fragment(day=cal.month_end(near))
    if m["which"]:
        return Fragment(day=cal.month_end(ctx.today, _MONTHS_AHEAD[_prefix(m["which"])]))
    return Fragment(day=cal.month_end(ctx.today))  # bare 月底: this month's, never passed


def _before_month(m: re.Match[str], ctx: Context) -> Fragment:
    # 6月前 = by the end of May, as 下个月之前 = by the end of this month (tuning4: "6月前完成个人项目"
    # had no date and kept "6月前" in its title).
    return _day_or_invalid(cal.before_month(ctx.today, parse_number(m["m"]) or 0))


def _month_only(m: re.Match[str], ctx: Context) -> Fragment:
    months, suffix = _MONTHS_AHEAD[_prefix(m["which"])], m["suffix"] or ""
    if suffix in _BEFORE and months > 0:  # 下个月之前 = end of this month
        return Fragment(day=cal.month_end(ctx.today, months - 1))
    if suffix or months == 0:  # 本月, 这个月内, 下个月内
        return Fragment(day=cal.month_end(ctx.today, months))
    return Fragment(vague=AmbiguityReason.MONTH_WITHOUT_DAY)


def _month_day_of(m: re.Match[str], ctx: Context) -> Fragment:
    first, day = cal.month_start(ctx.today, _MONTHS_AHEAD[_prefix(m["which"])]), parse_number(m["d"])
    return _day_or_invalid(cal.safe_date(first.year, first.month, day or 0))


def _year_end(m: re.Match[str], ctx: Context) -> Fragment:
    year = ctx.today.year + (1 if m["which"] == "明年" else 0)
    return Fragment(day=date(year, 12, 31))


def _absolute(m: re.Match[str], ctx: Context) -> Fragment:
    month, day = parse_number(m["m"]) or 0, parse_number(m["d"]) or 0
    if m["y"]:
        return _day_or_invalid(cal.safe_date(int(m["y"]), month, day))
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return Fragment(vague=AmbiguityReason.INVALID_DATE)
    return _day_or_invalid(cal.month_day_near(ctx.today, month, day))


def _day_of_month(m: re.Match[str], ctx: Context) -> Fragment | None:
    day = parse_number(m["d"])
    if day is None or not 1 <= day <= 31:
        return None
    return _day_or_invalid(cal.upcoming_day_of_month(ctx.today, day))


def _relative(m: re.Match[str], ctx: Context) -> Fragment | None:
    count, half, unit = parse_number(m["n"]) if m["n"] else 0, bool(m["half"]), m["unit"]
    if count is None or (not count and not half):
        return None
    if unit in ("小时", "钟头", "分钟"):
        minutes = count * 60 + (30 if half else 0) if unit != "分钟" else count
        return Fragment(instant=ctx.after(timedelta(minutes=minutes)))
    if half and unit == "月" and not count:  # 半个月后 = in 15 days
        return Fragment(day=ctx.today + timedelta(days=15))
    if half:  # 半天后, 一个半月后: too loose for a date
        return Fragment(vague=AmbiguityReason.VAGUE_TIME)
    if unit in ("天", "日"):
        return Fragment(day=ctx.today + timedelta(days=count))
    if unit == "月":
        return Fragment(day=cal.add_months(ctx.today, count))
    return Fragment(day=ctx.today + timedelta(weeks=count))


def _duration(m: re.Match[str], ctx: Context) -> Fragment | None:
    count, half, unit = parse_number(m["n"]) if m["n"] else 0, bool(m["half"]), m["unit"]
    if count is None or (not count and not half):
        return None
    if unit.startswith("节"):
        return Fragment(duration_minutes=count * 45)  # one section is 45 minutes
    per_unit = 1 if unit == "分钟" else 60
    return Fragment(duration_minutes=count * per_unit + (30 if half else 0))


def _clock(m: re.Match[str], ctx: Context) -> Fragment | None:
    hour = parse_number(m["h"])
    if m.groupdict().get("half"):
        minute: int | None = 30
    elif m.groupdict().get("quarter"):
        minute = 15 if m["quarter"] == "一刻" else 45
    else:
        minute = parse_number(m["m"]) if m["m"] else 0
    if hour is None or minute is None or hour > 24 or minute > 59:
        return None
    period = _PERIODS.get(m["period"] or "") or _SHORT_PERIODS.get(m.groupdict().get("short") or "")
    return Fragment(clock=Clock(hour, minute), period=period)


def _period(m: re.Match[str], ctx: Context) -> Fragment:
    return Fragment(period=_PERIODS[m[0]])


def _midnight(m: re.Match[str], ctx: Context) -> Fragment:
    return Fragment(clock=Clock(24, 0, midnight=True))


def _const(fragment: Fragment) -> Handler:
    return lambda m, ctx: fragment


def _rule(name: str, pattern: str, handler: Handler) -> Rule:
    return Rule(name, re.compile(pattern), handler)


# "一点" in 快一点/早一点 means "a bit", not 1 o'clock (other hours after 晚 are fine: 明晚8点).
_NOT_A_BIT = r"(?!(?<=[早晚快多慢好差少大小有些])一点)"
_MINUTES = r"(?:(?P<half>半)|(?P<quarter>一刻|三刻)|(?P<m>\d{1,2}|[零〇一二三四五六七八九十]{1,3})分?)"

RULES: tuple[Rule, ...] = (
    _rule("zh_recurring", _RECURRING, _const(Fragment(vague=AmbiguityReason.RECURRING))),
    # 周三四, 下周一二: two days in one breath (每周一三五 is recurring, matched from 每).
    _rule("zh_weekday_list", rf"(?:{_WEEK_PREFIX})?(?:周|星期|礼拜)[一二三四五六日天](?:[、和或/]?[一二三四五六日天])+"
                             r"(?![点时:\d级])", _const(Fragment(vague=AmbiguityReason.CONFLICTING_DATES))),
    # 明后天, 今明两天: two days in one word.
    _rule("zh_day_pair", r"(?:今明|明后)(?:两)?天|今明两日|明后两日",
          _const(Fragment(vague=AmbiguityReason.CONFLICTING_DATES))),
    # 三四点, 八九点, 十一二点, 3-5点, 3到5点, 三或四点: two hours in one breath, not a time.
    _rule("zh_clock_pair", rf"(?:(?:{_PERIOD}) ?)?(?:[一二两三四五六七八九]{{2}}|十一二"
                           r"|(?:\d{1,2}|[一二两三四五六七八九十]{1,2}) ?(?:[-~到至或]|或者)"
                           r" ?(?:\d{1,2}|[一二两三四五六七八九十]{1,2}))点钟?",
          _const(Fragment(vague=AmbiguityReason.VAGUE_TIME))),
    _rule("zh_free", _FREE, _const(Fragment(free_time=True))),
    _rule("zh_vague", _VAGUE, _const(Fragment(vague=AmbiguityReason.VAGUE_TIME))),
    _rule("zh_urgency_adverb", _URGENCY_ADVERB, _const(Fragment())),
    _rule("zh_vague_soft", _VAGUE_SOFT,
          _const(Fragment(vague=AmbiguityReason.VAGUE_TIME, vague_yields_to_date=True))),
    _rule("zh_after_event", _AFTER_EVENT, _const(Fragment(
        vague=AmbiguityReason.VAGUE_TIME, vague_yields_to_date=True, names_event=True))),
    _rule("zh_life_event", _LIFE_EVENT, _const(Fragment(
        vague=AmbiguityReason.VAGUE_TIME, vague_yields_to_date=True, names_event=True))),
    _rule("zh_holiday", "|".join(sorted(_FIXED_HOLIDAYS, key=len, reverse=True)), _holiday),
    _rule("zh_movable_holiday", _MOVABLE_HOLIDAYS,
          _const(Fragment(vague=AmbiguityReason.MOVABLE_HOLIDAY, names_holiday=True))),
    _rule("zh_day_word", "|".join(sorted(_DAY_WORDS, key=len, reverse=True)), _day_word),
    _rule("zh_weekday", rf"(?P<prefix>{_WEEK_PREFIX})?(?:周|星期|礼拜|週)(?:的?(?:周|星期|礼拜))?"
                        r"(?P<d>[一二三四五六日天1-7])", _weekday),
    _rule("zh_weekend", r"(?P<prefix>(?<!一)下下个?|(?<!一)下个?|这个?|本)?周末(?P<suffix>之前|以前|前)?", _weekend),
    _rule("zh_week", r"(?P<prefix>(?<!一)下下个?|(?<!一)下个?|这个?|本)(?:周|星期|礼拜)"
                     r"(?P<suffix>之前|以前|前|之内|以内|内)?", _week),
    _rule("zh_month_part", rf"(?:(?P<which>{_MONTH_WHICH})|(?P<m>{NUM}))?个?月(?P<part>底|末|初|上旬|中旬|下旬|中)"
                           r"(?P<approx>左右|前后)?", _month_part),
    # 上旬 / 下旬 without a month, 上半月 / 下半年: still ranges of days.
    _rule("zh_ten_days", r"(?:上|中|下)旬(?:左右|前后)?|(?:上|下)半(?:个?月|年)",
          _const(Fragment(vague=AmbiguityReason.VAGUE_TIME))),
    _rule("zh_month_only", rf"(?P<which>{_MONTH_WHICH})月(?P<suffix>之前|以前|前|之内|以内|内)?",
          _month_only),
    _rule("zh_before_month", rf"(?P<m>{NUM})月份?(?:之前|以前|前)", _before_month),
    _rule("zh_month_day_of", rf"(?P<which>{_MONTH_WHICH})月(?P<d>{NUM})[号日]?", _month_day_of),
    _rule("zh_year_end", r"(?P<which>今年|明年|本年)?年(?:底|末)|(?:今年|本年)(?:之内|以内|内)"
                         r"|(?<![\d一二两三四五六七八九十几去明前后])年内", _year_end),
    # a bare 月内 / 周内 is "within this month / week", as 本月内 / 本周内.
    _rule("zh_bare_month_within", r"(?<![\d一二两三四五六七八九十几个这本下上每])月内",
          lambda m, ctx: Fragment(day=cal.month_end(ctx.today))),
    _rule("zh_bare_week_within", r"(?<![\d一二两三四五六七八九十几个这本下上每])(?:周|星期|礼拜)内",
          lambda m, ctx: Fragment(day=cal.end_of_week(ctx.today, 0))),
    _rule("zh_absolute", rf"(?:(?P<y>\d{{4}})年)?(?P<m>{NUM})月(?P<d>{NUM})[日号]?", _absolute),
    _rule("zh_day_of_month", rf"(?<![\d月])(?P<d>{NUM})[号日](?![楼线床房室号门])", _day_of_month),
    _rule("zh_relative", rf"(?P<n>{NUM})?(?:个)?(?P<half>半)?(?:个)?(?P<unit>天|日|周|星期|礼拜|月|小时|钟头|分钟)"
                         r"(?:之后|以后|后|之内|以内|内)", _relative),
    _rule("zh_duration", rf"(?:花|用)?(?<!第)(?P<n>{NUM})?(?:个)?(?P<half>半)?(?:个)?(?P<unit>小时|钟头|分钟|节课|节)",
          _duration),
    _rule("zh_clock_colon", rf"(?:(?P<period>{_PERIOD}) ?)?(?P<h>\d{{1,2}}):(?P<m>\d{{2}})", _clock),
    _rule("zh_clock", rf"(?:(?P<period>{_PERIOD})"
                      rf"|(?<![今明昨傍一])(?P<short>[早晚])(?=[\d一二三四五六七八九十两]{{1,2}}点)|{_NOT_A_BIT})"
                      rf"(?P<h>{NUM})点钟?{_MINUTES}?", _clock),
    _rule("zh_midnight", r"午夜|半夜", _midnight),
    # 早八 = the 8 a.m. class, students' slang for an early start.
    _rule("zh_early_class", r"早(?P<h>[六七八九十])(?![点\d百千万])",
          lambda m, ctx: Fragment(clock=Clock(parse_number(m["h"]) or 8), period=Period.MORNING)),
    # 晚八 = 8 p.m., as 早八 is 8 a.m. (明天晚八 gave the end of the day)
    _rule("zh_evening_short", r"(?<![今明昨傍])晚(?P<h>[六七八九十])(?![点\d百千万])",
          lambda m, ctx: Fragment(clock=Clock(parse_number(m["h"]) or 8), period=Period.EVENING)),
    # 周日晚 八点半: a lone 晚 right after a weekday is that day's evening
    _rule("zh_weekday_evening", r"(?<=[周期拜][一二三四五六日天1-7])晚(?![上饭餐会安自间])",
          _const(Fragment(period=Period.EVENING))),
    # 调休 / 补班 say why the day is a workday, not the task; 调休那天 needs the holiday calendar.
    _rule("zh_makeup_day", r"调休|补班", _const(Fragment())),
    _rule("zh_makeup_day_unnamed", r"(?:调休|补班)(?:的)?(?:那天|当天|那一天)",
          _const(Fragment(vague=AmbiguityReason.VAGUE_TIME))),
    # 十一 is National Day only as a time: 十一前, 十一之前 (十一点 is a clock, 十一月 a month)
    _rule("zh_national_day", r"十一(?=之?前|以前)",
          lambda m, ctx: Fragment(day=cal.upcoming_annual(ctx.today, 10, 1), names_holiday=True)),
    # 6月份 / "6月 " alone: a month, not a day (五月房租 names the rent: no 份, no pause after it)
    _rule("zh_month_alone", rf"(?<![\d个第])(?P<m>{NUM})月(?:份(?![\d零〇一二两三四五六七八九十号日初中底末前内旬])|(?=\s|$))",
          lambda m, ctx: Fragment(vague=AmbiguityReason.MONTH_WITHOUT_DAY) if 1 <= (parse_number(m["m"]) or 0) <= 12
          else None),
    _rule("zh_period", _PERIOD, _period),
)
