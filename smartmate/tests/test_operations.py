"""Operations endpoints: /healthz says up or down (each dependency to metrics readers), /metrics speaks Prometheus."""

from __future__ import annotations

import pytest

TOKEN = "scrape-me"
BEARER = {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"}


@pytest.fixture
def metrics_token(settings):
    settings.METRICS_TOKEN = TOKEN


def test_healthz_says_only_up_to_the_public(client, db, metrics_token):
    response = client.get("/healthz")
    assert (response.status_code, response.json()) == (200, {"status": "ok"})


def test_healthz_says_only_down_to_the_public(client, db, metrics_token, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:1/0", "OPTIONS": {"socket_connect_timeout": 0.5}}}
    response = client.get("/healthz", HTTP_AUTHORIZATION="Bearer not-the-token")
    assert (response.status_code, response.json()) == (503, {"status": "down"})


def test_healthz_calls_a_degraded_site_up_in_public(client, db, metrics_token, settings, tmp_path):
    settings.MILVUS_URI = str(tmp_path / "missing-folder" / "milvus.db")
    response = client.get("/healthz")
    assert (response.status_code, response.json()) == (200, {"status": "ok"})


def test_healthz_without_a_token_configured_gives_details_only_to_direct_loopback(client, db):
    assert "checks" in client.get("/healthz").json()
    assert client.get("/healthz", REMOTE_ADDR="203.0.113.9").json() == {"status": "ok"}
    assert client.get("/healthz", HTTP_X_FORWARDED_FOR="203.0.113.9").json() == {"status": "ok"}


def test_healthz_reports_every_dependency_ok(client, db, metrics_token):
    response = client.get("/healthz", **BEARER)
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert {"database", "cache", "channel_layer", "vector_store"} <= set(body["checks"])
    assert all(check["status"] == "ok" for check in body["checks"].values())


def test_healthz_is_503_when_a_required_dependency_is_down(client, db, settings, metrics_token):
    # A real Redis cache client pointed at a closed port: the cache is genuinely unreachable.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:1/0",
                                   "OPTIONS": {"socket_connect_timeout": 0.5}}}
    response = client.get("/healthz", **BEARER)
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["checks"]["cache"]["status"] == "down"
    # The refused connection, or (on a loaded machine, where the first Redis client takes a while to set
    # up) the check's own 0.8 s deadline: either way the reason is named, and the answer is not held up.
    assert body["checks"]["cache"]["error"].split(":")[0] in {"ConnectionError", "TimeoutError"}
    assert body["checks"]["database"]["status"] == "ok"


def test_healthz_stays_200_when_only_the_optional_vector_store_is_down(client, db, settings, tmp_path, metrics_token):
    settings.MILVUS_URI = str(tmp_path / "missing-folder" / "milvus.db")
    response = client.get("/healthz", **BEARER)
    assert response.status_code == 200
    assert response.json()["status"] == "degraded"
    assert response.json()["checks"]["vector_store"]["required"] is False


def test_metrics_count_requests_by_route_pattern(client, db):
    client.get("/healthz")
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    assert 'smartmate_http_requests_total{method="GET",route="/healthz",status="200"}' in text
    assert "smartmate_http_request_duration_seconds_bucket" in text


def test_metrics_require_the_token_when_one_is_configured(client, db, settings):
    settings.METRICS_TOKEN = "scrape-me"
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-me").status_code == 200


def test_metrics_take_the_token_only_as_a_bearer_credential(client, db, settings):
    settings.METRICS_TOKEN = "scrape-me"
    assert client.get("/metrics", HTTP_AUTHORIZATION="scrape-me").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-me-too").status_code == 401


def test_metrics_with_a_token_refuse_loopback_without_it(client, db, settings):
    settings.METRICS_TOKEN = "scrape-me"
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 401


@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "::ffff:127.0.0.1"])
def test_metrics_without_a_token_answer_a_direct_loopback_request(client, db, settings, address):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", REMOTE_ADDR=address).status_code == 200


def test_metrics_without_a_token_refuse_another_host(client, db, settings):
    settings.METRICS_TOKEN = ""
    response = client.get("/metrics", REMOTE_ADDR="203.0.113.9")
    assert response.status_code == 403
    assert response.json() == {"code": "permission_denied", "detail": None, "message":
                               "Metrics are served to loopback only; set METRICS_TOKEN to scrape from elsewhere."}


@pytest.mark.parametrize("header", ["HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_REAL_IP",
                                    "HTTP_FORWARDED"])
def test_metrics_without_a_token_refuse_loopback_requests_relayed_by_a_proxy(client, db, settings, header):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1", **{header: "203.0.113.9"}).status_code == 403


def test_json_formatter_keeps_extra_fields():
    import json
    import logging

    from smartmate.platform.logging import JsonFormatter

    record = logging.makeLogRecord({"name": "smartmate.test", "levelname": "INFO", "msg": "planned %s",
                                    "args": (3,), "user_id": 7})
    line = json.loads(JsonFormatter().format(record))
    assert (line["message"], line["level"], line["logger"], line["user_id"]) == ("planned 3", "INFO",
                                                                                  "smartmate.test", 7)


def test_the_channel_layer_check_passes_while_the_servers_loop_is_receiving(db):
    """With sockets open, the web process's layer is receiving on the server's event loop; the check, on a
    loop of its own, must not touch that layer (on Redis: "Two event loops are trying to receive()")."""
    import asyncio
    import threading

    from channels.layers import get_channel_layer

    from smartmate.platform.health import check_channel_layer

    layer = get_channel_layer()
    started, stop = threading.Event(), threading.Event()

    def serve_a_socket() -> None:
        async def listen() -> None:
            channel = await layer.new_channel()
            receiving = asyncio.ensure_future(layer.receive(channel))
            started.set()
            while not stop.is_set():
                await asyncio.sleep(0.01)
            receiving.cancel()

        asyncio.run(listen())

    server = threading.Thread(target=serve_a_socket, daemon=True)
    server.start()
    assert started.wait(5)
    try:
        for _ in range(3):
            check_channel_layer()  # raises if the layer cannot answer from this loop
    finally:
        stop.set()
        server.join(5)
