"""A question sent as the socket drops is never lost silently.

A ``chat.send`` with the page's ``client_message_id`` is acknowledged (``chat.ack``) only once its
message is committed, and a resend with the same id is acknowledged again without a second turn. A
socket whose group join or replay fails closes with 1013 so the page reconnects, and the reconnected
socket follows its conversation again. The layer that fails is a real in-memory layer configured to
fail one join, as channels_redis does when Redis is unreachable.
"""

from __future__ import annotations

import socket

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from agent import consumers
from agent.models import Conversation, Message
from agent.services.turns import turn_start
from agent.tests.factories import make_conversation, reply, route, timeline
from agent.tests.flaky_layer import join_fails_once
from agent.tests.test_consumer import connect, join_turns, receive_until_done

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

CLOSE_TRY_AGAIN = {"type": "websocket.close", "code": 1013}


def send(conversation: Conversation, text: str = "明天有什么课？", client_message_id: str = "m-1") -> dict:
    return {"type": "chat.send", "conversation_id": conversation.pk, "text": text,
            "client_message_id": client_message_id}


@database_sync_to_async
def student_messages(conversation: Conversation) -> list[tuple[str, str | None]]:
    return list(Message.objects.filter(conversation=conversation, role="user")
                .values_list("content", "client_message_id"))


async def receive_ack(communicator) -> dict:
    while (frame := await communicator.receive_json_from(timeout=10))["type"] != "chat.ack":
        pass
    return frame


async def receive_ack_and_turn(communicator) -> list[dict]:
    """Receive until both the ack and the turn's last event came (the turn may finish before the ack)."""
    frames: list[dict] = []
    while {"chat.ack", "turn.done"} - {frame["type"] for frame in frames}:
        frames.append(await communicator.receive_json_from(timeout=10))
    return frames


async def test_a_message_is_acknowledged_only_once_it_is_stored(fake_llm, user):
    fake_llm.script(route("reply"), reply("明天上午有高数。"))
    conversation = await database_sync_to_async(make_conversation)(user)
    communicator = await connect(user)

    await communicator.send_json_to(send(conversation))
    ack = await receive_ack(communicator)
    stored = await student_messages(conversation)  # read the moment the ack arrives
    await join_turns()

    assert stored == [("明天有什么课？", "m-1")]
    message = await database_sync_to_async(Message.objects.get)(pk=ack["message_id"])
    assert ack == {"type": "chat.ack", "conversation_id": conversation.pk, "client_message_id": "m-1",
                   "message_id": message.pk, "turn_id": str(message.turn_id)}
    await communicator.disconnect()


async def test_a_resend_with_the_same_id_is_acknowledged_again_and_starts_no_second_turn(fake_llm, user):
    fake_llm.script(route("reply"), reply("明天上午有高数。"))
    conversation = await database_sync_to_async(make_conversation)(user)
    communicator = await connect(user)
    await communicator.send_json_to(send(conversation))
    first = next(frame for frame in await receive_ack_and_turn(communicator) if frame["type"] == "chat.ack")
    await join_turns()
    events = len(await database_sync_to_async(timeline)(conversation))

    await communicator.send_json_to(send(conversation))
    again = await communicator.receive_json_from(timeout=5)

    assert again == first
    assert await communicator.receive_nothing(timeout=0.3)
    assert await student_messages(conversation) == [("明天有什么课？", "m-1")]
    assert len(await database_sync_to_async(timeline)(conversation)) == events
    await communicator.disconnect()


async def test_a_resend_while_its_turn_still_runs_is_acknowledged_not_refused_as_busy(fake_llm, user):
    fake_llm.script({**route("reply"), "delay": 0.5}, reply("好的"))
    conversation = await database_sync_to_async(make_conversation)(user)
    communicator = await connect(user)

    await communicator.send_json_to(send(conversation))
    await communicator.send_json_to(send(conversation))
    frames = await receive_ack_and_turn(communicator)
    while len(acks := [frame for frame in frames if frame["type"] == "chat.ack"]) < 2:
        frames.append(await communicator.receive_json_from(timeout=5))
    await join_turns()

    assert acks[0] == acks[1]
    assert not [frame for frame in frames if frame["type"] == "error"]
    assert await student_messages(conversation) == [("明天有什么课？", "m-1")]
    await communicator.disconnect()


async def test_a_refused_message_is_named_in_its_error_frame_so_the_page_can_offer_a_resend(user):
    conversation = await database_sync_to_async(make_conversation)(user)
    await database_sync_to_async(Conversation.objects.filter(pk=conversation.pk).update)(
        running_turn_id="7c1e0f6a-0000-4000-8000-000000000001")
    communicator = await connect(user)

    await communicator.send_json_to(send(conversation, client_message_id="m-busy"))
    refused = await communicator.receive_json_from(timeout=5)

    assert refused["code"] == "busy" and refused["client_message_id"] == "m-busy"
    assert await student_messages(conversation) == []
    await communicator.disconnect()


@pytest.mark.parametrize("bad", ["", "x" * 65, "has space", 42, "引号"])
async def test_a_malformed_client_message_id_is_refused_and_nothing_is_stored(user, bad):
    conversation = await database_sync_to_async(make_conversation)(user)
    communicator = await connect(user)

    await communicator.send_json_to({**send(conversation), "client_message_id": bad})
    frame = await communicator.receive_json_from(timeout=5)

    if bad == "":  # the field's default: a client that never resends
        assert frame["type"] != "error"
        await join_turns()
    else:
        assert frame["code"] == "invalid_frame" and frame["detail"] == {"field": "client_message_id"}
        assert await student_messages(conversation) == []
    await communicator.disconnect()


async def test_a_socket_whose_replay_cannot_join_closes_and_its_reconnect_follows_the_conversation(
        fake_llm, user, settings):
    settings.CHANNEL_LAYERS = join_fails_once("conversation.")
    fake_llm.script(route("reply"), reply("明天上午有高数。"))
    conversation = await database_sync_to_async(make_conversation)(user)
    deaf = await connect(user)

    await deaf.send_json_to({"type": "replay", "conversation_id": conversation.pk, "after_seq": 0})
    assert await deaf.receive_output(timeout=5) == CLOSE_TRY_AGAIN

    again = await connect(user)
    await again.send_json_to({"type": "replay", "conversation_id": conversation.pk, "after_seq": 0})
    assert await again.receive_nothing(timeout=0.2)  # nothing stored yet, and the socket stays open
    await database_sync_to_async(turn_start)(user=user, conversation_id=conversation.pk, text="明天有什么课？")
    followed = await receive_until_done(again)
    await join_turns()

    assert get_channel_layer().failed_joins == [f"conversation.{conversation.pk}"]
    assert followed == await database_sync_to_async(timeline)(conversation)
    await again.disconnect()


async def test_a_message_sent_as_the_join_fails_is_not_stored_and_its_resend_after_reconnect_is(fake_llm, user,
                                                                                               settings):
    settings.CHANNEL_LAYERS = join_fails_once("conversation.")
    fake_llm.script(route("reply"), reply("明天上午有高数。"))
    conversation = await database_sync_to_async(make_conversation)(user)
    dropped = await connect(user)

    await dropped.send_json_to(send(conversation))
    assert await dropped.receive_output(timeout=5) == CLOSE_TRY_AGAIN
    assert await student_messages(conversation) == []

    again = await connect(user)
    await again.send_json_to(send(conversation))
    ack = await receive_ack(again)
    await join_turns()

    assert ack["client_message_id"] == "m-1"
    assert await student_messages(conversation) == [("明天有什么课？", "m-1")]
    await again.disconnect()


async def test_with_the_real_redis_layer_unreachable_a_socket_closes_to_retry_not_deaf(user, settings):
    with socket.socket() as probe:  # a port on this machine where nothing listens: Redis is down
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": [{"address": f"redis://127.0.0.1:{port}"}]}}}

    communicator = await connect(user)

    assert await communicator.receive_output(timeout=5) == CLOSE_TRY_AGAIN


async def test_a_join_that_never_answers_closes_the_socket_after_the_join_timeout(user, settings, monkeypatch):
    monkeypatch.setattr(consumers, "JOIN_TIMEOUT", 0.2)
    settings.CHANNEL_LAYERS = join_fails_once("conversation.", hang=True)  # Redis stopped answering
    conversation = await database_sync_to_async(make_conversation)(user)
    communicator = await connect(user)

    await communicator.send_json_to({"type": "replay", "conversation_id": conversation.pk, "after_seq": 0})

    assert await communicator.receive_output(timeout=3) == CLOSE_TRY_AGAIN


async def test_a_socket_that_cannot_join_its_students_group_closes_so_the_page_reconnects(user, settings):
    settings.CHANNEL_LAYERS = join_fails_once("user-")

    communicator = await connect(user)

    assert await communicator.receive_output(timeout=5) == CLOSE_TRY_AGAIN
    assert (await connect(user)).output_queue.empty()  # the next connection joins and stays open
