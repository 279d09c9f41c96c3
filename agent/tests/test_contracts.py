"""Every stream event and client frame survives a JSON round trip; bad frames are refused precisely."""

from __future__ import annotations

import json

import pytest

from agent.flow.contracts import (
    EVENT_TYPES,
    AnswerReset,
    AskUser,
    AssistantDelta,
    ChatCancel,
    ChatResume,
    ChatSend,
    ConfirmRequest,
    ContextUsage,
    Envelope,
    ErrorEvent,
    FrameError,
    PreviewReady,
    ReasoningDelta,
    Replay,
    StatusEvent,
    ToolCallEvent,
    ToolResultEvent,
    TurnDone,
    UsageEvent,
    event_from_json,
    event_to_json,
    frame_from_json,
    frame_to_json,
)

EVENTS = [
    StatusEvent(code="routing", message="Reading your message…"),
    AssistantDelta(text="你好"),
    ReasoningDelta(text="先想想"),
    ToolCallEvent(call_id="c1", name="query_range", arguments={"week": 3}, summary="查询第 3 周"),
    ToolResultEvent(call_id="c1", name="query_range", status="done", summary="找到 4 个空闲时段", result={"slots": 4}),
    ConfirmRequest(interaction_id="i1", title="计划确认", summary="共 2 步", details={"steps": ["a", "b"]}),
    AskUser(interaction_id="i2", question="安排在哪几天？"),
    PreviewReady(preview_id=7, summary="新增 4 个学习块"),
    ContextUsage(parts={"system": 300, "memory": 40, "history": 120, "tools": 0, "message": 8}, used=468,
                 budget=24000),
    UsageEvent(prompt_tokens=220, completion_tokens=13, total_tokens=233, calls=2),
    AnswerReset(text="已经说到这里", reasoning=""),
    TurnDone(outcome="completed", message_id=12),
    ErrorEvent(code="busy", message="Still answering.", detail={"conversation_id": 3}),
]


def test_every_event_type_of_the_protocol_has_an_example_here():
    assert {event.type for event in EVENTS} == set(EVENT_TYPES) == {
        "status", "assistant.delta", "reasoning.delta", "tool.call", "tool.result", "confirm.request", "ask.user",
        "preview.ready", "context", "usage", "answer.reset", "turn.done", "error"}


@pytest.mark.parametrize("event", EVENTS, ids=lambda event: event.type)
def test_an_event_round_trips_through_json_text(event):
    assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event


@pytest.mark.parametrize("event", EVENTS, ids=lambda event: event.type)
def test_an_envelope_round_trips_through_json_text(event):
    envelope = Envelope(seq=42, conversation_id=3, turn_id="t-1", event=event)
    frame = json.loads(json.dumps(envelope.to_json()))
    assert frame["type"] == event.type and frame["seq"] == 42
    assert Envelope.from_json(frame) == envelope


def test_an_unknown_event_type_is_refused():
    with pytest.raises(ValueError, match="Unknown event type 'dance'"):
        event_from_json({"type": "dance"})


FRAMES = [
    ChatSend(conversation_id=3, text="你好"),
    ChatResume(conversation_id=3, interaction_id="i1", action="accept"),
    ChatResume(conversation_id=3, interaction_id="i2", action="answer", text="周二和周四"),
    ChatCancel(conversation_id=3),
    Replay(conversation_id=3, after_seq=41),
]


@pytest.mark.parametrize("frame", FRAMES, ids=lambda frame: frame.type)
def test_a_client_frame_round_trips_through_json_text(frame):
    assert frame_from_json(json.loads(json.dumps(frame_to_json(frame)))) == frame


def test_replay_defaults_to_the_whole_timeline():
    assert frame_from_json({"type": "replay", "conversation_id": 3}) == Replay(conversation_id=3, after_seq=0)


@pytest.mark.parametrize("data, code, message", [
    ([1, 2], "malformed_frame", "A frame must be a JSON object."),
    ({"type": "dance"}, "unknown_frame",
     "Unknown frame type; send one of: chat.send, chat.resume, chat.regenerate, chat.cancel, replay."),
    ({"type": "chat.send", "conversation_id": "3", "text": "hi"}, "invalid_frame",
     "conversation_id must be a conversation id (a positive whole number)."),
    ({"type": "chat.send", "conversation_id": True, "text": "hi"}, "invalid_frame",
     "conversation_id must be a conversation id (a positive whole number)."),
    ({"type": "chat.send", "conversation_id": 3, "text": "   "}, "invalid_frame", "text must not be empty."),
    ({"type": "chat.send", "conversation_id": 3, "text": "x" * 4001}, "text_too_long",
     "text is too long: at most 4000 characters."),
    ({"type": "chat.send", "conversation_id": 3, "text": "hi", "jwt": "x"}, "invalid_frame",
     "Unknown fields in chat.send: jwt."),
    ({"type": "chat.resume", "conversation_id": 3, "interaction_id": "i", "action": "maybe"}, "invalid_frame",
     "action must be accept, reject or answer."),
    ({"type": "chat.resume", "conversation_id": 3, "action": "accept"}, "invalid_frame", "interaction_id is required."),
    ({"type": "chat.resume", "conversation_id": 3, "interaction_id": "i", "action": "answer"}, "invalid_frame",
     "text must not be empty."),
    ({"type": "replay", "conversation_id": 3, "after_seq": -1}, "invalid_frame",
     "after_seq must be a whole number, 0 or more."),
])
def test_a_bad_frame_is_refused_with_a_code_and_an_exact_message(data, code, message):
    with pytest.raises(FrameError) as refused:
        frame_from_json(data)
    assert (refused.value.code, refused.value.message) == (code, message)
