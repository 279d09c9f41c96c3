"""The reminders API (list, read, read all, settings), the settings page form, and the PWA files."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.tests.factories import UserFactory
from taskclasses.reminders.models import Reminder, ReminderSettings
from taskclasses.tests.factories import make_task_class, place_item


@pytest.fixture
def soon(user):
    """The student's study block starts in 5 minutes (real clock: the API produces as it lists)."""
    event = place_item(make_task_class(user, name="英语听力", items=1).items.get(), week=13, day=3, start=5)
    starts = timezone.now() + timedelta(minutes=5)
    type(event).objects.filter(pk=event.pk).update(starts_at=starts, ends_at=starts + timedelta(minutes=95))
    return event


def test_listing_produces_due_reminders_and_counts_the_unread(auth_client, soon):
    body = auth_client.get("/api/v1/reminders/").json()
    assert body["unread_count"] == 1
    assert [(r["kind"], r["read"], r["link"]) for r in body["reminders"]] == [("block_starting", False, "/board/?week=13")]
    assert body["reminders"][0]["text"].startswith("Study block “英语听力 #1” starts at ")


def test_reading_one_reminder_marks_it_read_once(auth_client, user, soon):
    reminder_id = auth_client.get("/api/v1/reminders/").json()["reminders"][0]["id"]
    first = auth_client.post(f"/api/v1/reminders/{reminder_id}/read/", HTTP_X_IDEMPOTENCY_KEY="read-1")
    again = auth_client.post(f"/api/v1/reminders/{reminder_id}/read/", HTTP_X_IDEMPOTENCY_KEY="read-1")
    assert (first.status_code, first.json()["read"]) == (200, True)
    assert again["Idempotent-Replayed"] == "true"
    assert auth_client.get("/api/v1/reminders/").json()["unread_count"] == 0


def test_reading_all_clears_the_count(auth_client, soon):
    auth_client.get("/api/v1/reminders/")
    assert auth_client.post("/api/v1/reminders/read-all/").json()["unread_count"] == 0


def test_another_students_reminder_is_not_found(auth_client):
    other = UserFactory()
    theirs = Reminder.objects.create(user=other, kind="plan_rotted", key="missed:2026-12-02", params={"count": 2})
    response = auth_client.post(f"/api/v1/reminders/{theirs.pk}/read/")
    assert (response.status_code, response.json()["code"]) == (404, "reminder_not_found")
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_settings_read_and_change_with_quiet_hours_across_midnight(auth_client, user):
    assert auth_client.get("/api/v1/reminders/settings/").json() == {
        "blocks_enabled": True, "block_lead_minutes": 10, "deadlines_enabled": True, "deadline_time": "09:00",
        "courses_enabled": False, "course_lead_minutes": 15, "quiet_start": None, "quiet_end": None}
    changed = auth_client.patch("/api/v1/reminders/settings/", {"quiet_start": "23:00", "quiet_end": "07:00",
                                                                "block_lead_minutes": 20}, format="json")
    assert changed.status_code == 200
    assert (changed.json()["quiet_start"], changed.json()["quiet_end"], changed.json()["block_lead_minutes"]) == \
        ("23:00", "07:00", 20)


@pytest.mark.parametrize("minutes", [0, 721])
def test_an_out_of_range_lead_time_is_a_400_with_its_code(auth_client, user, minutes):
    response = auth_client.patch("/api/v1/reminders/settings/", {"block_lead_minutes": minutes}, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "code": "lead_time_out_of_range",
        "message": f"A reminder comes 1 to 720 minutes ahead; {minutes} is out of range.",
        "detail": {"field": "block_lead_minutes", "min": 1, "max": 720, "value": minutes}}
    assert not ReminderSettings.objects.filter(user=user).exists()


def test_a_malformed_time_is_a_400(auth_client):
    response = auth_client.patch("/api/v1/reminders/settings/", {"quiet_start": "25:99"}, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"code", "message", "detail"}


# --- The settings page ---------------------------------------------------------------------------

def _page_client(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(user)
    return client


def test_the_settings_page_shows_the_reminder_card_in_chinese(user):
    page = _page_client(user).get("/accounts/settings/").content.decode()
    assert 'data-test="reminder-settings"' in page
    assert "免打扰时段（不播报；可以跨过午夜）" in page and 'value="10"' in page


def test_the_settings_form_saves_a_ten_minute_reminder_and_night_quiet_hours(user):
    client = _page_client(user)
    response = client.post("/reminders/settings/", {
        "blocks_enabled": "on", "block_lead_minutes": "10", "deadlines_enabled": "on", "deadline_time": "09:00",
        "course_lead_minutes": "15", "quiet_start": "22:00", "quiet_end": "06:30"}, follow=True)
    assert "提醒设置已保存。" in response.content.decode()
    saved = ReminderSettings.objects.get(user=user)
    assert (saved.block_lead_minutes, saved.courses_enabled, str(saved.quiet_start)) == (10, False, "22:00:00")


def test_the_settings_form_refuses_an_out_of_range_lead_time_in_chinese(user):
    response = _page_client(user).post("/reminders/settings/", {
        "block_lead_minutes": "0", "deadline_time": "09:00", "course_lead_minutes": "15"}, follow=True)
    assert "提醒需提前 1 到 720 分钟；0 超出了范围。" in response.content.decode()
    assert not ReminderSettings.objects.filter(user=user).exists()


# --- The installable app -------------------------------------------------------------------------

def test_the_manifest_names_the_app_and_starts_at_the_agenda(client):
    response = client.get("/manifest.webmanifest")
    body = response.json()
    assert response["Content-Type"] == "application/manifest+json"
    assert (body["name"], body["start_url"], body["scope"], body["display"]) == ("时伴", "/board/", "/", "standalone")
    assert {icon["sizes"] for icon in body["icons"]} == {"192x192", "512x512"}


def test_the_service_worker_is_served_for_the_whole_site_without_a_session(client):
    response = client.get("/sw.js")
    script = response.content.decode()
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert (response["Service-Worker-Allowed"], response["Cache-Control"]) == ("/", "no-cache")
    assert 'const SCOPE_HEADER = "X-Pocket-Scope";' in script and '"/accounts/logout/"' in script
    assert "{{" not in script and "{%" not in script
    assert 'const MOVED = {"/schedule/": "/board/"};' in script  # the board's first address, offline too


def test_every_page_links_the_manifest_and_allows_the_worker(user):
    response = _page_client(user).get("/")
    assert '<link rel="manifest" href="/manifest.webmanifest">' in response.content.decode()
    assert "worker-src 'self'" in response["Content-Security-Policy"]
    assert "manifest-src 'self'" in response["Content-Security-Policy"]


def _page_scope(html: str) -> str:
    return html.split('data-scope="', 1)[1].split('"', 1)[0]


def test_every_page_names_its_session_for_the_worker_and_a_new_session_gets_a_new_scope(user):
    first, second = _page_client(user), _page_client(user)  # two sign-ins of the same student
    one, two = first.get("/board/"), second.get("/board/")
    assert one["X-Pocket-Scope"] == _page_scope(one.content.decode()) != ""
    assert two["X-Pocket-Scope"] == _page_scope(two.content.decode()) != one["X-Pocket-Scope"]


def test_a_page_served_to_nobody_says_signed_out_and_json_names_no_session(client, auth_client):
    login = client.get("/accounts/login/")
    assert (login["X-Pocket-Scope"], _page_scope(login.content.decode())) == ("-", "")
    assert "X-Pocket-Scope" not in auth_client.get("/api/v1/reminders/")
