"""Whole turns driven by the scripted fake LLM: the exact event sequence and the database afterwards."""

from __future__ import annotations

import time

import pytest
from django.utils import translation

from accounts.models import User
from agent import embedded_turns
from agent.exceptions import TurnBusyError
from agent.models import Checkpoint, Conversation, Message, TimelineEvent
from agent.services.running import turn_run
from agent.services.turns import turn_cancel, turn_start
from agent.tests.factories import deltas, make_conversation, reply, route, run_turn, timeline, types
from smartmate.llm.errors import LLMRequestRejected

pytestmark = pytest.mark.django_db(transaction=True)

DIRECT_REPLY = ["status", "context", "assistant.delta*", "usage", "turn.done"]


def test_a_direct_reply_streams_then_reports_usage_and_ends(fake_llm, user):
    fake_llm.script(route("reply"), reply("你好！我是时伴，有什么可以帮你？"))
    conversation = make_conversation(user)

    frames = run_turn(user, conversation, "你好")

    assert types(frames) == DIRECT_REPLY
    assert [frame["seq"] for frame in frames] == list(range(1, len(frames) + 1))
    # The first piece goes out as it arrives; the rest is coalesced into fewer events (agent.flow.streaming).
    assert deltas(frames) == ["你好！我", "是时伴，有什么可以帮你？"]
    assert frames[0] | {"turn_id": None} == {"type": "status", "code": "routing", "message": "Reading your message…",
                                              "seq": 1, "conversation_id": conversation.pk, "turn_id": None}
    assert {key: frames[-2][key] for key in ("prompt_tokens", "completion_tokens", "total_tokens", "calls")} == {
        "prompt_tokens": 220, "completion_tokens": 13, "total_tokens": 233, "calls": 2}
    answer = Message.objects.get(conversation=conversation, role="assistant")
    assert frames[-1]["outcome"] == "completed" and frames[-1]["message_id"] == answer.pk


def test_a_direct_reply_leaves_both_messages_the_usage_and_a_free_conversation(fake_llm, user):
    fake_llm.script(route("reply"), reply("你好！"))
    conversation = make_conversation(user)

    run_turn(user, conversation, "  你好  ")

    rows = list(conversation.messages.values_list("role", "content", "prompt_tokens", "completion_tokens"))
    assert rows == [("user", "你好", 0, 0), ("assistant", "你好！", 220, 13)]
    assert User.objects.get(pk=user.pk).token_usage == 233
    conversation.refresh_from_db()
    assert (conversation.running_turn_id, conversation.title) == (None, "你好")
    checkpoint = Checkpoint.objects.get(conversation=conversation)
    assert (checkpoint.phase, checkpoint.state["answer"], checkpoint.state["route"]) == ("completed", "你好！", "reply")


def test_the_router_asks_for_json_and_the_reply_is_streamed(fake_llm, user):
    fake_llm.script(route("reply"), reply("好的"))
    run_turn(user, make_conversation(user), "你好")

    router, answer = fake_llm.requests
    assert router.body["response_format"] == {"type": "json_object"} and not router.stream
    assert answer.stream and "response_format" not in answer.body
    assert router.messages[-1] == {"role": "user", "content": "你好"}
    assert "你是「时伴」" in router.messages[0]["content"] and '"route"' in router.messages[0]["content"]


def test_reasoning_streams_before_the_answer_and_is_kept(fake_llm, user):
    fake_llm.script(route("reply"), reply("答案是 42。", reasoning="先想一想这个问题"))
    conversation = make_conversation(user)

    frames = run_turn(user, conversation, "宇宙的答案？")

    assert types(frames) == ["status", "context", "reasoning.delta*", "assistant.delta*", "usage", "turn.done"]
    assert "".join(deltas(frames, "reasoning.delta")) == "先想一想这个问题"
    assert Message.objects.get(conversation=conversation, role="assistant").reasoning == "先想一想这个问题"


def test_the_model_sees_the_earlier_messages_of_the_conversation(fake_llm, user):
    conversation = make_conversation(user)
    fake_llm.script(route("reply"), reply("你好，小明！"), route("reply"), reply("你叫小明。"))
    run_turn(user, conversation, "我叫小明")

    run_turn(user, conversation, "我叫什么？")

    assert fake_llm.requests[-1].messages[1:] == [
        {"role": "user", "content": "我叫小明"}, {"role": "assistant", "content": "你好，小明！"},
        {"role": "user", "content": "我叫什么？"}]
    assert [frame["seq"] for frame in timeline(conversation)] == list(range(1, TimelineEvent.objects.count() + 1))


def test_three_malformed_routing_answers_end_the_turn_with_a_visible_error(fake_llm, user):
    fake_llm.script({"text": "当然可以！"}, {"text": '{"route": "dance"}'}, {"text": "[1, 2]"})
    conversation = make_conversation(user)

    frames = run_turn(user, conversation, "你好")

    assert types(frames) == ["status", "error", "usage", "turn.done"]
    assert frames[1]["code"] == "llm_malformed_output"
    assert frames[1]["message"] == ("The assistant could not decide how to handle your message: its answer was "
                                    "malformed 3 times in a row. Please try again.")
    assert frames[2]["calls"] == 3 and frames[3]["outcome"] == "failed"
    assert len(fake_llm.requests) == 3 and fake_llm.pending == 0
    assert not Message.objects.filter(conversation=conversation, role="assistant").exists()


def test_a_malformed_routing_answer_goes_back_to_the_model_with_the_problem(fake_llm, user):
    fake_llm.script({"text": '{"route": "dance"}'}, route("reply"), reply("好的"))

    frames = run_turn(user, make_conversation(user), "你好")

    assert types(frames) == DIRECT_REPLY
    correction = fake_llm.requests[1].messages[-2:]
    assert correction[0] == {"role": "assistant", "content": '{"route": "dance"}'}
    assert "\"route\" must be one of reply, plan, execute, quick_note; got 'dance'" in correction[1]["content"]


def test_a_student_over_quota_gets_an_error_and_the_model_is_never_called(fake_llm, user):
    User.objects.filter(pk=user.pk).update(token_limit=100, token_usage=100)
    fake_llm.script(route("reply"), reply("不该出现"))

    frames = run_turn(user, make_conversation(user), "你好")

    assert types(frames) == ["status", "error", "turn.done"]
    assert frames[1]["code"] == "quota_exceeded"
    assert frames[1]["message"].startswith("You have used this week's assistant quota. It resets on ")
    assert fake_llm.requests == []


def test_without_a_model_configured_the_student_reads_what_works_and_the_log_names_the_settings(user, caplog):
    with translation.override("zh-hans"):
        frames = run_turn(user, make_conversation(user), "你好")

    assert types(frames) == ["status", "error", "turn.done"]
    assert frames[1]["code"] == "llm_not_configured" and frames[1]["detail"] is None
    assert frames[1]["message"].startswith("这里还没有开通助手")
    assert not any(name in frames[1]["message"] for name in ("LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL"))
    assert frames[2]["outcome"] == "failed"
    assert any("LLM_BASE_URL" in record.getMessage() for record in caplog.records)


def test_the_endpoint_failing_becomes_an_error_event(fake_llm, user, settings):
    settings.LLM_MAX_RETRIES = 0
    fake_llm.script(route("reply"), {"status": 400, "error_message": "model not found"})

    frames = run_turn(user, make_conversation(user), "你好")

    assert types(frames) == ["status", "context", "error", "usage", "turn.done"]
    assert frames[2]["code"] == "llm_request_rejected"
    assert "model not found" not in frames[2]["message"] and "HTTP" not in frames[2]["message"]
    assert frames[2]["message"] == str(LLMRequestRejected("x").student_message())


def test_a_second_message_while_a_turn_runs_is_refused_as_busy(fake_llm, user):
    conversation = make_conversation(user)
    fake_llm.script({**route("reply"), "delay": 0.5}, reply("好的"))
    turn_start(user=user, conversation_id=conversation.pk, text="第一条")

    with pytest.raises(TurnBusyError) as refused:
        turn_start(user=user, conversation_id=conversation.pk, text="第二条")

    assert refused.value.code == "busy" and refused.value.status == 409
    assert embedded_turns.join(timeout=20)
    assert list(conversation.messages.filter(role="user").values_list("content", flat=True)) == ["第一条"]


def test_cancel_stops_the_turn_and_keeps_the_answer_shown_so_far(fake_llm, user):
    conversation = make_conversation(user)
    fake_llm.script(route("reply"), reply("第一段，第二段，第三段。", chunk_delay=0.15))
    started = turn_start(user=user, conversation_id=conversation.pk, text="你好")
    _wait_for(lambda: TimelineEvent.objects.filter(conversation=conversation, type="assistant.delta").exists())

    assert turn_cancel(user=user, conversation_id=conversation.pk) is True
    assert embedded_turns.join(timeout=20)

    frames = [frame for frame in timeline(conversation) if frame["turn_id"] == started.turn_id]
    assert types(frames) == ["status", "context", "assistant.delta*", "status", "usage", "turn.done"]
    assert frames[-3]["code"] == "cancelled" and frames[-1]["outcome"] == "cancelled"
    # The answer the student watched arrive is kept, exactly as far as it got.
    shown = "".join(frame["text"] for frame in frames if frame["type"] == "assistant.delta")
    assert Message.objects.get(conversation=conversation, role="assistant").content == shown
    assert shown and "第一段，第二段，第三段。".startswith(shown)
    assert Conversation.objects.get(pk=conversation.pk).running_turn_id is None


@pytest.mark.parametrize("silence", [
    pytest.param({"delay": 8}, id="the-first-byte-is-8-s-away"),
    pytest.param({"chunk_size": 3, "stall_after": 1, "delay": 8}, id="an-8-s-gap-mid-stream"),
])
def test_stop_ends_the_turn_at_once_while_the_model_is_silent(fake_llm, user, silence):
    # The probe: the stop was asked only between streamed chunks, so a model silent for 8 s
    # (a slow first token, a reasoning model thinking) kept the turn running for those 8 s.
    conversation = make_conversation(user)
    fake_llm.script(route("reply"), reply("第一段，第二段，第三段。", **silence))
    started = turn_start(user=user, conversation_id=conversation.pk, text="你好")
    _wait_for(lambda: len(fake_llm.requests) == 2)  # the answer's call is out
    time.sleep(0.3)

    pressed = time.monotonic()
    assert turn_cancel(user=user, conversation_id=conversation.pk) is True
    _wait_for(lambda: TimelineEvent.objects.filter(conversation=conversation, type="status",
                                                   payload__code="cancelled").exists(), timeout=10)
    took = time.monotonic() - pressed
    assert embedded_turns.join(timeout=20)
    time.sleep(1)  # nothing more may come from the stopped call

    assert took < 0.5, f"the turn stopped {took:.2f} s after the stop"
    frames = [frame for frame in timeline(conversation) if frame["turn_id"] == started.turn_id]
    stopped_at = next(index for index, frame in enumerate(frames) if frame.get("code") == "cancelled")
    assert [frame["type"] for frame in frames[stopped_at:]] == ["status", "usage", "turn.done"]
    assert frames[-1]["outcome"] == "cancelled"
    shown = "".join(frame["text"] for frame in frames if frame["type"] == "assistant.delta")
    assert shown == ("" if "stall_after" not in silence else "第一段")
    assert Conversation.objects.get(pk=conversation.pk).running_turn_id is None


def test_cancel_without_a_running_turn_does_nothing(user, db):
    conversation = make_conversation(user)
    assert turn_cancel(user=user, conversation_id=conversation.pk) is False


def test_replay_after_a_seq_returns_exactly_the_later_events(fake_llm, user):
    fake_llm.script(route("reply"), reply("你好！"))
    conversation = make_conversation(user)
    frames = run_turn(user, conversation, "你好")

    assert timeline(conversation, after_seq=2) == frames[2:]
    assert timeline(conversation, after_seq=len(frames)) == []


def test_a_crashed_turn_resumes_from_its_last_checkpoint(fake_llm, user):
    conversation = make_conversation(user)
    fake_llm.script(route("reply"), reply("你好！"))
    started = turn_start(user=user, conversation_id=conversation.pk, text="你好")
    embedded_turns.join(timeout=20)
    # Pretend the worker died after the chat node: lock still held, checkpoint at "deliver", and the
    # deliver node's events (usage, turn.done) never written.
    checkpoint = Checkpoint.objects.get(conversation=conversation)
    Checkpoint.objects.filter(pk=checkpoint.pk).update(phase="deliver")
    TimelineEvent.objects.filter(turn_id=started.turn_id, type__in=["usage", "turn.done"]).delete()
    Conversation.objects.filter(pk=conversation.pk).update(running_turn_id=started.turn_id)
    done_before = TimelineEvent.objects.filter(conversation=conversation).count()

    turn_run(conversation_id=conversation.pk, turn_id=started.turn_id, language="en")

    resumed = timeline(conversation, after_seq=done_before)
    assert types(resumed) == ["status", "answer.reset", "usage", "turn.done"] and resumed[0]["code"] == "resumed"
    # The page is told the answer so far (the chat node's, from the checkpoint) and drops anything else.
    assert resumed[1]["text"] == "你好！"
    assert Message.objects.filter(conversation=conversation, role="assistant").count() == 1
    assert len(fake_llm.requests) == 2


def test_a_turn_no_longer_holding_the_lock_is_skipped(user, db):
    conversation = make_conversation(user)
    turn_run(conversation_id=conversation.pk, turn_id="00000000-0000-0000-0000-000000000000", language="en")
    assert not TimelineEvent.objects.exists()


def _wait_for(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


def test_a_slow_title_runs_beside_the_turn_and_never_holds_the_next_message(fake_llm, user, auto_titles, settings):
    # The probe: on embedded defaults a 4 s background call delayed turn.done by 8 s and the
    # student's next message got "busy".
    from smartmate.platform.outbox.background import background_join

    settings.OUTBOX_BACKGROUND_IN_PROCESS = True  # what `make run` does
    fake_llm.set_responder(lambda request: {"text": "期望的含义", "delay": 2.0}
                           if request.messages[0]["content"].startswith("给下面这段对话起一个简短的标题") else None)
    fake_llm.script(route("reply"), reply("概率论的期望是……"), route("reply"), reply("好的。"))
    conversation = make_conversation(user)
    started = time.monotonic()
    first = run_turn(user, conversation, "请解释一下概率论里的期望是什么意思")
    first_took = time.monotonic() - started
    second = run_turn(user, conversation, "谢谢")

    assert first[-1]["type"] == "turn.done" and first_took < 1.5, f"the first turn took {first_took:.2f} s"
    assert second[-1]["outcome"] == "completed"
    assert background_join(timeout=10)
    conversation.refresh_from_db()
    assert conversation.title == "期望的含义"


def test_a_turns_background_work_starts_after_its_turn_done(fake_llm, user, auto_titles, settings, monkeypatch):
    # Started beside the turn's last steps, the title and memory calls competed with them for the cores.
    from smartmate.platform.outbox import background

    settings.OUTBOX_BACKGROUND_IN_PROCESS = True
    conversation = make_conversation(user)
    seen_at_start: list[tuple[bool, bool]] = []  # per background job: (turn.done stored, conversation released)
    run = background._run

    def run_noting_the_turn(work):
        done = TimelineEvent.objects.filter(conversation=conversation, type="turn.done").exists()
        released = Conversation.objects.get(pk=conversation.pk).running_turn_id is None
        seen_at_start.append((done, released))
        run(work)

    monkeypatch.setattr(background, "_run", run_noting_the_turn)
    fake_llm.script(route("reply"), reply("概率论的期望是……"), reply("期望的含义"))
    events = run_turn(user, conversation, "请解释一下概率论里的期望是什么意思")

    assert events[-1]["type"] == "turn.done"
    assert background.background_join(timeout=10)
    assert seen_at_start and all(seen == (True, True) for seen in seen_at_start)


def test_a_title_is_not_asked_for_past_the_quota(fake_llm, user, auto_titles):
    fake_llm.script(route("reply"), reply("你好！", prompt_tokens=10, completion_tokens=5))
    # The route (105 tokens) and the reply (15) fit; they leave nothing for a title.
    User.objects.filter(pk=user.pk).update(token_limit=1000, token_usage=880)
    conversation = make_conversation(user)
    run_turn(user, conversation, "请解释一下概率论里的期望是什么意思")
    assert len(fake_llm.requests) == 2  # route and reply; no title call once the quota is spent
