"""Account services: semester guess and the weekly token quota."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from accounts.exceptions import TokenQuotaExceededError
from accounts.services import guess_semester_start, token_quota_check, token_usage_record

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(("today", "monday"), [
    (date(2026, 11, 30), date(2026, 9, 7)),
    (date(2027, 1, 10), date(2026, 9, 7)),
    (date(2027, 3, 15), date(2027, 3, 1)),
    (date(2026, 8, 20), date(2026, 9, 7)),
])
def test_semester_guess_is_the_monday_starting_the_current_term(today, monday):
    assert guess_semester_start(today) == monday


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
