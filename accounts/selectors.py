"""Reads about a student: the token quota. (The calendar and the semester week: schedule.selectors.)"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from accounts.models import User
from accounts.services import TOKEN_WINDOW


@dataclass(frozen=True)
class TokenQuota:
    """The assistant's weekly token quota as the student sees it; ``resets_at`` is None before the first use."""

    used: int
    limit: int
    resets_at: datetime | None

    @property
    def left(self) -> int:
        return max(0, self.limit - self.used)

    @property
    def percent_used(self) -> int:
        return 100 if self.limit <= 0 else min(100, round(100 * self.used / self.limit))


def token_quota_get(*, user: User, now: datetime | None = None) -> TokenQuota:
    """Return the quota of the current window; a window past its end counts as a fresh one (it resets on use)."""
    moment = now or timezone.now()
    started = user.token_window_started_at
    if started is None or started <= moment - TOKEN_WINDOW:
        return TokenQuota(used=0, limit=user.token_limit, resets_at=None)
    return TokenQuota(used=user.token_usage, limit=user.token_limit, resets_at=started + TOKEN_WINDOW)
