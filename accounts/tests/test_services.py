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


def test_a_check_inside_an_open_window_reads_the_user_once_and_writes_nothing(user, django_assert_num_queries):
    token_usage_record(user=user, tokens=10, now=NOW)
    with django_assert_num_queries(1):  # the usage read; the window is known to be open from the copy in hand
        assert token_quota_check(user=user, now=NOW + timedelta(days=6)) == user.token_limit - 10


def test_the_first_window_keeps_what_was_counted_and_an_expired_one_starts_from_zero(user):
    type(user).objects.filter(pk=user.pk).update(token_usage=50, token_window_started_at=None)
    user.refresh_from_db()
    assert token_quota_check(user=user, now=NOW) == user.token_limit - 50
    assert (user.token_usage, user.token_window_started_at) == (50, NOW)
    stale = type(user).objects.get(pk=user.pk)  # another turn's copy, read before the window expired
    assert token_quota_check(user=user, now=NOW + timedelta(days=7, seconds=1)) == user.token_limit
    assert token_quota_check(user=stale, now=NOW + timedelta(days=7, seconds=2)) == user.token_limit  # reset once
    assert stale.token_window_started_at == NOW + timedelta(days=7, seconds=1)
