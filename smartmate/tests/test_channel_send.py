"""Sends to a cross-process channel layer (Redis) from threads without a server loop: one event loop per
process carries them in the background, in order; a failed send is logged, not raised, and the ones after
it still go; a thread on a running loop is still refused (as ``async_to_sync`` did)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from smartmate.platform.channel_send import group_send, sender_loop, sends_flush


def _receive_all(layer, channel: str, count: int) -> list[int]:
    async def receive() -> list[int]:
        return [(await asyncio.wait_for(layer.receive(channel), timeout=5))["n"] for _ in range(count)]
    return async_to_sync(receive)()


def test_sends_from_plain_threads_arrive_in_order_through_one_loop_per_process(redis_channel_layer):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)("test")
    async_to_sync(layer.group_add)("channel-send-test", channel)
    loops = []

    def produce() -> None:
        for n in range(40):
            group_send("channel-send-test", {"type": "test.message", "n": n})
        loops.append(sender_loop())

    thread = threading.Thread(target=produce)
    thread.start()
    thread.join(timeout=30)

    assert sends_flush(timeout=10)
    assert _receive_all(layer, channel, 40) == list(range(40))
    assert loops == [sender_loop()]  # the thread used the process's one sender loop, still running
    assert sender_loop().loop.is_running()


def test_a_failed_send_is_logged_and_the_next_one_still_goes(redis_channel_layer, caplog):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)("test")
    async_to_sync(layer.group_add)("channel-send-test", channel)

    group_send("not a valid group name", {"type": "test.message", "n": -1})  # the layer refuses it
    group_send("channel-send-test", {"type": "test.message", "n": 1})

    assert sends_flush(timeout=10)
    assert _receive_all(layer, channel, 1) == [1]
    assert any("Could not send test.message to not a valid group name" in record.getMessage()
               for record in caplog.records)


def test_a_thread_running_an_event_loop_is_refused(redis_channel_layer):
    async def send_from_the_loop() -> None:
        group_send("channel-send-test", {"type": "test.message", "n": 0})

    with pytest.raises(RuntimeError, match="async event loop"):
        asyncio.run(send_from_the_loop())
