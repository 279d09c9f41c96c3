"""Combine the recognised fragments into one deadline, or refuse with a reason."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from . import calendar_math as cal
from .fragments import END_OF_DAY, PERIOD_DEFAULT_TIME, Clock, Context, Fragment, Period
from .result import AmbiguityReason, NoDeadlineReason, Reading


@dataclass(frozen=True)
class Resolution:
    deadline: datetime | None
    has_time: bool = False
    is_past: bool = False
    ambiguity: AmbiguityReason | None = None
    no_deadline: NoDeadlineReason | None = None
    readings: tuple[Reading, ...] = ()
    by_convention: bool = False  # a default the text did not state filled a gap (see result.py)


def resolve_deadline(fragments: list[Fragment], ctx: Context) -> Resolution:
    """The deadline the fragments describe, in the zone of `ctx.now`."""
    timing = [fragment for fragment in fragments if fragment.is_timing]
    refusal = _refusal(timing)
    if refusal is not None:
        return _refused(refusal, _choice_days(refusal, timing), timing, ctx)
    instants = {fragment.instant for fragment in timing if fragment.instant}
    if instants:
        return _at_instant(instants.pop(), ctx)
    days = [fragment for fragment in timing if fragment.day]
    clock = next((fragment.clock for fragment in timing if fragment.clock), None)
    period = next((fragment.period for fragment in timing
                   if fragment.period and (clock is not None or not fragment.period_needs_clock)), None)
    if not days and clock is None and period is None:
        free = any(fragment.free_time for fragment in timing)
        return Resolution(None, no_deadline=NoDeadlineReason.FREE_TIME if free else NoDeadlineReason.NOT_GIVEN)
    return _on_day(days, clock, period, ctx)


def _refusal(timing: list[Fragment]) -> AmbiguityReason | None:
    """Why these fragments cannot give one deadline, if they cannot."""
    dated = any(fragment.day or fragment.instant or fragment.clock for fragment in timing)
    vague = next((f.vague for f in timing if f.vague and not (f.vague_yields_to_date and dated)), None)
    if vague is not None:
        return vague
    anchors = {fragment.day for fragment in timing if fragment.day}
    anchors |= {fragment.instant for fragment in timing if fragment.instant}
    if len(anchors) > 1:  # 明天或者后天; tomorrow or Friday
        return AmbiguityReason.CONFLICTING_DATES
    clocks = {fragment.clock for fragment in timing if fragment.clock}
    periods = {fragment.period for fragment in timing if fragment.period and not fragment.period_needs_clock}
    has_instant = any(fragment.instant for fragment in timing)
    if len(clocks) > 1 or len(periods) > 1 or (has_instant and (clocks or periods)):
        return AmbiguityReason.CONFLICTING_TIMES
    return None


def _refused(reason: AmbiguityReason, days: list[date], timing: list[Fragment], ctx: Context) -> Resolution:
    clocks = {fragment.clock for fragment in timing if fragment.clock}
    periods = {fragment.period for fragment in timing if fragment.period and not fragment.period_needs_clock}
    readings: tuple[Reading, ...] = ()
    if len(clocks) <= 1 and len(periods) <= 1:  # 周末晚上 -> Saturday 20:00 or Sunday 20:00
        time_of_day, has_time = _time_of_day(next(iter(clocks), None), next(iter(periods), None))
        moments = sorted({_combine(day, time_of_day, ctx) for day in days})
        readings = tuple(Reading(moment, has_time=has_time, is_past=moment < ctx.now,
                                 weeks_ahead=cal.weeks_between(ctx.today, moment.date())) for moment in moments)
    return Resolution(None, ambiguity=reason, no_deadline=NoDeadlineReason.AMBIGUOUS, readings=readings)


def _choice_days(reason: AmbiguityReason, timing: list[Fragment]) -> list[date]:
    """The days a refusal could mean: its fragments' own choices, or the two days 明天或者后天 names."""
    choices = [day for fragment in timing if fragment.vague is reason for day in fragment.choices]
    if choices:
        return choices
    if reason is AmbiguityReason.CONFLICTING_DATES and not any(fragment.instant for fragment in timing):
        return [fragment.day for fragment in timing if fragment.day]
    return []


def _at_instant(instant: datetime, ctx: Context) -> Resolution:
    # Minute precision: "2小时后" said at 10:15:42 means 12:15.
    deadline = instant.astimezone(ctx.now.tzinfo).replace(second=0, microsecond=0)
    return Resolution(deadline, has_time=True, is_past=deadline < ctx.now)


def _on_day(days: list[Fragment], clock: Clock | None, period: Period | None, ctx: Context) -> Resolution:
    time_of_day, has_time = _time_of_day(clock, period)
    if days:
        day = days[0].day
        # An explicit day anywhere (这周三, 3月11日) wins over the roll of a bare weekday.
        roll = min(fragment.roll_days for fragment in days)
    else:
        # A time alone (8pm, 晚上8点) means today if still ahead, else tomorrow.
        day, roll = ctx.today, 1
    assert day is not None
    if roll == 7 and day == ctx.today and clock is None and period is None:
        # 周五交 said on a Friday (QUICK-ADD.md "a weekday alone"): today, or next week's Friday?
        return _refused(AmbiguityReason.WEEKDAY_IS_TODAY, [day, day + timedelta(days=7)], [], ctx)
    deadline = _combine(day, time_of_day, ctx)
    rolled = bool(roll) and deadline <= ctx.now
    if rolled:
        deadline = _combine(day + timedelta(days=roll), time_of_day, ctx)
    guessed_half_day = clock is not None and clock.meridiem is None and period is None and 1 <= clock.hour <= 6
    return Resolution(deadline, has_time=has_time, is_past=deadline < ctx.now,
                      by_convention=rolled or guessed_half_day)


def _combine(day: date, time_of_day: time, ctx: Context) -> datetime:
    return datetime.combine(day, time_of_day, tzinfo=ctx.now.tzinfo)


def _time_of_day(clock: Clock | None, period: Period | None) -> tuple[time, bool]:
    """The wall-clock time and whether the text gave one (False = the 23:59 default)."""
    if clock is None:
        if period is None or period is Period.END_OF_DAY:
            return END_OF_DAY, False
        return PERIOD_DEFAULT_TIME[period], True
    hour = _hour_24(clock, period)
    if clock.midnight or hour >= 24:
        return END_OF_DAY, True  # 今晚12点 / midnight: the last minute of that day
    return time(hour, clock.minute), True


def _hour_24(clock: Clock, period: Period | None) -> int:
    hour = clock.hour
    if clock.meridiem == "24h":
        return hour
    if clock.meridiem == "am":
        return 0 if hour == 12 else hour
    if clock.meridiem == "pm":
        return hour if hour == 12 else hour + 12
    if period is not None:
        return _hour_in_period(hour, period)
    # A bare 1..6 ("明天3点", "at 5") is afternoon: students do not schedule 3 a.m. tasks.
    return hour + 12 if 1 <= hour <= 6 else hour


def _hour_in_period(hour: int, period: Period) -> int:
    if period is Period.EARLY_MORNING:
        return 0 if hour == 12 else hour
    if period is Period.NOON:
        return hour + 12 if 1 <= hour <= 6 else hour
    if period in (Period.AFTERNOON, Period.DUSK):
        return hour + 12 if hour < 12 else hour
    if period is Period.EVENING:
        return hour + 12 if hour <= 12 else hour  # 晚上12点 = 24 = midnight
    return hour
