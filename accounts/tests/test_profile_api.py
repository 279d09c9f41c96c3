"""The signed-in student's profile over the API. (The calendar settings: schedule/tests/test_calendar_settings.py.)"""

from __future__ import annotations


def test_me_shows_the_quota_fields(auth_client, user):
    body = auth_client.get("/api/v1/me/").json()
    assert body == {"id": user.pk, "username": user.username, "email": user.email, "time_zone": "Asia/Shanghai",
                    "token_limit": user.token_limit, "token_usage": 0, "token_window_started_at": None}


def test_me_cannot_change_quota_or_username(auth_client, user):
    response = auth_client.patch("/api/v1/me/", {"token_limit": 10**9, "username": "root",
                                                 "time_zone": "Europe/Berlin"}, format="json")
    assert response.status_code == 200
    user.refresh_from_db()
    assert (user.username != "root", user.token_limit != 10**9, user.time_zone) == (True, True, "Europe/Berlin")
