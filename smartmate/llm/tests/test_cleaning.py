"""The cleaner on its own: thinking split off, tool calls written as text taken out, the same result
however the text was cut into stream chunks, and a plain answer passed on without delay."""

from __future__ import annotations

import pytest

from smartmate.llm import extract_json_object
from smartmate.llm.cleaning import UNDECIDED_CHARS, CompletionCleaner, clean_text, text_tool_call
from smartmate.llm.contracts import ReasoningDelta, TextDelta

SAMPLES = [
    "<think>\n想一想：{\"route\": \"plan\"}\n</think>\n\n{\"route\": \"reply\"}",
    "<THINKING>大写的标签</THINKING>答案",
    "<reasoning>先看课表。</reasoning>\n明天没有课。",
    "<think>没有写完的思考",
    "我先查一下。\n```json\n{\"tool\": \"query_tasks\", \"arguments\": {\"limit\": 3}}\n```\n",
    "好的 {\"tool\": \"a\", \"arguments\": {}} 再 {\"tool\": \"b\", \"arguments\": \"{\\\"x\\\": 1}\"}",
    "<tool_call>\n{\"name\": \"get_overview\", \"arguments\": {}}\n</tool_call>",
    "代码：```python\nx = {1: 2}\n```\n集合 {1, 2} 与 <b>粗体</b>",
    "我来挪。```json\n{\"tool\": \"move\", \"arguments\": {\"task_id\": 1",
    "普通的回答，没有任何标记。",
    "用户问明天的课。先查课表。\n</think>\n\n明天上午有高等数学。",
    "Okay, the user wants JSON.</THINKING>{\"route\": \"reply\"}",
    "先想想 {\"tool\": \"x\"} 不对。</reasoning>我来查。{\"tool\": \"query_tasks\", \"arguments\": {}}",
]


def streamed(text: str, size: int, *, tools: bool, hold: bool = True) -> tuple[object, list[object]]:
    deltas: list[object] = []
    cleaner = CompletionCleaner(tools_offered=tools, emit=deltas.append, hold_start=hold)
    for start in range(0, len(text), size):
        cleaner.feed(text[start:start + size])
    return cleaner.finish(), deltas


@pytest.mark.parametrize("text", SAMPLES)
@pytest.mark.parametrize("tools", [True, False])
def test_any_chunking_gives_the_same_clean_answer_as_the_whole_text(text, tools):
    whole = clean_text(text, tools_offered=tools)
    for size in range(1, 9):
        result, deltas = streamed(text, size, tools=tools)
        assert result == whole, size
        assert "".join(d.text for d in deltas if isinstance(d, TextDelta)) == whole.text
        assert "".join(d.text for d in deltas if isinstance(d, ReasoningDelta)) == whole.reasoning


def test_thinking_goes_to_reasoning_and_never_decides_the_json():
    result = clean_text(SAMPLES[0], tools_offered=False)
    assert "plan" in result.reasoning and extract_json_object(result.text) == {"route": "reply"}
    assert clean_text("<think>没有写完的思考", tools_offered=False).text == ""  # unclosed: all thinking


def test_text_tool_calls_become_calls_wherever_they_stand():
    fenced = clean_text(SAMPLES[4], tools_offered=True)
    assert fenced.text == "我先查一下。\n\n" and [c.name for c in fenced.calls] == ["query_tasks"]
    two = clean_text(SAMPLES[5], tools_offered=True)
    assert [(c.name, c.parsed_arguments()) for c in two.calls] == [("a", {}), ("b", {"x": 1})]
    assert clean_text(SAMPLES[6], tools_offered=True).calls[0].name == "get_overview"


def test_ordinary_code_and_braces_stay_in_the_answer():
    result = clean_text(SAMPLES[7], tools_offered=True)
    assert result.text == SAMPLES[7] and not result.calls and not result.call_problem


def test_a_cut_text_call_is_a_problem_not_text():
    result = clean_text(SAMPLES[8], tools_offered=True)
    assert result.text == "我来挪。" and "incomplete" in result.call_problem


def test_without_tools_json_is_left_alone():
    assert clean_text(SAMPLES[4], tools_offered=False).text == SAMPLES[4]


def test_a_plain_answer_is_passed_on_piece_by_piece():
    _result, deltas = streamed("今天下午没有课，可以去图书馆。", 3, tools=True, hold=False)
    assert [d.text for d in deltas][:3] == ["今天下", "午没有", "课，可"]
    # held (a model whose template opens <think>): only until a tag closed or native reasoning came
    deltas = []
    cleaner = CompletionCleaner(tools_offered=True, emit=deltas.append, hold_start=True)
    cleaner.feed_reasoning("想一下。")
    for piece in ("今天下", "午没有", "课，可"):
        cleaner.feed(piece)
    assert [d.text for d in deltas] == ["想一下。", "今天下", "午没有", "课，可"]
    _result, tagged = streamed("<think>想</think>今天下午没有课，可以去图书馆。", 3, tools=False)
    assert [d.text for d in tagged if isinstance(d, TextDelta)][:2] == ["今天", "下午没"]


@pytest.mark.parametrize("closing", ["</think>", "</thinking>", "</reasoning>", "</THINK>"])
def test_a_lone_closing_tag_closes_a_thought_that_began_at_the_start(closing):
    text = f"嗯，用户想知道明天的课。我应该说高数。{closing}\n\n明天上午有高等数学。"
    whole = clean_text(text, tools_offered=False)
    assert whole.text == "明天上午有高等数学。" and whole.reasoning == "嗯，用户想知道明天的课。我应该说高数。"
    for size in range(1, len(closing) + 2):  # the tag split across chunks at every place
        result, deltas = streamed(text, size, tools=True)
        shown = "".join(d.text for d in deltas if isinstance(d, TextDelta))
        assert result.text == shown == "明天上午有高等数学。", size
        assert "用户" not in shown and "<" not in shown


def test_a_model_not_known_to_do_it_streams_at_once_and_never_shows_the_lone_tag():
    cleaner = CompletionCleaner(tools_offered=False, hold_start=False)
    for piece in ("嗯，想", "想。</th", "ink>答案"):
        cleaner.feed(piece)
    result = cleaner.finish()
    assert result.text == "嗯，想想。答案" and cleaner.template_thinks  # remembered for the next answer


def test_a_plain_answer_waits_only_until_it_cannot_be_a_thought():
    result, deltas = streamed("今天下午没有课，可以去图书馆。", 3, tools=False)
    assert result.text == "今天下午没有课，可以去图书馆。" and not result.reasoning
    long = "好" * UNDECIDED_CHARS + "。后面还有。"
    _result, deltas = streamed(long, 100, tools=False)
    assert len("".join(d.text for d in deltas)) >= UNDECIDED_CHARS  # streamed before the end
    late, _ = streamed(long + "</think>结束", 100, tools=False)
    assert "</think>" not in late.text  # a closing tag after the hold is dropped, never shown


@pytest.mark.parametrize("block, expected", [
    ('{"tool": "x"}', ("x", "{}")),
    ('{"name": "x", "arguments": {"a": 1}}', ("x", '{"a": 1}')),
    ('{"type": "function", "function": {"name": "x", "arguments": "{\\"a\\": 1}"}}', ("x", '{"a": 1}')),
    ('{“tool”：“x”，“arguments”：｛“a”：1｝}', ("x", '{"a": 1}')),
])
def test_text_tool_call_shapes(block, expected):
    call = text_tool_call(block)
    assert not isinstance(call, str) and call is not None
    assert (call.name, call.arguments) == expected


@pytest.mark.parametrize("block", ['{"name": "张三", "age": 3}', '{"week": 13}', "```python\nprint(1)\n```"])
def test_ordinary_json_is_not_a_tool_call(block):
    assert text_tool_call(block) is None
