"""Date arithmetic with the week and month conventions of the quick-add rules.

Weeks start on Monday (as in the semester time model), so 下周X / next X is day X of the
calendar week after this one, and "end of the week" is Sunday.
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta

# An explicit month/day that lies at most this far in the past keeps this year (and is
# flagged past: "3月10日交" written on 03-11 is an overdue task, not next year's);
# further back it means next year ("1月5日" written in late December).
PAST_DATE_GRACE = timedelta(days=30)


def monday_of(day: date) -> date:
    """The Monday of the week containing `day`."""
    return day - timedelta(days=day.isoweekday() - 1)


def weeks_between(today: date, day: date) -> int:
    """Calendar weeks from today's week to the week of `day` (0: the same week, 1: next week)."""
    return (monday_of(day) - monday_of(today)).days // 7


def weekday_in_week(today: date, weeks_ahead: int, weekday: int) -> date:
    """Day `weekday` (1=Mon..7=Sun) of the week `weeks_ahead` weeks after today's."""
    return monday_of(today) + timedelta(weeks=weeks_ahead, days=weekday - 1)


def upcoming_weekday(today: date, weekday: int) -> date:
    """The next day with this weekday, today included."""
    return today + timedelta(days=(weekday - today.isoweekday()) % 7)


def end_of_week(today: date, weeks_ahead: int = 0) -> date:
    """The Sunday closing the week `weeks_ahead` weeks after today's."""
    return weekday_in_week(today, weeks_ahead, 7)


def weekend_choices(today: date) -> tuple[date, ...]:
    """The days "the weekend" may mean: this weekend's days still ahead, and next Sunday once it has begun."""
    this_weekend = [day for day in (weekday_in_week(today, 0, 6), end_of_week(today)) if day >= today]
    if today.isoweekday() >= 6:
        this_weekend.append(end_of_week(today, 1))
    return tuple(this_weekend)


def add_months(day: date, months: int) -> date:
    """Same day-of-month `months` later, clamped to the month's last day (01-31 + 1 = 02-28)."""
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    return date(year, month, min(day.day, last_day_of_month(year, month)))


def last_day_of_month(year: int, month: int) -> int:
    return calendar.monthrange(year, month)[1]


def month_end(today: date, months_ahead: int = 0) -> date:
    """The last day of this month (or of a later one)."""
    first = add_months(today.replace(day=1), months_ahead)
    return first.replace(day=last_day_of_month(first.year, first.month))


def month_start(today: date, months_ahead: int) -> date:
    return add_months(today.replace(day=1), months_ahead)


def before_month(today: date, month: int) -> date | None:
    """6月前 / "before June": the last day before the coming 1st of that month (None: no month 13)."""
    if not 1 <= month <= 12:
        return None
    first = date(today.year, month, 1)
    if first <= today:  # 3月前 said in March or later: next year's March
        first = date(today.year + 1, month, 1)
    return first - timedelta(days=1)


def safe_date(year: int, month: int, day: int) -> date | None:
    """The date, or None when it does not exist (2月30日, month 13)."""
    try:
        return date(year, month, day)
    except ValueError:
        return None


def month_day_near(today: date, month: int, day: int) -> date | None:
    """An explicit month/day without a year: this year, or next year once long past."""
    this_year = safe_date(today.year, month, day)
    if this_year is None:
        # 2月29日 only exists in leap years: try next year before giving up.
        return safe_date(today.year + 1, month, day)
    if this_year >= today - PAST_DATE_GRACE:
        return this_year
    return safe_date(today.year + 1, month, day)


def upcoming_annual(today: date, month: int, day: int) -> date:
    """The coming occurrence of a yearly date (a holiday), today included."""
    this_year = date(today.year, month, day)
    return this_year if this_year >= today else date(today.year + 1, month, day)


def upcoming_day_of_month(today: date, day: int) -> date | None:
    """X号 / the Xth: this month if not yet passed, else next month; None if that month lacks it."""
    if day >= today.day:
        return safe_date(today.year, today.month, day)
    next_month = month_start(today, 1)
    return safe_date(next_month.year, next_month.month, day)
