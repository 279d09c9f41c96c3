"""Recorded streams of real models' habits, replayed by the fake server through the real client.

Each file in ``transcripts/`` is one answer as an OpenAI-compatible model sent it (the raw
``chat.completion.chunk`` objects: Qwen and GLM thinking in ``<think>`` tags, DeepSeek's
``reasoning_content``, vLLM's ``reasoning``, tool calls written as text, several calls at once,
answers cut at the token limit, full-width and double-encoded JSON) with what the clean Completion
must be. Every transcript runs twice, streamed and as one body, and both must agree: the stream's
deltas never carry thinking tags or a tool call's JSON as answer text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from smartmate.llm import ChatMessage, MalformedOutput, ReasoningDelta, TextDelta, ToolSpec

TRANSCRIPTS = sorted((Path(__file__).parent / "transcripts").glob("*.json"))
MESSAGES = [ChatMessage.system("你是时伴 SmartMate，回答 JSON 时只输出一个对象。"), ChatMessage.user("帮我看看这周")]


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def tools_of(transcript: dict[str, Any]) -> list[ToolSpec]:
    return [ToolSpec(name=name, description=f"{name} tool") for name in transcript["tools"]]


def test_the_set_covers_every_stage_and_habit():
    stages = {load(path)["stage"] for path in TRANSCRIPTS}
    assert {"route", "plan", "execute", "deliver", "memory"} <= stages
    habits = " ".join(load(path)["habit"] for path in TRANSCRIPTS)
    for habit in ("<think>", "reasoning_content", "fenced tool call", "several tool calls", "cut at the token limit",
                  "full-width", "encoded twice", "<tool_call>"):
        assert habit in habits, habit


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[path.stem for path in TRANSCRIPTS])
@pytest.mark.parametrize("streamed", [True, False], ids=["streamed", "whole"])
def test_a_recorded_answer_comes_out_clean(fake_llm, llm, path, streamed):
    transcript = load(path)
    expect = transcript["expect"]
    fake_llm.script({"chunks": transcript["chunks"]})
    deltas: list[Any] = []

    completion = llm.complete(transcript["stage"], MESSAGES, tools=tools_of(transcript) or None,
                              on_delta=deltas.append if streamed else None)

    assert completion.finish_reason == expect["finish_reason"]
    assert completion.truncated is expect.get("truncated", expect["finish_reason"] == "length")
    if "text" in expect:
        assert completion.text == expect["text"]
    for fragment in expect.get("text_excludes", ()):
        assert fragment not in completion.text
    if "reasoning_contains" in expect:
        assert expect["reasoning_contains"] in completion.reasoning
        assert expect["reasoning_contains"] not in completion.text
    if "tool_calls" in expect:
        assert [(call.name, call.parsed_arguments()) for call in completion.tool_calls] == [
            (call["name"], call["arguments"]) for call in expect["tool_calls"]]
    assert bool(completion.call_problem) is expect.get("call_problem", False)
    if "json" in expect:
        assert completion.json() == expect["json"]
    if "malformed" in expect:
        with pytest.raises(MalformedOutput) as caught:
            completion.json()
        assert expect["malformed"] in caught.value.problem
    if streamed:
        # What the student saw as it streamed is exactly the clean answer and reasoning.
        assert "".join(d.text for d in deltas if isinstance(d, TextDelta)) == completion.text
        assert "".join(d.text for d in deltas if isinstance(d, ReasoningDelta)) == completion.reasoning


def test_a_plain_answer_still_streams_at_once_when_tools_are_offered(fake_llm, llm):
    fake_llm.script({"text": "今天下午没有课，可以去图书馆。", "chunk_size": 3})
    deltas: list[Any] = []

    llm.complete("execute", MESSAGES, tools=[ToolSpec(name="get_overview", description="x")], on_delta=deltas.append)

    # Nothing is held back: each piece reached the caller as it came (the first after 3 characters).
    assert [delta.text for delta in deltas][:2] == ["今天下", "午没有"]


def test_a_lone_closing_tag_keeps_the_thought_out_of_the_stream_and_the_answer(fake_llm, settings):
    # DeepSeek-R1 distills on vLLM/Ollama: the template opened <think>, only </think> arrives.
    settings.LLM_TEMPLATE_THINKING_MODELS = (settings.LLM_MODELS["deliver"],)
    from smartmate.llm import get_llm_client
    fake_llm.script({"text": "用户问明天。明天有高数。\n</think>\n\n明天上午有高等数学。", "chunk_size": 3})
    deltas: list[Any] = []

    completion = get_llm_client().complete("deliver", MESSAGES, on_delta=deltas.append)

    shown = "".join(d.text for d in deltas if isinstance(d, TextDelta))
    assert completion.text == shown == "明天上午有高等数学。"
    assert completion.reasoning.strip() == "用户问明天。明天有高数。"
    assert completion.to_message().content == "明天上午有高等数学。"


def test_the_start_of_an_answer_is_held_only_until_it_cannot_be_a_thinking_tag(fake_llm, llm):
    fake_llm.script({"text": "<tr>不是思考</tr>", "chunk_size": 2})
    deltas: list[Any] = []

    completion = llm.complete("deliver", MESSAGES, on_delta=deltas.append)

    assert completion.text == "<tr>不是思考</tr>" and completion.reasoning == ""
    assert deltas[0].text == "<tr>"  # "<t" waited for one more piece: it might have been "<think>"


def test_a_model_seen_sending_a_lone_closing_tag_is_held_from_its_next_answer(fake_llm, llm):
    fake_llm.script({"text": "想想。</think>第一次。", "chunk_size": 3}, {"text": "再想。</think>第二次。", "chunk_size": 3})
    first: list[Any] = []
    second: list[Any] = []

    llm.complete("deliver", MESSAGES, on_delta=first.append)
    completion = llm.complete("deliver", MESSAGES, on_delta=second.append)

    assert "</think>" not in "".join(d.text for d in first)  # the first streamed at once: the tag is dropped
    assert "".join(d.text for d in second if isinstance(d, TextDelta)) == completion.text == "第二次。"
    assert completion.reasoning == "再想。"


def test_thinking_is_not_sent_back_as_history(fake_llm, llm):
    fake_llm.script({"text": "<think>想一想</think>好的。"})

    completion = llm.complete("deliver", MESSAGES)

    assert completion.to_message().content == "好的。"
