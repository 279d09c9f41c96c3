"""The fake LLM itself: what it records, lists and answers when its script runs out."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from bench.fake_model import FakeLLMServer, Reply, load_script
from smartmate.llm import ChatMessage, LLMRequestRejected


def test_the_fake_records_what_the_prompt_contained(fake_llm, settings, llm):
    fake_llm.script("ok")

    llm.complete("route", [ChatMessage.system("You are SmartMate."), ChatMessage.user("明天有课吗？")])

    (request,) = fake_llm.requests
    assert request.model == settings.LLM_MODELS["route"]
    assert "明天有课吗？" in request.prompt_text()
    assert request.authorization == "Bearer test"
    assert fake_llm.pending == 0


def test_an_exhausted_script_fails_at_once_with_a_clear_message(fake_llm, llm):
    with pytest.raises(LLMRequestRejected, match=r"fake LLM script exhausted: request #1 had no scripted reply"):
        llm.complete("route", [ChatMessage.user("hi")])
    assert len(fake_llm.requests) == 1


def test_a_fallback_answers_once_the_script_is_used_up(fake_llm, llm):
    fake_llm.script("first")
    fake_llm.set_fallback("again")

    texts = [llm.complete("route", [ChatMessage.user("hi")]).text for _ in range(3)]

    assert texts == ["first", "again", "again"]


def test_the_fake_lists_its_models(fake_llm):
    with urllib.request.urlopen(f"{fake_llm.base_url}/models", timeout=5) as response:
        body = json.load(response)

    assert body == {"object": "list", "data": [{"id": "fake-model", "object": "model", "created": 0,
                                                "owned_by": "fake"}]}


def test_a_script_file_holds_replies_and_a_fallback(tmp_path):
    path = tmp_path / "script.json"
    path.write_text(json.dumps({
        "replies": ["你好", {"tool_calls": [{"name": "get_overview", "arguments": {}}]}, {"status": 500}],
        "fallback": {"text": "(demo)"},
    }), encoding="utf-8")

    replies, fallback = load_script(path)

    assert [reply.text for reply in replies] == ["你好", "", ""]
    assert replies[1].tool_calls[0].name == "get_overview" and replies[2].status == 500
    assert fallback == Reply(text="(demo)")


def test_an_unknown_reply_field_is_refused():
    with pytest.raises(ValueError, match="Unknown fake LLM reply fields: txt."):
        Reply.coerce({"txt": "typo"})


def test_the_fake_can_demand_an_api_key():
    with FakeLLMServer(api_key="secret") as server:
        request = urllib.request.Request(f"{server.base_url}/chat/completions", data=b"{}", method="POST",
                                         headers={"Authorization": "Bearer wrong"})
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(request, timeout=5)

    assert caught.value.code == 401
