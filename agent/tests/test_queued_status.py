"""A turn that has to wait (for the student's fair share, a free thread, or a worker) first says so with
``status(queued)``; a turn that starts at once does not."""

from __future__ import annotations

import time

import pytest

from agent import embedded_turns
from agent.models import Conversation
from agent.services.turns import turn_cancel, turn_start
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


def test_stop_on_a_queued_turn_ends_it_at_once_and_it_never_runs(fake_llm, user, settings):
    # The probe: Stop on a turn queued behind her other conversation's turn waited for it (4.9 s).
    settings.AGENT_EMBEDDED_TURNS_PER_STUDENT = 1
    fake_llm.script({**route("reply"), "delay": 1.5}, reply("第一个"))
    first, second = make_conversation(user), make_conversation(user)
    turn_start(user=user, conversation_id=first.pk, text="你好", language="zh-hans")
    turn_start(user=user, conversation_id=second.pk, text="在吗", language="zh-hans")

    pressed = time.monotonic()
    assert turn_cancel(user=user, conversation_id=second.pk) is True
    took = time.monotonic() - pressed
    ended = [(frame["type"], frame.get("code") or frame.get("outcome")) for frame in timeline(second)]
    assert embedded_turns.join(timeout=20)

    assert took < 0.5, f"Stop took {took:.2f} s"
    assert ended == [("status", "queued"), ("status", "cancelled"), ("turn.done", "cancelled")]
    assert timeline(second)[1]["message"] == "已按你的要求停止。"
    assert [(frame["type"], frame.get("code") or frame.get("outcome")) for frame in timeline(second)] == ended
    assert Conversation.objects.get(pk=second.pk).running_turn_id is None
    assert len(fake_llm.requests) == 2  # only the other conversation's turn asked the model
