"""The real client against the fake server: streaming, reasoning, tool calls and usage."""

from __future__ import annotations

import json

from bench.fake_model import Reply
from smartmate.llm import ChatMessage, ReasoningDelta, TextDelta, ToolCall, ToolCallDelta, ToolSpec, Usage

HELLO = [ChatMessage.system("You are SmartMate."), ChatMessage.user("Plan my week")]


def test_streamed_text_reaches_on_delta_in_order_as_it_arrives(fake_llm, llm):
    fake_llm.script(Reply(text="好的，我来帮你安排这周的复习。", chunk_size=3))
    deltas = []

    completion = llm.complete("deliver", HELLO, on_delta=deltas.append)

    assert [delta.text for delta in deltas] == ["好的，", "我来帮", "你安排", "这周的", "复习。"]
    assert all(isinstance(delta, TextDelta) for delta in deltas)
    assert completion.text == "好的，我来帮你安排这周的复习。"
    assert completion.finish_reason == "stop"


def test_streaming_asks_the_endpoint_for_usage_in_the_last_chunk(fake_llm, llm):
    fake_llm.script("ok")

    llm.complete("deliver", HELLO, on_delta=lambda delta: None)

    request = fake_llm.requests[0]
    assert request.stream is True
    assert request.body["stream_options"] == {"include_usage": True}


def test_reasoning_deltas_stream_before_the_answer_and_stay_out_of_the_text(fake_llm, llm):
    fake_llm.script(Reply(reasoning="Check Monday first.", text="Monday works.", chunk_size=8))
    deltas = []

    completion = llm.complete("plan", HELLO, on_delta=deltas.append)

    assert deltas == [ReasoningDelta("Check Mo"), ReasoningDelta("nday fir"), ReasoningDelta("st."),
                      TextDelta("Monday w"), TextDelta("orks.")]
    assert completion.reasoning == "Check Monday first."
    assert completion.text == "Monday works."


def test_a_streamed_tool_call_is_assembled_with_its_json_arguments(fake_llm, llm):
    arguments = {"task_id": 12, "day": "2025-03-03", "note": "数学 {期中}"}
    fake_llm.script(Reply(tool_calls=({"name": "place", "arguments": arguments, "id": "call_7"},), chunk_size=5))
    fragments = []

    completion = llm.complete("execute", HELLO, tools=[PLACE], on_delta=fragments.append)

    (call,) = completion.tool_calls
    assert (call.id, call.name) == ("call_7", "place")
    assert call.parsed_arguments() == arguments
    assert completion.finish_reason == "tool_calls"
    assert len(fragments) > 3 and all(isinstance(fragment, ToolCallDelta) for fragment in fragments)
    assert (fragments[0].id, fragments[0].name) == ("call_7", "place")


def test_two_tool_calls_in_one_stream_stay_apart(fake_llm, llm):
    fake_llm.script({"tool_calls": [{"name": "get_overview", "arguments": {}},
                                    {"name": "query_range", "arguments": {"week": 3}}]})

    completion = llm.complete("execute", HELLO, tools=[PLACE], on_delta=lambda delta: None)

    assert [(call.name, call.parsed_arguments()) for call in completion.tool_calls] == [
        ("get_overview", {}), ("query_range", {"week": 3})]


def test_tools_and_tool_results_are_sent_in_the_openai_shape(fake_llm, llm):
    fake_llm.script("done")
    call = ToolCall(id="call_1", name="place", arguments='{"task_id": 1}')
    history = [*HELLO, ChatMessage.assistant(tool_calls=(call,)), ChatMessage.tool("call_1", '{"ok": true}')]

    llm.complete("execute", history, tools=[PLACE])

    body = fake_llm.requests[0].body
    assert body["tools"] == [{"type": "function", "function": {
        "name": "place", "description": "Place a task in a free slot.", "parameters": PLACE.parameters}}]
    assert body["messages"][2] == {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "place", "arguments": '{"task_id": 1}'}}]}
    assert body["messages"][3] == {"role": "tool", "content": '{"ok": true}', "tool_call_id": "call_1"}


def test_usage_comes_from_the_api_and_is_recorded_once(fake_llm, llm):
    fake_llm.script(Reply(text="fine", prompt_tokens=120, completion_tokens=30))
    recorded = []

    completion = llm.complete("deliver", HELLO, on_delta=lambda delta: None, record_usage=recorded.append)

    assert completion.usage == Usage(prompt_tokens=120, completion_tokens=30, total_tokens=150)
    assert recorded == [completion.usage]


def test_usage_of_a_plain_call_comes_from_the_response_body(fake_llm, llm):
    fake_llm.script("abcdef")  # the fake counts ceil(characters / 2)

    completion = llm.complete("title", [ChatMessage.user("abcd")])

    assert completion.usage == Usage(prompt_tokens=2, completion_tokens=3, total_tokens=5)


def test_usage_is_estimated_and_marked_so_when_the_endpoint_sends_none(fake_llm, llm):
    fake_llm.script(Reply(text="一二三四 abcdefgh", send_usage=False))

    completion = llm.complete("deliver", [ChatMessage.user("你好 abcd")], on_delta=lambda delta: None)

    # 4 framing + 2 CJK + ceil(5 / 4); answer: 4 CJK + ceil(9 / 4)
    assert completion.usage == Usage(prompt_tokens=8, completion_tokens=7, total_tokens=15, estimated=True)


def test_each_stage_sends_its_model_and_settings(fake_llm, settings, llm):
    settings.LLM_MODELS = {**settings.LLM_MODELS, "plan": "big-model", "title": "small-model"}
    fake_llm.script('{"action": "plan_done"}', "Weekly review")
    from smartmate.llm import get_llm_client

    get_llm_client().complete("plan", [ChatMessage.user("Reply in JSON.")])
    get_llm_client().complete("title", HELLO)

    plan, title = (request.body for request in fake_llm.requests)
    assert (plan["model"], plan["temperature"], plan["max_tokens"]) == ("big-model", 0.2, 4096)
    assert plan["response_format"] == {"type": "json_object"}
    assert (title["model"], title["temperature"], title["max_tokens"]) == ("small-model", 0.2, 40)
    assert "response_format" not in title


def test_json_mode_output_goes_through_the_tolerant_extractor(fake_llm, llm):
    fake_llm.script('```json\n{"action": "plan_done", "plan_steps": [{"content": "复习",},],}\n```')

    completion = llm.complete("plan", [ChatMessage.user("Answer in JSON.")])

    assert completion.json() == {"action": "plan_done", "plan_steps": [{"content": "复习"}]}


def test_the_completion_becomes_the_next_assistant_message(fake_llm, llm):
    fake_llm.script(Reply(text="Let me look.", reasoning="hmm", tool_calls=({"name": "get_overview"},)))

    message = llm.complete("execute", HELLO, tools=[PLACE]).to_message()

    assert message.role == "assistant" and message.content == "Let me look."
    assert [call.name for call in message.tool_calls] == ["get_overview"]
    assert json.loads(message.tool_calls[0].arguments) == {}


PLACE = ToolSpec(
    name="place",
    description="Place a task in a free slot.",
    parameters={"type": "object", "properties": {"task_id": {"type": "integer"}}, "required": ["task_id"]},
)


def test_a_call_can_replace_its_stage_settings(fake_llm, llm):
    from dataclasses import replace

    fake_llm.script('{"title": "复习计划"}')

    llm.complete("deliver", [ChatMessage.user("json")], config=replace(llm.stage_config("deliver"), json_mode=True,
                                                                        max_tokens=99))

    body = fake_llm.requests[0].body
    assert (body["response_format"], body["max_tokens"]) == ({"type": "json_object"}, 99)
