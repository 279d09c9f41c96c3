"""Whole turns against recorded streams of real models' habits (``smartmate/llm/tests/transcripts``):
thinking in the text, tool calls written as text, several calls at once, answers cut at the length
limit, full-width and double-encoded arguments. The real client, tools and database; only the model
is replayed."""

from __future__ import annotations

import pytest

from agent.flow.nodes.execute import NOT_RUN
from agent.models import Message
from agent.tests.factories import last_of, make_conversation, plan, reply, resume, route, run_turn, shown_answer
from bench.llm_fixtures import recorded
from taskclasses.models import Task

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("week_two")]


def tool_results(frames):
    return [(frame["name"], frame["status"]) for frame in frames if frame["type"] == "tool.result"]


def answer_of(conversation) -> Message:
    return Message.objects.filter(conversation=conversation, role=Message.Role.ASSISTANT).latest("id")


def test_a_draft_inside_the_thinking_never_decides_the_route_and_thinking_is_never_the_answer(fake_llm, user):
    conversation = make_conversation(user)
    # The router thinks in <think> tags and drafts {"route": "plan"} there before answering "reply".
    fake_llm.script(recorded("route_qwen_think_draft"), recorded("deliver_qwen_think_in_text"))

    frames = run_turn(user, conversation, "你好")

    assert not any(frame["type"] == "confirm.request" for frame in frames)  # no plan card from the draft
    assert shown_answer(frames) == "周六上午是空的，可以安排两小时复习概率论。"
    thinking = "".join(frame["text"] for frame in frames if frame["type"] == "reasoning.delta")
    assert "周六上午有空" in thinking and "<think>" not in thinking
    stored = answer_of(conversation)
    assert stored.content == "周六上午是空的，可以安排两小时复习概率论。" and "周六上午有空" in stored.reasoning

    fake_llm.script(route("reply"), reply("好的。"))
    run_turn(user, conversation, "谢谢")
    history = fake_llm.requests[-1].prompt_text()
    assert "周六上午是空的" in history and "周六上午有空" not in history  # the thinking is not sent back


def test_a_fenced_text_tool_call_after_a_sentence_runs_once_and_a_cut_answer_says_so(fake_llm, user):
    conversation = make_conversation(user)
    fake_llm.script(recorded("route_qwen_think_execute"), recorded("execute_qwen_fenced_call_after_sentence"),
                    recorded("execute_qwen_answer_cut"))

    frames = run_turn(user, conversation, "看看我这周有什么待办")

    assert tool_results(frames) == [("query_tasks", "done")]
    answer = shown_answer(frames)
    assert answer.startswith("我先查一下你这周的任务。") and "建议先" in answer
    assert not any(mark in answer for mark in ("{", "```", "query_tasks", "<think>"))
    # The model got its call back as a real call with its result, not as text.
    assistant, result = fake_llm.requests[2].messages[-2:]
    assert assistant["tool_calls"][0]["function"]["name"] == "query_tasks" and "```" not in assistant["content"]
    assert result["role"] == "tool" and result["tool_call_id"] == assistant["tool_calls"][0]["id"]
    assert frames[-1]["type"] == "turn.done" and frames[-1]["outcome"] == "truncated"
    stored = answer_of(conversation)
    assert stored.outcome == Message.Outcome.TRUNCATED and stored.content.endswith("建议先")


def test_a_reply_cut_at_the_length_limit_is_stored_as_cut(fake_llm, user):
    conversation = make_conversation(user)
    fake_llm.script(route("reply"), recorded("deliver_length_cut"))

    frames = run_turn(user, conversation, "这周怎么安排")

    assert frames[-1]["outcome"] == "truncated"
    stored = answer_of(conversation)
    assert (stored.outcome, stored.content) == ("truncated", "这周的安排如下：\n\n1. 周一：高等数学作业\n2. 周二：概率论复习第一")


def test_a_text_tool_call_cut_mid_json_is_corrected_and_never_shown(fake_llm, user):
    conversation = make_conversation(user)
    fake_llm.script(route("execute"), recorded("execute_length_cut_mid_call"), reply("我没有改动任何安排。"))

    frames = run_turn(user, conversation, "把第 3 次复习挪到周五")

    assert not any(frame["type"] in ("tool.call", "confirm.request") for frame in frames)
    assert "{" not in shown_answer(frames) and "task_id" not in shown_answer(frames)
    correction = fake_llm.requests[2].messages[-1]
    assert correction["role"] == "user" and "incomplete" in correction["content"]
    assert frames[-1]["outcome"] == "completed"


def test_several_calls_in_one_message_run_the_first_and_tell_the_model_the_rest_did_not_run(fake_llm, user):
    conversation = make_conversation(user)
    fake_llm.script(route("execute"), recorded("execute_two_native_calls"), reply("看过了。"))

    frames = run_turn(user, conversation, "看看我的日程和待办")

    assert tool_results(frames) == [("get_overview", "done")]
    messages = fake_llm.requests[2].messages
    calls = [call["id"] for call in messages[-3]["tool_calls"]]
    answered = {message["tool_call_id"]: message["content"] for message in messages[-2:]}
    assert calls == ["call_0_a1b2", "call_1_c3d4"] and set(answered) == set(calls)  # every call has a result
    assert answered["call_1_c3d4"] == NOT_RUN and NOT_RUN not in answered["call_0_a1b2"]


def test_a_write_among_several_calls_still_waits_for_its_own_confirmation(fake_llm, user):
    conversation = make_conversation(user)
    fake_llm.script(route("quick_note"), {"tool_calls": [
        {"name": "quick_note_create", "arguments": {"text": "周五交实验报告"}, "id": "call_w"},
        {"name": "quick_note_create", "arguments": {"text": "周六去图书馆"}, "id": "call_x"}]})

    card = last_of(run_turn(user, conversation, "记一下周五交实验报告，还有周六去图书馆"), "confirm.request")

    assert not Task.objects.filter(user=user).exists()
    fake_llm.script(reply("已记下第一条。"))
    frames = resume(user, conversation, card["interaction_id"], "accept")
    titles = list(Task.objects.filter(user=user).values_list("title", flat=True))
    assert len(titles) == 1 and "实验报告" in titles[0]  # the second call never ran
    summary = shown_answer(frames)
    assert summary.count("\n- ") == 1 and "周六" not in summary.split("Done:")[-1]  # Done names only what ran


def test_a_plan_cut_mid_json_is_corrected_within_the_budget(fake_llm, user):
    conversation = make_conversation(user)
    fake_llm.script(route("plan"), recorded("plan_length_cut_mid_json"), plan("安排期末复习", ["线性代数"]))

    card = last_of(run_turn(user, conversation, "帮我安排期末复习"), "confirm.request")

    assert card["summary"] == "安排期末复习" and [step["title"] for step in card["details"]["steps"]] == ["线性代数"]
    assert "cut off" in fake_llm.requests[2].messages[-1]["content"]


@pytest.mark.parametrize("name", ["execute_full_width_arguments", "execute_double_encoded_arguments"])
def test_full_width_and_double_encoded_arguments_cost_no_correction_call(fake_llm, user, name):
    conversation = make_conversation(user)
    fake_llm.script(route("execute"), recorded(name), reply("12 月 2 日上午没有课。"))

    frames = run_turn(user, conversation, "12 月 2 日上午有课吗")

    assert [name for name, _status in tool_results(frames)] == ["query_range"]  # it ran (the day's answer aside)
    assert last_of(frames, "tool.call")["arguments"] == {"date": "2026-12-02", "start_section": 1, "end_section": 4}
    assert len(fake_llm.requests) == 3  # route, the call, the answer: no correction in between


def test_memory_extraction_reads_the_facts_after_the_thinking_and_refuses_a_cut_answer(fake_llm):
    from memory.services.extraction import extract_facts
    from smartmate.llm import MalformedOutput, get_llm_client

    fake_llm.script(recorded("memory_qwen_think_json"), recorded("memory_unclosed_think_cut"))

    facts = extract_facts(get_llm_client(), "我喜欢早上复习", "", record=lambda usage: None, max_facts=5,
                          min_confidence=0.5)
    assert [(fact.memory_type, fact.content) for fact in facts] == [("preference", "喜欢早上复习")]  # not the draft
    with pytest.raises(MalformedOutput, match="cut off"):
        extract_facts(get_llm_client(), "我喜欢早上复习", "", record=lambda usage: None, max_facts=5,
                      min_confidence=0.5)
