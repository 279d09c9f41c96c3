"""/healthz tells the truth on a busy node: 500 open websockets on a real daphne over Redis, and it says 200.

Before, the channel-layer check received on the process's own layer, which the server's event loop was
already receiving on whenever a socket was open ("Two event loops are trying to receive()"): 532 of 564
probes on a healthy stack answered 503, so a load balancer would have pulled every busy node. Runs in
the MariaDB + Redis CI pass (on the in-memory layer there is nothing to get wrong).
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from contextlib import AsyncExitStack

import pytest
import websockets
from django.db import connection
from websockets.typing import Origin

from smartmate.tests.live_server import daphne_serving

SOCKETS = 500
PROBES = 10


async def _open_sockets(ws_url: str, origin: str, stack: AsyncExitStack) -> list:
    """Open SOCKETS health sockets, each proven live by a ping through the channel layer."""

    async def one() -> object:
        socket = await stack.enter_async_context(websockets.connect(ws_url, origin=Origin(origin), open_timeout=60))
        await socket.send(json.dumps({"type": "ping"}))
        reply = json.loads(await asyncio.wait_for(socket.recv(), timeout=60))
        assert reply["type"] == "pong"
        return socket

    sockets = []
    for start in range(0, SOCKETS, 50):  # in waves, as students arrive; not one burst of 500 handshakes
        sockets += await asyncio.gather(*(one() for _ in range(start, min(start + 50, SOCKETS))))
    return sockets


def _probe(base_url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"{base_url}/healthz", timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


async def _probe_while_open(base_url: str, sockets: list) -> list[tuple[int, dict]]:
    answers = []
    for _ in range(PROBES):
        answers.append(await asyncio.to_thread(_probe, base_url))
        # The sockets are still served between probes: each answers a ping.
        await sockets[len(answers) * 37 % len(sockets)].send(json.dumps({"type": "ping"}))
        assert json.loads(await asyncio.wait_for(sockets[len(answers) * 37 % len(sockets)].recv(), 30))["type"] == "pong"
    return answers


@pytest.mark.django_db(transaction=True)
def test_healthz_says_200_with_500_sockets_open(settings, tmp_path):
    if not settings.REDIS_URL:
        pytest.skip("the Redis channel layer runs in the MariaDB + Redis CI pass")
    env = {"HEALTH_CHECK_TIMEOUT": "5", "SMARTMATE_WARM_START": "0"}
    with daphne_serving(str(connection.settings_dict["NAME"]), tmp_path / "daphne.log", env) as base_url:
        ws_url = base_url.replace("http://", "ws://") + "/ws/health/"

        async def scenario() -> list[tuple[int, dict]]:
            async with AsyncExitStack() as stack:
                started = time.monotonic()
                sockets = await _open_sockets(ws_url, base_url, stack)
                print(f"{len(sockets)} sockets open in {time.monotonic() - started:.1f} s")
                return await _probe_while_open(base_url, sockets)

        answers = asyncio.run(scenario())
    statuses = [status for status, _ in answers]
    layer_checks = [body["checks"]["channel_layer"] for _, body in answers]
    print("healthz:", statuses, "channel layer ms:", [check["latency_ms"] for check in layer_checks])
    assert statuses == [200] * PROBES, answers
    assert all(check["status"] == "ok" for check in layer_checks)
