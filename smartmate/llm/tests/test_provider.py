"""The lazy getter: not configured, swapping, settings changes, stage settings, the network guard."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from smartmate.llm import (
    ChatMessage,
    Completion,
    LLMNotConfigured,
    StageConfig,
    get_llm_client,
    set_llm_client_for_tests,
)


def test_without_an_endpoint_the_getter_names_the_variables_to_set():
    with pytest.raises(LLMNotConfigured) as caught:
        get_llm_client()

    assert caught.value.message == (
        "The assistant's language model is not configured. Set LLM_BASE_URL (an OpenAI-compatible endpoint, "
        "e.g. https://api.deepseek.com/v1), LLM_API_KEY and LLM_MODEL in the environment, then restart.")
    assert caught.value.as_dict()["code"] == "llm_not_configured"


def test_a_test_can_swap_in_its_own_client():
    class Canned:
        def stage_config(self, stage):
            return StageConfig(model="canned")

        def complete(self, stage, messages, tools=None, on_delta=None, **options):
            return Completion(text="canned")

    set_llm_client_for_tests(Canned())

    assert get_llm_client().complete("route", [ChatMessage.user("hi")]).text == "canned"


def test_the_getter_reuses_its_client_until_the_settings_change(fake_llm, settings):
    first = get_llm_client()
    assert get_llm_client() is first

    settings.LLM_TIMEOUT_SECONDS = 7

    assert get_llm_client() is not first


def test_stage_settings_follow_the_per_stage_models_and_overrides(fake_llm, settings):
    settings.LLM_MODELS = {**settings.LLM_MODELS, "execute": "deepseek-reasoner"}
    settings.LLM_STAGE_OVERRIDES = {"execute": {"temperature": 0.0, "thinking": "off"}}

    assert get_llm_client().stage_config("execute") == StageConfig(
        model="deepseek-reasoner", temperature=0.0, max_tokens=2048, thinking="off", json_mode=False)


def test_an_unknown_stage_is_refused_by_name(fake_llm):
    with pytest.raises(ValueError, match="Unknown LLM stage 'chat'; known stages: deliver, execute, memory, "
                                         "plan, quick_add, route, title."):
        get_llm_client().stage_config("chat")


def test_thinking_is_sent_in_the_endpoint_family_s_dialect(fake_llm, settings):
    settings.LLM_THINKING_PARAM = "thinking"
    fake_llm.script("{}", "done")

    get_llm_client().complete("plan", [ChatMessage.user("json please")])
    get_llm_client().complete("deliver", [ChatMessage.user("hi")])

    plan, deliver = (request.body for request in fake_llm.requests)
    assert plan["thinking"] == {"type": "enabled"}
    assert deliver["thinking"] == {"type": "disabled"}


def test_no_thinking_field_is_sent_unless_an_endpoint_family_is_chosen(fake_llm):
    fake_llm.script("{}")

    get_llm_client().complete("plan", [ChatMessage.user("json please")])

    assert "thinking" not in fake_llm.requests[0].body
    assert "enable_thinking" not in fake_llm.requests[0].body


def test_a_misspelt_thinking_dialect_stops_with_a_clear_message(fake_llm, settings):
    settings.LLM_THINKING_PARAM = "reasoning"

    with pytest.raises(ImproperlyConfigured, match="LLM_THINKING_PARAM must be one of none, thinking, "
                                                   "enable_thinking; got 'reasoning'."):
        get_llm_client()


def test_a_client_pointed_beyond_loopback_cannot_connect_in_tests(settings):
    settings.LLM_BASE_URL = "http://203.0.113.10/v1"  # TEST-NET-3: never routable
    settings.LLM_API_KEY = "real-looking-key"
    settings.LLM_ENABLED = True

    with pytest.raises(RuntimeError, match=r"Tests may only reach 127\.0\.0\.1; blocked a connection to "
                                           r"\('203\.0\.113\.10', 80\)\."):
        get_llm_client().complete("route", [ChatMessage.user("hi")])
