"""The assistant's websocket: who may connect, frames into turns, live events, replay and isolation."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from agent import embedded_turns
from agent.models import WebsocketTicket
from agent.services.tickets import ticket_create
from agent.tests.factories import make_conversation, reply, route, timeline
from smartmate.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")  # the page's own origin: the same scheme, host and port as Origin
ENGLISH = (b"accept-language", b"en")  # the consumer speaks the page's language; assertions quote English


def session_cookie(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    return b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()


async def connect(user=None, path: str = "/ws/agent/") -> WebsocketCommunicator:
    headers = [ORIGIN, HOST, ENGLISH] + ([await database_sync_to_async(session_cookie)(user)] if user else [])
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def receive_until_done(communicator: WebsocketCommunicator) -> list[dict]:
    frames: list[dict] = []
    while not frames or frames[-1]["type"] not in ("turn.done",):
        frames.append(await communicator.receive_json_from(timeout=10))
    return frames


async def join_turns() -> None:
    # Off the loop: a turn thread may be waiting for this loop to deliver its last event.
    assert await asyncio.get_running_loop().run_in_executor(None, embedded_turns.join)


async def test_an_anonymous_socket_is_closed_with_4401():
    communicator = await connect()
    assert await communicator.receive_output(timeout=5) == {"type": "websocket.close", "code": 4401}


async def test_a_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(application, "/ws/agent/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await communicator.connect()
    assert connected is False


async def test_a_message_streams_back_the_whole_turn(fake_llm, user):
    fake_llm.script(route("reply"), reply("你好！我是时伴。"))
    conversation = await database_sync_to_async(make_conversation)(user)
    communicator = await connect(user)

    await communicator.send_json_to({"type": "chat.send", "conversation_id": conversation.pk, "text": "你好"})
    frames = await receive_until_done(communicator)
    await join_turns()

    assert [frame["type"] for frame in frames] == [
        "status", "context", "assistant.delta", "assistant.delta", "usage", "turn.done"]
    assert "".join(frame["text"] for frame in frames if frame["type"] == "assistant.delta") == "你好！我是时伴。"
    assert frames == await database_sync_to_async(timeline)(conversation)
    await communicator.disconnect()


async def test_a_turn_streams_through_the_redis_layer_too(fake_llm, user, redis_channel_layer):
    fake_llm.script(route("reply"), reply("你好！"))
    conversation = await database_sync_to_async(make_conversation)(user)
    communicator = await connect(user)

    await communicator.send_json_to({"type": "chat.send", "conversation_id": conversation.pk, "text": "你好"})
    frames = await receive_until_done(communicator)
    await join_turns()

    assert frames == await database_sync_to_async(timeline)(conversation)
    await communicator.disconnect()


async def test_a_reconnecting_client_replays_exactly_what_it_missed(fake_llm, user):
    fake_llm.script(route("reply"), reply("你好！"))
    conversation = await database_sync_to_async(make_conversation)(user)
    first = await connect(user)
    await first.send_json_to({"type": "chat.send", "conversation_id": conversation.pk, "text": "你好"})
    seen = (await first.receive_json_from(timeout=10))["seq"]
    await first.disconnect()
    await join_turns()

    second = await connect(user)
    await second.send_json_to({"type": "replay", "conversation_id": conversation.pk, "after_seq": seen})
    replayed = await receive_until_done(second)

    stored = await database_sync_to_async(timeline)(conversation)
    assert replayed == stored[seen:]
    assert await second.receive_nothing(timeout=0.2)
    await second.disconnect()


async def test_two_students_never_see_each_others_events(fake_llm, user, other_user):
    fake_llm.script(route("reply"), reply("给第一个学生的回答"))
    mine = await database_sync_to_async(make_conversation)(user)
    theirs = await database_sync_to_async(make_conversation)(other_user)
    me, them = await connect(user), await connect(other_user)
    await them.send_json_to({"type": "replay", "conversation_id": theirs.pk, "after_seq": 0})

    await them.send_json_to({"type": "replay", "conversation_id": mine.pk, "after_seq": 0})
    refused = await them.receive_json_from(timeout=5)
    await me.send_json_to({"type": "chat.send", "conversation_id": mine.pk, "text": "你好"})
    await receive_until_done(me)
    await join_turns()

    assert refused["type"] == "error" and refused["code"] == "conversation_not_found"
    assert await them.receive_nothing(timeout=0.3)
    await me.disconnect()
    await them.disconnect()


async def test_a_second_message_while_the_turn_runs_gets_a_busy_error_frame(fake_llm, user):
    fake_llm.script({**route("reply"), "delay": 0.5}, reply("好的"))
    conversation = await database_sync_to_async(make_conversation)(user)
    communicator = await connect(user)
    send = {"type": "chat.send", "conversation_id": conversation.pk, "text": "你好"}

    await communicator.send_json_to(send)
    await communicator.send_json_to({**send, "text": "还在吗"})
    frames = await receive_until_done(communicator)
    await join_turns()

    busy = [frame for frame in frames if "seq" not in frame]
    assert len(busy) == 1 and busy[0]["code"] == "busy"
    assert busy[0]["message"] == ("The assistant is still answering in this conversation. Wait for it to finish, "
                                  "or stop it first.")
    await communicator.disconnect()


@pytest.mark.parametrize("raw, code", [
    ("not json", "malformed_frame"),
    ('{"type": "dance"}', "unknown_frame"),
    ('{"type": "chat.send", "conversation_id": 1}', "invalid_frame"),
    ("x" * (16 * 1024 + 1), "frame_too_large"),
    # The probe: a 16 KB [[[[…]]]] frame answered internal_error and logged a RecursionError.
    ("[" * 8000 + "]" * 8000, "malformed_frame"),
    ('{"type": "chat.send", "conversation_id": 1, "text": ' + "[" * 70 + "]" * 70 + "}", "malformed_frame"),
    ("[1, 2]", "malformed_frame"),
    ("42", "malformed_frame"),
    ('"chat.send"', "malformed_frame"),
    ("null", "malformed_frame"),
    ("\ud800{}", "malformed_frame"),  # a lone surrogate: not UTF-8 text
    ('{"type": "chat.send", "conversation_id": 1, "text": "\\ud800"}', "malformed_frame"),
    ('{"type": "replay", "conversation_id": 1' + "0" * 40 + "}", "invalid_frame"),
])
async def test_a_bad_frame_gets_an_error_frame_and_the_socket_stays_open(user, raw, code):
    communicator = await connect(user)
    await communicator.send_to(text_data=raw)
    error = await communicator.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == code and set(error) == {"type", "code", "message", "detail"}

    await communicator.send_json_to({"type": "chat.send", "conversation_id": 999999, "text": "你好"})
    assert (await communicator.receive_json_from(timeout=5))["code"] == "conversation_not_found"
    await communicator.disconnect()


async def test_cancel_stops_a_streaming_answer_at_once_and_keeps_what_was_shown(fake_llm, user):
    # The probe: chat.cancel during a streamed answer did not stop it; every delta was still sent,
    # stored and charged (10 s for a slow model).
    from agent.models import Message

    long_answer = "这是一个很长的回答，" * 20
    fake_llm.script(route("reply"), reply(long_answer, chunk_delay=0.05))
    conversation = await database_sync_to_async(make_conversation)(user)
    communicator = await connect(user)
    await communicator.send_json_to({"type": "chat.send", "conversation_id": conversation.pk, "text": "讲讲"})
    frames = []
    while not frames or frames[-1]["type"] != "assistant.delta":
        frames.append(await communicator.receive_json_from(timeout=10))

    asked = asyncio.get_running_loop().time()
    await communicator.send_json_to({"type": "chat.cancel", "conversation_id": conversation.pk})
    frames += await receive_until_done(communicator)
    took = asyncio.get_running_loop().time() - asked
    await join_turns()

    types = [frame["type"] for frame in frames]
    stopped_at = next(index for index, frame in enumerate(frames) if frame.get("code") == "cancelled")
    shown = "".join(frame["text"] for frame in frames if frame["type"] == "assistant.delta")
    stored = await database_sync_to_async(Message.objects.get)(conversation=conversation, role="assistant")
    assert took < 1.5, f"turn.done came {took:.2f} s after the stop"
    assert "assistant.delta" not in types[stopped_at:]
    assert frames[-1]["outcome"] == "cancelled"
    assert 0 < len(shown) < len(long_answer)
    assert (stored.content, stored.outcome) == (shown, "cancelled")
    usage = next(frame for frame in frames if frame["type"] == "usage")
    assert usage["estimated"] is True and usage["completion_tokens"] > 0  # what was received, estimated
    await communicator.disconnect()


async def test_a_resume_without_an_open_question_is_stale(user):
    conversation = await database_sync_to_async(make_conversation)(user)
    communicator = await connect(user)
    await communicator.send_json_to({"type": "chat.resume", "conversation_id": conversation.pk,
                                     "interaction_id": "old", "action": "accept"})
    error = await communicator.receive_json_from(timeout=5)
    assert (error["code"], error["message"]) == ("stale_interaction", "This confirmation or question is no longer open.")
    await communicator.disconnect()


async def test_a_ticket_opens_one_socket_for_its_student(fake_llm, user, other_user):
    issued = await database_sync_to_async(ticket_create)(user=user)
    theirs = await database_sync_to_async(make_conversation)(other_user)
    communicator = await connect(path=f"/ws/agent/?ticket={issued.ticket}")

    await communicator.send_json_to({"type": "replay", "conversation_id": theirs.pk})
    assert (await communicator.receive_json_from(timeout=5))["code"] == "conversation_not_found"
    await communicator.disconnect()

    again = await connect(path=f"/ws/agent/?ticket={issued.ticket}")
    assert await again.receive_output(timeout=5) == {"type": "websocket.close", "code": 4401}


async def test_an_expired_or_made_up_ticket_is_refused(user):
    issued = await database_sync_to_async(ticket_create)(user=user)
    await database_sync_to_async(WebsocketTicket.objects.update)(expires_at=timezone.now() - timedelta(seconds=1))

    for ticket in (issued.ticket, "made-up"):
        communicator = await connect(path=f"/ws/agent/?ticket={ticket}")
        assert await communicator.receive_output(timeout=5) == {"type": "websocket.close", "code": 4401}


async def test_cancel_over_the_socket_ends_the_turn_as_cancelled(fake_llm, user):
    fake_llm.script(route("reply"), reply("一二三四五六七八九十", chunk_delay=0.15))
    conversation = await database_sync_to_async(make_conversation)(user)
    communicator = await connect(user)
    await communicator.send_json_to({"type": "chat.send", "conversation_id": conversation.pk, "text": "数数"})
    while (await communicator.receive_json_from(timeout=10))["type"] != "assistant.delta":
        pass

    await communicator.send_json_to({"type": "chat.cancel", "conversation_id": conversation.pk})
    frames = await receive_until_done(communicator)
    await join_turns()

    assert frames[-1]["outcome"] == "cancelled"
    assert json.dumps(frames, ensure_ascii=False).count('"cancelled"') >= 2
    await communicator.disconnect()


async def test_a_card_is_answered_over_the_socket_and_the_turn_goes_on(fake_llm, user):
    from agent.tests.factories import plan

    fake_llm.script(route("plan"), plan("复习计划"), reply("计划已开始。"))
    conversation = await database_sync_to_async(make_conversation)(user)
    communicator = await connect(user)
    await communicator.send_json_to({"type": "chat.send", "conversation_id": conversation.pk, "text": "安排复习",
                                     "thinking": "off"})
    first = await receive_until_done(communicator)
    card = next(frame for frame in first if frame["type"] == "confirm.request")
    assert first[-1]["outcome"] == "interrupted"

    await communicator.send_json_to({"type": "chat.resume", "conversation_id": conversation.pk,
                                     "interaction_id": card["interaction_id"], "action": "accept"})
    second = await receive_until_done(communicator)
    await join_turns()

    assert [frame["type"] for frame in second][-2:] == ["usage", "turn.done"]
    assert "".join(frame["text"] for frame in second if frame["type"] == "assistant.delta") == "计划已开始。"
    assert second[0]["seq"] == first[-1]["seq"] + 1
    assert fake_llm.requests[-1].body.get("thinking") is None  # endpoint family "none": nothing sent
    await communicator.disconnect()


async def test_regenerate_over_the_socket_streams_a_new_answer(fake_llm, user):
    fake_llm.script(route("reply"), reply("旧的"), route("reply"), reply("新的"))
    conversation = await database_sync_to_async(make_conversation)(user)
    communicator = await connect(user)
    await communicator.send_json_to({"type": "chat.send", "conversation_id": conversation.pk, "text": "你好"})
    await receive_until_done(communicator)

    await communicator.send_json_to({"type": "chat.regenerate", "conversation_id": conversation.pk})
    frames = await receive_until_done(communicator)
    await join_turns()

    assert "".join(frame["text"] for frame in frames if frame["type"] == "assistant.delta") == "新的"
    await communicator.disconnect()
