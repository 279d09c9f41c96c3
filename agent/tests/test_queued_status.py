"""A turn that has to wait (for the student's fair share, a free thread, or a worker) first says so with
``status(queued)``; a turn that starts at once does not."""

from __future__ import annotations

import pytest

from agent import embedded_turns
from agent.services.turns import turn_start
from agent.tests.factories import make_conversation, reply, route, timeline

pytestmark = [pytest.mark.django_db(transaction=True)]


def first_status(conversation, turn_id: str) -> dict:
    return next(frame for frame in timeline(conversation) if frame["turn_id"] == turn_id)


def test_a_turn_waiting_for_the_students_fair_share_is_queued_first(fake_llm, user, settings):
    settings.AGENT_EMBEDDED_TURNS_PER_STUDENT = 1
    fake_llm.script({**route("reply"), "delay": 0.5}, reply("第一个"), route("reply"), reply("第二个"))
    first, second = make_conversation(user), make_conversation(user)

    running = turn_start(user=user, conversation_id=first.pk, text="你好", language="zh-hans")
    waiting = turn_start(user=user, conversation_id=second.pk, text="在吗", language="zh-hans")
    assert embedded_turns.join(timeout=20)

    assert first_status(first, running.turn_id)["code"] == "routing"  # it started at once
    queued = first_status(second, waiting.turn_id)
    assert (queued["type"], queued["code"], queued["message"]) == ("status", "queued", "正在排队，等待空闲的助手…")
    frames = [frame for frame in timeline(second) if frame["turn_id"] == waiting.turn_id]
    assert [frame.get("code") for frame in frames[:2]] == ["queued", "routing"] and frames[-1]["outcome"] == "completed"


def test_a_turn_waiting_for_a_free_thread_is_queued_first(fake_llm, user, other_user, settings):
    settings.AGENT_EMBEDDED_TURNS = 1
    fake_llm.script({**route("reply"), "delay": 0.5}, reply("第一个"), route("reply"), reply("第二个"))
    mine, theirs = make_conversation(user), make_conversation(other_user)

    turn_start(user=user, conversation_id=mine.pk, text="你好")
    waiting = turn_start(user=other_user, conversation_id=theirs.pk, text="在吗")
    assert embedded_turns.join(timeout=20)

    assert first_status(theirs, waiting.turn_id)["code"] == "queued"
