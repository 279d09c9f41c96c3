"""Reminder arithmetic without the database: quiet hours (across midnight too) and when a deadline reminds."""

from __future__ import annotations

from datetime import datetime, time


def in_quiet_hours(local: time, start: time | None, end: time | None) -> bool:
    """Whether a local wall-clock time falls in [start, end); 23:00-07:00 runs over midnight."""
    if start is None or end is None or start == end:
        return False
    if start < end:
        return start <= local < end
    return local >= start or local < end  # the range wraps past midnight


def deadline_reminder_time(deadline_local: datetime, remind_at: time) -> time:
    """When a deadline's day reminds: at ``remind_at``, or from midnight for a deadline earlier than that."""
    return remind_at if remind_at < deadline_local.time() else time(0)


def deadline_reminder_due(*, now_local: datetime, deadline_local: datetime, remind_at: time) -> bool:
    """A deadline today reminds from its reminder time on that day until it passes."""
    if deadline_local.date() != now_local.date() or now_local >= deadline_local:
        return False
    return now_local.time() >= deadline_reminder_time(deadline_local, remind_at)
