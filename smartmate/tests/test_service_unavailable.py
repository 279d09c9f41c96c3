"""An unreachable database is a 503 with Retry-After (API: JSON; pages: a friendly page), never a 500;
/healthz answers within a second even when a dependency hangs.

The database is made genuinely unreachable: the connection is pointed at a file that cannot be
opened (SQLite) or a closed port (MariaDB), and closed, so the next query fails to connect.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from django.db import connection
from django.test import Client

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def database_down() -> Iterator[None]:
    """Point the default connection somewhere that refuses it; put it back afterwards."""
    saved = dict(connection.settings_dict)
    if connection.vendor == "sqlite":
        connection.settings_dict["NAME"] = "/nonexistent-folder/smartmate.sqlite3"
    else:
        connection.settings_dict.update(HOST="127.0.0.1", PORT="1")
        connection.settings_dict.setdefault("OPTIONS", {})
        connection.settings_dict["OPTIONS"] = {**saved.get("OPTIONS", {}), "connect_timeout": 1}
    connection.close()
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


@pytest.fixture
def signed_in(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def test_the_api_answers_503_service_unavailable_with_retry_after(signed_in, database_down):
    response = signed_in.get("/api/v1/agent/conversations/", HTTP_ACCEPT="application/json")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    body = response.json()
    assert body["code"] == "service_unavailable" and body["detail"] == {"retry_after": 5}
    assert "Traceback" not in response.content.decode()


def test_the_api_message_is_chinese_for_a_chinese_client(signed_in, database_down):
    response = signed_in.get("/api/v1/agent/conversations/", HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert response.status_code == 503
    assert response.json()["message"] == "服务暂时不可用，请过几秒再试。"


def test_a_page_shows_a_friendly_chinese_page_that_reloads_itself(signed_in, database_down):
    response = signed_in.get("/assistant/")

    assert response.status_code == 503
    page = response.content.decode()
    assert "服务暂时不可用" in page and "你的日程和对话都安然无恙" in page
    assert response["Retry-After"] == "30" and 'http-equiv="refresh" content="30"' in page


def test_healthz_reports_the_database_down_quickly(client, database_down):
    started = time.monotonic()
    response = client.get("/healthz")

    assert time.monotonic() - started < 1.5
    assert response.status_code == 503
    assert response.json()["checks"]["database"]["status"] == "down"


def test_healthz_answers_within_a_second_while_a_check_hangs(client, settings):
    # A cache behind an address that never answers: its check hangs far longer than healthz may take.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://10.255.255.1:6379/0",
                                   "OPTIONS": {"socket_connect_timeout": 5, "socket_timeout": 5}}}
    started = time.monotonic()
    response = client.get("/healthz")

    assert time.monotonic() - started < 1.0
    assert response.status_code == 503
    cache = response.json()["checks"]["cache"]
    assert cache["status"] == "down" and cache["latency_ms"] <= 1000
    assert response.json()["checks"]["database"]["status"] == "ok"
