"""The pieces of time the rules recognise, before they are combined into one deadline."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from enum import StrEnum

from .result import AmbiguityReason


class Period(StrEnum):
    """A part of the day named without (or besides) a clock time."""

    EARLY_MORNING = "early_morning"  # 凌晨
    MORNING = "morning"  # 早上, 上午, morning
    NOON = "noon"  # 中午
    AFTERNOON = "afternoon"  # 下午, afternoon
    DUSK = "dusk"  # 傍晚
    EVENING = "evening"  # 晚上, 今晚, tonight, evening, night
    END_OF_DAY = "end_of_day"  # EOD


# The time a period means when no clock is given; 傍晚 is dusk (18:00), earlier than the evening's
# 20:00. A deadline "明天上午" therefore means 09:00: early on purpose, a reminder that comes early
# is cheaper than one that comes late.
PERIOD_DEFAULT_TIME = {
    Period.EARLY_MORNING: time(1, 0),
    Period.MORNING: time(9, 0),
    Period.NOON: time(12, 0),
    Period.AFTERNOON: time(15, 0),
    Period.DUSK: time(18, 0),
    Period.EVENING: time(20, 0),
    Period.END_OF_DAY: time(23, 59),
}

END_OF_DAY = time(23, 59)


@dataclass(frozen=True)
class Clock:
    """A clock time as written: hour 0..24, and whether am/pm or a period fixed the half-day."""

    hour: int
    minute: int = 0
    meridiem: str | None = None  # "am" / "pm" when written
    midnight: bool = False  # 午夜, midnight: the last minute of that day


@dataclass(frozen=True)
class Fragment:
    """One recognised time phrase: a day, a clock, a period, an instant, or a refusal.

    `roll_days` says how far to move an *implicit* day whose moment has already passed:
    7 for a bare weekday (周三下午3点 said Wednesday 16:00 means next Wednesday).
    """

    start: int = 0
    end: int = 0
    day: date | None = None
    roll_days: int = 0
    clock: Clock | None = None
    period: Period | None = None
    instant: datetime | None = None
    free_time: bool = False
    vague: AmbiguityReason | None = None
    # A refusal's plausible days (周末 -> this Saturday, this Sunday), offered as choices, not picked.
    choices: tuple[date, ...] = ()
    # Soft vague words (晚点, 尽快, later, soon) only refuse when nothing else dates the note:
    # "今天晚点交" is today, "call mom later" is vague.
    vague_yields_to_date: bool = False
    duration_minutes: int | None = None
    keep_in_title: bool = False  # "movie night": a time hint that is also part of the task's name
    # An event the note waits for (考完试, 毕业前, after class): it names the task when another phrase
    # dates the note (考完试聚餐 周五晚上), and is only a time we cannot date otherwise (考完试 剪个头);
    # either way it says nothing about the task's kind (an exam does not make the meal important).
    names_event: bool = False
    # "movie night" only says pm for a clock ("movie night sat at 8" = 20:00); alone it is
    # the task's name, so "movie night sat" is Saturday, not Saturday 20:00.
    period_needs_clock: bool = False
    # a holiday's name (万圣节, halloween): "明天晚上万圣节派对" names the party with it.
    names_holiday: bool = False
    # "交周一实验课的报告 周五前": 周一 names the course, not the deadline (see object_days.py).
    describes_task: bool = False

    @property
    def is_timing(self) -> bool:
        """Whether the fragment says something about *when* (durations and task words do not)."""
        return self.duration_minutes is None and not self.describes_task


@dataclass(frozen=True)
class Context:
    """What rules may look at: the normalised text and the local `now`."""

    text: str
    now: datetime  # aware, in the user's zone
    cjk: bool
    semester_start: date | None = None  # Monday of the student's week 1, when the caller knows it

    @property
    def today(self) -> date:
        return self.now.date()

    def after(self, elapsed: timedelta) -> datetime:
        """The instant `elapsed` after now, in now's zone.

        Computed in UTC because aware arithmetic within one zone is wall-clock arithmetic:
        "in 2 hours" at 01:30 on a spring-forward night is 04:30, not 03:30.
        """
        return (self.now.astimezone(UTC) + elapsed).astimezone(self.now.tzinfo)


Handler = Callable[[re.Match[str], Context], Fragment | None]


@dataclass(frozen=True)
class Rule:
    """A pattern and the function turning its match into a fragment (None = not a time)."""

    name: str
    pattern: re.Pattern[str]
    handler: Handler
