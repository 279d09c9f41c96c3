"""Account services: the weekly token quota."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from accounts.exceptions import TokenQuotaExceededError
from accounts.services import token_quota_check, token_usage_record

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def test_quota_counts_usage_and_refuses_when_spent(user):
    user.token_limit = 1000
    user.save()
    token_usage_record(user=user, tokens=600, now=NOW)
    assert token_quota_check(user=user, now=NOW) == 400
    token_usage_record(user=user, tokens=400, now=NOW)
    with pytest.raises(TokenQuotaExceededError) as error:
        token_quota_check(user=user, now=NOW)
    assert error.value.detail["used"] == 1000
    assert error.value.detail["resets_at"] == (NOW + timedelta(days=7)).isoformat()


def test_quota_window_resets_a_week_after_it_opened(user):
    user.token_limit = 1000
    user.save()
    token_usage_record(user=user, tokens=1000, now=NOW)
    assert token_quota_check(user=user, now=NOW + timedelta(days=7)) == 1000
