"""Abuse limits: the atomic counter, its window, and every place it guards (REST, pages, websocket)."""

from __future__ import annotations

import threading

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.tests.factories import DEFAULT_PASSWORD
from schedule.core.importers import MAX_IMPORT_BYTES
from smartmate.asgi import application
from smartmate.platform import ratelimit
from smartmate.platform.ratelimit import FrameBudget, Rate, RateLimited, rate_limit_hit, rate_parse

T0 = 1_800_000_000.0  # a window boundary for 1-minute and 1-hour windows


@pytest.fixture
def frozen_clock(monkeypatch):
    """Stop the counters' clock at T0 + 10 s, so a test never straddles a window boundary."""
    monkeypatch.setattr(ratelimit, "clock", lambda: T0 + 10)


def limits(settings, **rates: str) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, **rates}


# --- The counter ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "rate"), [
    ("10/min", Rate(10, 60)), ("30/5min", Rate(30, 300)), ("2/s", Rate(2, 1)), ("100/hour", Rate(100, 3600)),
    (" 7 / day ", Rate(7, 86400)),
])
def test_rates_are_parsed_from_their_short_form(text, rate):
    assert rate_parse(text) == rate


@pytest.mark.parametrize("text", ["10", "ten/min", "10/fortnight", "10/0min", ""])
def test_a_malformed_rate_is_refused(text):
    with pytest.raises(ValueError):
        rate_parse(text)


def test_the_counter_refuses_past_the_limit_and_says_when_to_retry(settings):
    limits(settings, planning="3/min")
    counts = [rate_limit_hit("planning", "user:1", now=T0 + 15) for _ in range(3)]
    with pytest.raises(RateLimited) as refused:
        rate_limit_hit("planning", "user:1", now=T0 + 15)
    assert counts == [1, 2, 3]
    assert refused.value.status == 429
    assert refused.value.as_dict() == {
        "code": "rate_limited", "message": "Too many requests. Try again in 45 seconds.",
        "detail": {"scope": "planning", "limit": 3, "window": 60, "retry_after": 45}}


def test_a_new_window_starts_a_new_count(settings):
    limits(settings, planning="2/min")
    for _ in range(2):
        rate_limit_hit("planning", "user:1", now=T0 + 59)
    with pytest.raises(RateLimited):
        rate_limit_hit("planning", "user:1", now=T0 + 59.5)
    assert rate_limit_hit("planning", "user:1", now=T0 + 60) == 1


def test_each_key_and_scope_has_its_own_count(settings):
    limits(settings, planning="1/min", quick_add="1/min")
    rate_limit_hit("planning", "user:1", now=T0)
    assert rate_limit_hit("planning", "user:2", now=T0) == 1
    assert rate_limit_hit("quick_add", "user:1", now=T0) == 1


def test_an_unset_or_disabled_rate_never_refuses(settings):
    limits(settings, planning="")
    assert [rate_limit_hit("planning", "user:1", now=T0) for _ in range(50)] == [0] * 50


def test_concurrent_hits_never_lose_a_count(settings):
    limits(settings, planning="100/hour")
    allowed, refused = [], []

    def hammer() -> None:
        for _ in range(25):
            try:
                allowed.append(rate_limit_hit("planning", "user:1", now=T0 + 5))
            except RateLimited:
                refused.append(1)

    threads = [threading.Thread(target=hammer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(allowed) == list(range(1, 101))
    assert len(refused) == 100


def test_a_frame_budget_refuses_past_its_window_and_recovers_after_it(settings):
    limits(settings, ws_frames="2/s")
    now = [100.0]
    budget = FrameBudget(clock=lambda: now[0])
    budget.take()
    budget.take()
    with pytest.raises(RateLimited) as refused:
        budget.take()
    now[0] = 101.0
    budget.take()
    assert refused.value.detail == {"scope": "ws_frames", "limit": 2, "window": 1, "retry_after": 1}


def test_the_forwarded_address_counts_only_behind_declared_proxies(rf, settings):
    request = rf.get("/", REMOTE_ADDR="10.0.0.9", HTTP_X_FORWARDED_FOR="1.2.3.4, 5.6.7.8")
    settings.RATE_LIMIT_TRUSTED_PROXIES = 0
    assert ratelimit.client_ip(request) == "10.0.0.9"
    settings.RATE_LIMIT_TRUSTED_PROXIES = 1
    assert ratelimit.client_ip(request) == "5.6.7.8"


# --- REST ----------------------------------------------------------------------------------------------

def assert_rate_limited(response, scope: str) -> None:
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "rate_limited"
    assert body["detail"]["scope"] == scope
    assert response["Retry-After"] == str(body["detail"]["retry_after"])


def test_rest_regenerate_shares_the_chat_budget_of_the_websocket(api_client, user, settings, frozen_clock):
    # The probe: 30 REST regenerations in 15 s burned ~120k tokens while the socket refused after 20.
    from agent.tests.factories import make_conversation

    limits(settings, chat="3/min")
    conversation = make_conversation(user)
    api_client.force_authenticate(user)
    rate_limit_hit("chat", ratelimit.user_key(user))  # a chat.send over the websocket
    rate_limit_hit("chat", ratelimit.user_key(user))
    first = api_client.post(f"/api/v1/agent/conversations/{conversation.pk}/regenerate/")
    second = api_client.post(f"/api/v1/agent/conversations/{conversation.pk}/regenerate/")
    assert first.status_code != 429
    assert_rate_limited(second, "chat")


def test_quick_note_parsing_shares_the_quick_add_budget(api_client, user, settings, frozen_clock):
    limits(settings, quick_add="2/min")
    api_client.force_authenticate(user)
    api_client.post("/api/v1/tasks/", {"text": "明天交作业"}, format="json")
    assert api_client.post("/api/v1/tasks/parse/", {"text": "明天交作业"}, format="json").status_code == 200
    assert_rate_limited(api_client.post("/api/v1/tasks/parse/", {"text": "明天交作业"}, format="json"), "quick_add")


@pytest.mark.django_db
def test_registration_api_is_limited_per_address(api_client, settings, frozen_clock):
    limits(settings, register="1/min")
    first = api_client.post("/api/v1/auth/register/", {"username": "lihua", "password": "kaoyan-2027!"},
                            format="json")
    second = api_client.post("/api/v1/auth/register/", {"username": "lilei", "password": "kaoyan-2027!"},
                             format="json")
    assert first.status_code == 201
    assert_rate_limited(second, "register")


def test_plan_creation_api_is_limited_per_student(auth_client, settings, frozen_clock):
    limits(settings, planning="1/min")
    first = auth_client.post("/api/v1/previews/", {"task_class_ids": [999]}, format="json")
    second = auth_client.post("/api/v1/previews/", {"task_class_ids": [999]}, format="json")
    assert first.status_code == 404
    assert_rate_limited(second, "planning")


def test_import_api_is_limited_per_student(auth_client, settings, frozen_clock):
    limits(settings, **{"import": "1/min"})
    body = {"content": "not a timetable", "dry_run": True}
    auth_client.post("/api/v1/schedule/import/", body, format="json")
    assert_rate_limited(auth_client.post("/api/v1/schedule/import/", body, format="json"), "import")


def test_quick_add_api_is_limited_per_student(auth_client, settings, frozen_clock):
    limits(settings, quick_add="1/min")
    assert auth_client.post("/api/v1/tasks/", {"text": "背单词"}, format="json").status_code == 201
    assert_rate_limited(auth_client.post("/api/v1/tasks/", {"text": "背单词"}, format="json"), "quick_add")


def test_an_oversized_timetable_file_is_refused_with_its_size(auth_client):
    upload = SimpleUploadedFile("big.csv", b"x" * (MAX_IMPORT_BYTES + 1), content_type="text/csv")
    response = auth_client.post("/api/v1/schedule/import/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["code"] == "file_too_large"
    assert response.json()["detail"] == {"size": MAX_IMPORT_BYTES + 1, "limit": MAX_IMPORT_BYTES}


def test_a_body_past_the_upload_limit_is_refused_before_parsing(auth_client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 65_536
    response = auth_client.post("/api/v1/tasks/", {"text": "x" * 70_000}, format="json")
    assert response.status_code == 413
    assert response.json() == {"code": "request_too_large",
                               "message": "The request is too large: at most 65536 bytes.",
                               "detail": {"max": 65536}}


# --- Pages ---------------------------------------------------------------------------------------------

def test_the_login_page_refuses_with_a_message_past_the_limit(client, user, settings, frozen_clock):
    limits(settings, login_pair="1/min")
    client.post("/accounts/login/", {"username": user.username, "password": "wrong"})
    response = client.post("/accounts/login/", {"username": user.username, "password": DEFAULT_PASSWORD},
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 429
    assert "Too many failed sign-ins. Try again in 50 seconds" in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_register_page_refuses_with_a_message_past_the_limit(client, settings, frozen_clock):
    limits(settings, register="1/min")
    form = {"username": "lihua", "password": "kaoyan-2027!", "password_again": "kaoyan-2027!"}
    client.post("/accounts/register/", form)
    client.logout()
    response = client.post("/accounts/register/", {**form, "username": "lilei"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 429
    assert "Too many requests. Try again in 50 seconds." in response.content.decode()


def test_the_quick_add_page_shows_the_limit_as_a_message(client, user, settings, frozen_clock):
    limits(settings, quick_add="1/min")
    client.force_login(user)
    client.post("/tasks/quick-add/", {"text": "背单词"})
    response = client.post("/tasks/quick-add/", {"text": "背单词"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "Too many requests. Try again in 50 seconds." in [str(m) for m in response.context["messages"]]


def test_the_plan_page_shows_the_limit_as_a_message(client, user, settings, frozen_clock):
    limits(settings, planning="0/min")
    client.force_login(user)
    response = client.post("/board/previews/new/", {"task_class_ids": ["1"]}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "Too many requests. Try again in 50 seconds." in [str(m) for m in response.context["messages"]]


def test_the_import_page_shows_the_limit_as_its_error(client, user, settings, frozen_clock):
    limits(settings, **{"import": "0/min"})
    client.force_login(user)
    response = client.post("/schedule/import/", {"content": "课程,星期", "action": "preview"},
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.context["error"] == "Too many requests. Try again in 50 seconds."


# --- Websocket -------------------------------------------------------------------------------------------

def _session_cookie(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    return b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()


async def _connect(user) -> WebsocketCommunicator:
    cookie = await database_sync_to_async(_session_cookie)(user)
    communicator = WebsocketCommunicator(
        application, "/ws/agent/",
        headers=[(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000"), (b"accept-language", b"en"),
                 cookie])
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("frame", [
    {"type": "chat.send", "conversation_id": 987654, "text": "hi"},
    {"type": "chat.regenerate", "conversation_id": 987654},
    {"type": "chat.resume", "conversation_id": 987654, "interaction_id": "x", "action": "accept"},
])
async def test_chat_frames_past_the_limit_get_an_error_and_the_socket_stays_open(user, settings, frozen_clock, frame):
    limits(settings, chat="1/min", ws_frames="100/s")
    communicator = await _connect(user)
    await communicator.send_json_to(frame)
    first = await communicator.receive_json_from(timeout=5)
    await communicator.send_json_to(frame)
    second = await communicator.receive_json_from(timeout=5)
    await communicator.send_json_to({"type": "replay", "conversation_id": 987654, "after_seq": 0})
    third = await communicator.receive_json_from(timeout=5)
    await communicator.disconnect()
    assert first["type"] == "error" and first["code"] != "rate_limited"
    assert (second["type"], second["code"], second["detail"]["scope"]) == ("error", "rate_limited", "chat")
    assert third["type"] == "error" and third["code"] != "rate_limited"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_frames_past_the_connection_budget_get_an_error(user, settings):
    limits(settings, ws_frames="2/hour")
    communicator = await _connect(user)
    answers = []
    for _ in range(3):
        await communicator.send_json_to({"type": "replay", "conversation_id": 987654, "after_seq": 0})
        answers.append(await communicator.receive_json_from(timeout=5))
    await communicator.disconnect()
    assert answers[0]["code"] == answers[1]["code"] != "rate_limited"
    assert answers[2]["code"] == "rate_limited"
    assert answers[2]["detail"]["scope"] == "ws_frames"
