"""With the rate limits' Redis down, a rate-limited action answers 503 ``service_unavailable``.

Never a 500, never let through uncounted: the API answers ``{code, message, detail}`` with Retry-After,
in Chinese for a Chinese client; a page answers the friendly 503 page; the assistant's socket answers an
error frame and stays open. Redis is made genuinely unreachable: the cache points at a closed port on
127.0.0.1, so every counter call fails to connect as it does while Redis restarts.
"""

from __future__ import annotations

import socket

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from accounts.tests.factories import DEFAULT_PASSWORD
from agent.models import Message
from agent.tests.factories import make_conversation
from agent.tests.test_consumer import connect
from smartmate.platform.ratelimit import counter_refund

pytestmark = pytest.mark.django_db(transaction=True)

UNAVAILABLE_ZH = "服务暂时不可用，请过几秒再试。"


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def redis_down(settings):
    """Point the cache (where the counters live) at a Redis that refuses every connection."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{_closed_port()}/0",
                                   "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "quick_add": "30/min", "login_pair": "5/15min",
                            "login_account": "10/15min", "login_address": "30/15min", "chat": "20/min"}


def test_a_rate_limited_api_answers_503_in_the_common_shape_with_retry_after(client, user, redis_down):
    client.force_login(user)  # the session lives in the database: only the counters are out of reach

    response = client.post("/api/v1/tasks/parse/", {"text": "明天交作业"}, content_type="application/json",
                           HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json() == {"code": "service_unavailable", "message": UNAVAILABLE_ZH, "detail": {"retry_after": 5}}


def test_signing_in_answers_the_friendly_503_page_not_a_500(user, redis_down):
    client = Client(raise_request_exception=False)

    response = client.post("/accounts/login/", {"username": user.username, "password": DEFAULT_PASSWORD},
                           HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert response.status_code == 503
    assert "服务暂时不可用" in response.content.decode()
    assert "_auth_user_id" not in client.session  # refused, not signed in uncounted


def test_a_refund_while_the_store_is_down_is_skipped_not_raised(redis_down):
    assert counter_refund("login_account", "account:someone") is None


@pytest.mark.asyncio
async def test_a_chat_message_gets_a_chinese_error_frame_and_the_socket_stays_open(user, redis_down):
    conversation = await database_sync_to_async(make_conversation)(user)
    communicator = await connect(user)
    frame = {"type": "chat.send", "conversation_id": conversation.pk, "text": "你好", "client_message_id": "m-1"}

    await communicator.send_json_to(frame)
    refused = await communicator.receive_json_from(timeout=5)
    await communicator.send_json_to({"type": "replay", "conversation_id": conversation.pk, "after_seq": 0})

    assert refused["code"] == "service_unavailable" and refused["client_message_id"] == "m-1"
    assert await communicator.receive_nothing(timeout=0.3)  # still open: the replay is answered by nothing
    assert not await database_sync_to_async(Message.objects.filter(conversation=conversation).exists)()
    await communicator.disconnect()
