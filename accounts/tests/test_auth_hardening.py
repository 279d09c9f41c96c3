"""Auth hardening: refresh rotation, sign-out and password change end every way in (tokens, sessions, sockets)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework_simplejwt.token_blacklist.models import OutstandingToken

from accounts import services
from accounts.selectors import token_quota_get
from accounts.tests.factories import DEFAULT_PASSWORD
from smartmate.asgi import application

TOKEN = "/api/v1/auth/token/"
REFRESH = "/api/v1/auth/token/refresh/"
LOGOUT = "/api/v1/auth/logout/"
PASSWORD = "/api/v1/auth/password/"
NEW_PASSWORD = "a-brand-new-passphrase-2027"


def _login(user) -> dict:
    response = APIClient().post(TOKEN, {"username": user.username, "password": DEFAULT_PASSWORD}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def _bearer(access: str) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {access}")
    return client


def _refresh(refresh: str):
    return APIClient().post(REFRESH, {"refresh": refresh}, format="json")


# --- Refresh rotation ------------------------------------------------------------------------------------

def test_a_reused_refresh_token_revokes_its_whole_family(user):
    # The probe: reusing a rotated refresh token was refused, but its successor (the thief's or the
    # student's copy, nobody can tell) stayed valid.
    tokens = _login(user)
    rotated = _refresh(tokens["refresh"])
    assert rotated.status_code == 200
    reused = _refresh(tokens["refresh"])
    assert reused.status_code == 401
    assert reused.json()["code"] == "token_not_valid"
    assert _refresh(rotated.json()["refresh"]).status_code == 401


def test_a_reused_refresh_token_leaves_other_sign_ins_alone(user):
    phone, laptop = _login(user), _login(user)
    _refresh(phone["refresh"])
    _refresh(phone["refresh"])  # reuse: the phone's family is revoked
    assert _refresh(laptop["refresh"]).status_code == 200


def test_a_forged_refresh_token_revokes_nothing(user):
    from accounts.tokens import refresh_family_revoke_if_reused

    tokens = _login(user)
    _refresh(tokens["refresh"])
    header, payload, _signature = tokens["refresh"].split(".")
    assert refresh_family_revoke_if_reused(f"{header}.{payload}.forgedsignature") == 0


def test_access_tokens_live_fifteen_minutes(settings):
    assert settings.SIMPLE_JWT["ACCESS_TOKEN_LIFETIME"] == timedelta(minutes=15)
    assert settings.SIMPLE_JWT["ROTATE_REFRESH_TOKENS"] and settings.SIMPLE_JWT["BLACKLIST_AFTER_ROTATION"]


# --- Password change over the API ---------------------------------------------------------------------------

def test_password_change_revokes_every_refresh_and_access_token(user):
    first, second = _login(user), _login(user)
    response = _bearer(first["access"]).post(
        PASSWORD, {"old_password": DEFAULT_PASSWORD, "new_password": NEW_PASSWORD}, format="json")
    assert response.status_code == 200
    assert [_refresh(t["refresh"]).status_code for t in (first, second)] == [401, 401]
    assert _bearer(second["access"]).get("/api/v1/me/").status_code == 401
    assert _bearer(response.json()["access"]).get("/api/v1/me/").json()["username"] == user.username
    assert _refresh(response.json()["refresh"]).status_code == 200


def test_password_change_ends_the_students_other_browser_sessions(user):
    browser = Client()
    browser.force_login(user)
    tokens = _login(user)
    _bearer(tokens["access"]).post(PASSWORD, {"old_password": DEFAULT_PASSWORD, "new_password": NEW_PASSWORD},
                                   format="json")
    response = browser.get("/accounts/settings/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_password_change_refuses_a_wrong_old_password(user):
    tokens = _login(user)
    response = _bearer(tokens["access"]).post(
        PASSWORD, {"old_password": "not-it", "new_password": NEW_PASSWORD}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == {"old_password": ["Your old password was entered incorrectly."]}
    assert _refresh(tokens["refresh"]).status_code == 200


def test_password_change_refuses_a_weak_new_password(user):
    tokens = _login(user)
    response = _bearer(tokens["access"]).post(
        PASSWORD, {"old_password": DEFAULT_PASSWORD, "new_password": "12345678"}, format="json")
    assert response.status_code == 400
    assert "This password is too common." in response.json()["detail"]["new_password"]


def test_revoking_leaves_other_students_tokens_alone(user, other_user):
    theirs = _login(other_user)
    _login(user)
    assert services.refresh_tokens_revoke(user=user) == 1
    assert _refresh(theirs["refresh"]).status_code == 200
    assert OutstandingToken.objects.filter(user=user, blacklistedtoken__isnull=True).count() == 0


# --- Password change page -------------------------------------------------------------------------------------

def test_the_password_page_keeps_this_browser_and_ends_the_others(user):
    here, elsewhere = Client(HTTP_ACCEPT_LANGUAGE="en"), Client()
    here.force_login(user)
    elsewhere.force_login(user)
    tokens = _login(user)
    response = here.post("/accounts/password/", {"old_password": DEFAULT_PASSWORD, "new_password1": NEW_PASSWORD,
                                                 "new_password2": NEW_PASSWORD}, follow=True)
    assert "Password changed. You were signed out everywhere else." in [str(m) for m in response.context["messages"]]
    assert here.get("/accounts/settings/").status_code == 200
    assert elsewhere.get("/accounts/settings/").status_code == 302
    assert _refresh(tokens["refresh"]).status_code == 401


def test_the_password_page_shows_a_wrong_old_password(user):
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)
    response = browser.post("/accounts/password/", {"old_password": "nope", "new_password1": NEW_PASSWORD,
                                                    "new_password2": NEW_PASSWORD})
    assert response.status_code == 200
    assert "Your old password was entered incorrectly." in response.content.decode()


# --- Sign-out and password change close the student's sockets -------------------------------------------------

def _session_cookie(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    return b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()


async def _socket(user) -> WebsocketCommunicator:
    cookie = await database_sync_to_async(_session_cookie)(user)
    communicator = WebsocketCommunicator(application, "/ws/agent/",
                                         headers=[(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000"), cookie])
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def _closed_with(communicator: WebsocketCommunicator) -> dict:
    return await communicator.receive_output(timeout=5)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_api_logout_closes_every_socket_of_the_student_only(user, other_user):
    mine, also_mine, theirs = await _socket(user), await _socket(user), await _socket(other_user)
    tokens = await sync_to_async(_login)(user)
    client = _bearer(tokens["access"])
    response = await sync_to_async(client.post)(LOGOUT, {"refresh": tokens["refresh"]}, format="json")
    assert response.status_code == 204
    assert await _closed_with(mine) == {"type": "websocket.close", "code": 4401}
    assert await _closed_with(also_mine) == {"type": "websocket.close", "code": 4401}
    assert await theirs.receive_nothing(timeout=0.3)
    await theirs.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_page_logout_closes_the_students_sockets(user):
    socket = await _socket(user)
    browser = Client()
    await sync_to_async(browser.force_login)(user)
    response = await sync_to_async(browser.post)("/accounts/logout/")
    assert response.status_code == 302
    assert await _closed_with(socket) == {"type": "websocket.close", "code": 4401}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_password_change_closes_the_students_sockets(user):
    socket = await _socket(user)
    await sync_to_async(services.user_password_change)(user=user, old_password=DEFAULT_PASSWORD,
                                                       new_password=NEW_PASSWORD)
    assert await _closed_with(socket) == {"type": "websocket.close", "code": 4401}


# --- Sign-out and password change revoke websocket tickets and the calendar feed's address ------------------

def _ticket(access: str) -> str:
    response = _bearer(access).post("/api/v1/agent/tickets/", format="json")
    assert response.status_code == 201, response.content
    return response.json()["ticket"]


async def _ticket_socket(ticket: str) -> tuple[bool, WebsocketCommunicator]:
    communicator = WebsocketCommunicator(application, f"/ws/agent/?ticket={ticket}",
                                         headers=[(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")])
    connected, _ = await communicator.connect()
    return connected, communicator


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("revoke", ["logout", "password"])
async def test_a_ticket_minted_before_logout_or_password_change_opens_no_socket(user, revoke):
    tokens = await sync_to_async(_login)(user)
    ticket = await sync_to_async(_ticket)(tokens["access"])
    if revoke == "logout":
        await sync_to_async(services.user_logout)(user=user, refresh=tokens["refresh"])
    else:
        await sync_to_async(services.user_password_change)(user=user, old_password=DEFAULT_PASSWORD,
                                                           new_password=NEW_PASSWORD)
    connected, communicator = await _ticket_socket(ticket)
    assert not connected or (await communicator.receive_output(timeout=5))["type"] == "websocket.close"
    await communicator.disconnect()


def test_a_password_change_gives_the_calendar_feed_a_new_address_and_says_so(user):
    from schedule.services.feeds import calendar_feed_ensure

    old_token = calendar_feed_ensure(user=user).token
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)
    response = browser.post("/accounts/password/", {"old_password": DEFAULT_PASSWORD, "new_password1": NEW_PASSWORD,
                                                    "new_password2": NEW_PASSWORD}, follow=True)
    assert Client().get(f"/schedule/feed/{old_token}.ics").status_code == 404
    assert user.calendar_feed.__class__.objects.get(user=user).token != old_token
    assert "Your calendar subscription link has changed" in response.content.decode()


def test_a_password_change_over_the_api_lists_the_feed_notice(user):
    from schedule.services.feeds import calendar_feed_ensure

    calendar_feed_ensure(user=user)
    tokens = _login(user)
    response = _bearer(tokens["access"]).post(PASSWORD, {"old_password": DEFAULT_PASSWORD,
                                                         "new_password": NEW_PASSWORD}, format="json")
    assert response.status_code == 200
    assert [notice[:39] for notice in response.json()["notices"]] == ["Your calendar subscription link has cha"]


def test_a_password_change_without_a_feed_creates_none(user):
    from schedule.models import CalendarFeed

    services.user_password_change(user=user, old_password=DEFAULT_PASSWORD, new_password=NEW_PASSWORD)
    assert not CalendarFeed.objects.filter(user=user).exists()
    assert user.revocation_notices == []


# --- The settings page shows the token quota -----------------------------------------------------------------

def test_the_settings_page_shows_tokens_used_the_limit_and_the_reset(user):
    started = timezone.now() - timedelta(days=2)
    user.token_usage, user.token_limit, user.token_window_started_at = 1234, 5000, started
    user.save()
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)
    page = browser.get("/accounts/settings/").content.decode()
    resets = timezone.localtime(started + timedelta(days=7), user.zone).strftime("%Y-%m-%d %H:%M")
    assert "1234 of 5000 tokens used this week." in page
    assert f"Resets on {resets}." in page


def test_a_lapsed_window_shows_as_a_fresh_quota(user):
    now = timezone.now()
    user.token_usage, user.token_window_started_at = 900, now - timedelta(days=8)
    quota = token_quota_get(user=user, now=now)
    assert (quota.used, quota.limit, quota.resets_at, quota.left) == (0, user.token_limit, None, user.token_limit)
