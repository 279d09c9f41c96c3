"""The tolerant JSON extractor: what it forgives and how it refuses."""

from __future__ import annotations

import pytest

from smartmate.llm import MalformedOutput, extract_json_object


@pytest.mark.parametrize("text, expected", [
    ('{"action": "done"}', {"action": "done"}),
    ('```json\n{"action": "done"}\n```', {"action": "done"}),
    ('```\n{"action": "done"}\n```', {"action": "done"}),
    ('好的，计划如下：\n{"action": "plan_done", "reason": "ok"}\n希望有帮助。', {"action": "plan_done", "reason": "ok"}),
    ('{"steps": ["a", "b",], "n": 1,}', {"steps": ["a", "b"], "n": 1}),
    ("{'action': 'ask_user', 'question': \"Monday's class?\"}", {"action": "ask_user", "question": "Monday's class?"}),
    ("{'ok': True, 'missing': None, 'flag': False}", {"ok": True, "missing": None, "flag": False}),
    ('{"plan": {"steps": [{"content": "复习 {线代}", "done_when": "}"}]}}',
     {"plan": {"steps": [{"content": "复习 {线代}", "done_when": "}"}]}}),
    ('{"text": "line one\nline two"}', {"text": "line one\nline two"}),
    ('Use {braces} like this: {"action": "done"}', {"action": "done"}),
    ('{"note": "a, }"}', {"note": "a, }"}),
])
def test_the_extractor_finds_the_object_in_common_model_output(text, expected):
    assert extract_json_object(text) == expected


def test_the_first_of_two_objects_wins():
    assert extract_json_object('{"a": 1} and then {"b": 2}') == {"a": 1}


@pytest.mark.parametrize("text, problem", [
    ("", "the reply was empty"),
    ("I could not decide.", "no JSON object was found"),
    ('{"action": "done", "steps": [', "the JSON object is incomplete (unbalanced braces); it may have been cut off"),
    ('[{"action": "done"}]', "expected a JSON object, got an array"),
    ('{"action" "done"}', "Expecting ':' delimiter at line 1 column 11"),
])
def test_malformed_output_says_what_is_wrong(text, problem):
    with pytest.raises(MalformedOutput) as caught:
        extract_json_object(text)

    assert caught.value.problem == problem
    assert caught.value.message == f"The model's output is not a valid JSON object: {problem}"


def test_malformed_output_carries_feedback_for_the_model():
    with pytest.raises(MalformedOutput) as caught:
        extract_json_object("Sure! Let me think about it.")

    assert caught.value.feedback == ("Your previous reply could not be parsed as JSON (no JSON object was found). "
                                     "Reply again with exactly one JSON object and nothing else.")
    assert caught.value.code == "llm_malformed_output"


@pytest.mark.parametrize("text, expected", [
    ('{“date”：“2026-12-02”，“limit”：3}', {"date": "2026-12-02", "limit": 3}),
    ('{"note"："他说“好”，然后走了"}', {"note": "他说“好”，然后走了"}),
    ('｛"date"："2026-12-02"，"limit"：3，｝', {"date": "2026-12-02", "limit": 3}),
    ('{"a"："逗号，冒号：都在字符串里"}', {"a": "逗号，冒号：都在字符串里"}),
    ('"{\\"date\\": \\"2026-12-02\\"}"', {"date": "2026-12-02"}),
    ('{\\"date\\": \\"2026-12-02\\"}', {"date": "2026-12-02"}),
])
def test_full_width_syntax_and_double_encoding_are_read_without_a_correction(text, expected):
    assert extract_json_object(text) == expected
