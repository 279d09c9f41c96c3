"""Only the site's own pages (scheme, host and port) and CSRF_TRUSTED_ORIGINS may open a websocket."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from smartmate.asgi import application
from smartmate.platform.websocket_origin import Origin, origin_allowed, origin_parse

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "127.0.0.1:8000"


async def connects(origin: str | None, host: str | None = HOST) -> bool:
    headers = [(name, value.encode()) for name, value in ((b"origin", origin), (b"host", host)) if value is not None]
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=headers)
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return connected


def scope(origin: str, host: str, scheme: str = "ws", *extra: tuple[bytes, bytes]) -> dict:
    return {"type": "websocket", "scheme": scheme,
            "headers": [(b"origin", origin.encode()), (b"host", host.encode()), *extra]}


@pytest.mark.asyncio
async def test_the_pages_own_origin_is_accepted():
    assert await connects("http://127.0.0.1:8000")


@pytest.mark.asyncio
async def test_another_scheme_on_the_same_host_and_port_is_refused():
    assert not await connects("https://127.0.0.1:8000")


@pytest.mark.asyncio
async def test_another_port_on_the_same_host_is_refused():
    assert not await connects("http://127.0.0.1:9000")


@pytest.mark.asyncio
async def test_another_allowed_host_on_the_same_port_is_refused():
    assert not await connects("http://localhost:8000")


@pytest.mark.asyncio
async def test_a_foreign_host_is_refused_even_when_the_host_header_agrees():
    # DNS rebinding: evil.example resolves to us, and its page connects with a matching Host header.
    assert not await connects("http://evil.example:8000", host="evil.example:8000")


@pytest.mark.asyncio
@pytest.mark.parametrize("origin", [None, "null", "", "http://127.0.0.1:8000/path", "ftp://127.0.0.1:8000"])
async def test_a_missing_or_malformed_origin_is_refused(origin):
    assert not await connects(origin)


@pytest.mark.asyncio
async def test_an_origin_without_a_host_header_is_refused():
    assert not await connects("http://127.0.0.1:8000", host=None)


@pytest.mark.asyncio
async def test_two_origin_headers_are_refused():
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"origin", b"http://evil.example"), (b"host", HOST.encode())]
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=headers)
    assert (await communicator.connect())[0] is False


@pytest.mark.asyncio
async def test_a_trusted_origin_is_accepted_whatever_the_host_header_says(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://smartmate.example.edu"]
    assert await connects("https://smartmate.example.edu")
    assert not await connects("http://smartmate.example.edu")
    assert not await connects("https://smartmate.example.edu:8443")


@pytest.mark.asyncio
async def test_a_wildcard_trusted_origin_allows_its_subdomains(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://*.example.edu"]
    assert await connects("https://app.example.edu")
    assert not await connects("https://example.edu.evil.example")


def test_an_https_page_may_open_a_wss_socket_and_default_ports_are_normalised():
    assert origin_allowed(scope("https://127.0.0.1", "127.0.0.1", "wss"))
    assert origin_allowed(scope("https://127.0.0.1:443", "127.0.0.1", "wss"))
    assert not origin_allowed(scope("http://127.0.0.1", "127.0.0.1", "wss"))


def test_behind_a_tls_proxy_the_forwarded_scheme_counts(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    forwarded = (b"x-forwarded-proto", b"https")
    assert origin_allowed(scope("https://127.0.0.1", "127.0.0.1", "ws", forwarded))
    assert not origin_allowed(scope("http://127.0.0.1", "127.0.0.1", "ws", forwarded))
    assert not origin_allowed(scope("https://127.0.0.1", "127.0.0.1", "ws"))


def test_an_ipv6_origin_is_compared_without_its_brackets(settings):
    settings.ALLOWED_HOSTS = ["[::1]"]
    assert origin_parse("http://[::1]:8000") == Origin("http", "::1", 8000)
    assert origin_allowed(scope("http://[::1]:8000", "[::1]:8000"))
