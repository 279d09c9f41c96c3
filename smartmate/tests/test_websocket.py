"""The websocket stack carries frames through the channel layer: in memory and on Redis."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from smartmate.asgi import application

ORIGIN = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


async def _ping() -> dict:
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=ORIGIN)
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "ping"})
    reply = await communicator.receive_json_from(timeout=5)
    await communicator.disconnect()
    return reply


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_ping_goes_through_the_in_memory_layer():
    assert await _ping() == {"type": "pong", "layer": "InMemoryChannelLayer"}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_ping_goes_through_the_redis_layer(redis_channel_layer):
    assert await _ping() == {"type": "pong", "layer": "RedisChannelLayer"}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await communicator.connect()
    assert connected is False


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_unknown_frame_gets_an_error_frame():
    communicator = WebsocketCommunicator(application, "/ws/health/", headers=ORIGIN)
    await communicator.connect()
    await communicator.send_json_to({"type": "dance"})
    reply = await communicator.receive_json_from(timeout=5)
    await communicator.disconnect()
    assert reply["type"] == "error" and reply["code"] == "unknown_frame"
