"""The signed-in student's profile and calendar settings over the API."""

from __future__ import annotations

from accounts.models import CalendarSettings


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


def test_calendar_defaults_to_the_twelve_section_cqupt_day(auth_client):
    body = auth_client.get("/api/v1/me/calendar/").json()
    assert body["semester_start"] == "2026-09-07"
    assert body["semester_end"] == "2027-01-24"
    assert len(body["sections"]) == 12
    assert body["sections"][0] == {"section": 1, "start": "08:00", "end": "08:45"}
    assert body["sections"][10] == {"section": 11, "start": "20:50", "end": "21:35"}


def test_calendar_accepts_a_sixteen_section_template(auth_client, user):
    sections = [{"start": f"{7 + n:02d}:00", "end": f"{7 + n:02d}:45"} for n in range(16)]
    response = auth_client.put("/api/v1/me/calendar/", {"semester_start": "2027-02-22", "semester_weeks": 18,
                                                        "sections": sections}, format="json")
    assert response.status_code == 200
    calendar = CalendarSettings.objects.get(user=user)
    assert (calendar.semester_weeks, len(calendar.section_times)) == (18, 16)


def test_calendar_refuses_a_start_that_is_not_a_monday(auth_client):
    response = auth_client.put("/api/v1/me/calendar/", {"semester_start": "2027-02-23"}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == {"semester_start": ["Week 1 must start on a Monday."]}


def test_calendar_refuses_overlapping_sections_and_writes_nothing(auth_client, user):
    sections = [{"start": "08:00", "end": "08:45"}, {"start": "08:30", "end": "09:15"}]
    response = auth_client.put("/api/v1/me/calendar/", {"semester_weeks": 10, "sections": sections}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == {"section_times": ["Section 2 starts before section 1 ends."]}
    calendar = CalendarSettings.objects.get(user=user)
    assert (calendar.semester_weeks, len(calendar.section_times)) == (20, 12)


def test_calendar_refuses_more_than_sixteen_sections(auth_client):
    sections = [{"start": "08:00", "end": "08:10"}] * 17
    response = auth_client.put("/api/v1/me/calendar/", {"sections": sections}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == {"sections": {"non_field_errors": ["Ensure this field has no more than 16 elements."]}}
