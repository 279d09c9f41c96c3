"""Retries, timeouts and refusals of the real client against the fake server."""

from __future__ import annotations

import random
import threading
import time

import pytest

from bench.fake_model import Reply
from smartmate.llm import (
    ChatMessage,
    ClientSettings,
    LLMRequestRejected,
    LLMStreamInterrupted,
    LLMTimeout,
    LLMUnavailable,
    OpenAICompatibleClient,
)
from smartmate.llm.errors import StreamStopped

HELLO = [ChatMessage.user("Plan my week")]


def test_a_500_then_a_429_are_retried_until_the_answer_comes(fake_llm, llm):
    fake_llm.script(Reply(status=500), Reply(status=429), "Here is your plan.")

    completion = llm.complete("deliver", HELLO, on_delta=lambda delta: None)

    assert completion.text == "Here is your plan."
    assert len(fake_llm.requests) == 3


def test_a_garbled_body_is_retried_like_a_server_error(fake_llm, llm):
    fake_llm.script(Reply(malformed=True), "ok")

    assert llm.complete("deliver", HELLO).text == "ok"
    assert len(fake_llm.requests) == 2


def test_a_400_is_not_retried_and_says_what_the_endpoint_said(fake_llm, llm):
    fake_llm.script(Reply(status=400, error_message="This model's maximum context length is 8192 tokens."), "unused")

    with pytest.raises(LLMRequestRejected) as caught:
        llm.complete("deliver", HELLO)

    assert caught.value.message == ("The language model endpoint rejected the request (HTTP 400): "
                                    "This model's maximum context length is 8192 tokens.")
    assert caught.value.detail == {"status": 400, "provider_code": None}
    assert len(fake_llm.requests) == 1


def test_persistent_server_errors_give_up_after_the_configured_retries(fake_llm, settings, llm):
    settings.LLM_MAX_RETRIES = 1
    fake_llm.script(Reply(status=503, error_message="Overloaded."), Reply(status=503, error_message="Overloaded."))
    from smartmate.llm import get_llm_client

    with pytest.raises(LLMUnavailable) as caught:
        get_llm_client().complete("deliver", HELLO)

    assert caught.value.message == ("The language model endpoint answered HTTP 503: Overloaded "
                                    "(gave up after 2 attempts).")
    assert caught.value.detail["attempts"] == 2
    assert len(fake_llm.requests) == 2


def test_a_timeout_becomes_a_clear_error_after_the_configured_retries(fake_llm, settings):
    settings.LLM_TIMEOUT_SECONDS = 0.2
    settings.LLM_MAX_RETRIES = 1
    fake_llm.script(Reply(text="late", delay=5), Reply(text="late", delay=5))
    from smartmate.llm import get_llm_client

    with pytest.raises(LLMTimeout) as caught:
        get_llm_client().complete("deliver", HELLO, on_delta=lambda delta: None)

    assert caught.value.message == "The language model did not answer within 0.2 s (gave up after 2 attempts)."
    assert caught.value.code == "llm_timeout"
    assert len(fake_llm.requests) == 2


def test_a_stream_that_stalls_after_text_was_shown_is_not_retried(fake_llm, settings):
    settings.LLM_TIMEOUT_SECONDS = 0.2
    fake_llm.script(Reply(text="Monday is free", chunk_size=6, stall_after=1, delay=5), "never asked for")
    from smartmate.llm import get_llm_client
    shown = []

    with pytest.raises(LLMStreamInterrupted) as caught:
        get_llm_client().complete("deliver", HELLO, on_delta=lambda delta: shown.append(delta.text))

    assert shown == ["Monday"]
    assert caught.value.detail == {"cause": "llm_timeout", "partial_text": "Monday"}
    assert len(fake_llm.requests) == 1


def test_an_error_raised_by_on_delta_aborts_the_call_untouched(fake_llm, llm):
    class Cancelled(Exception):
        pass

    def cancel(delta):
        raise Cancelled

    fake_llm.script("a long answer", "unused")

    with pytest.raises(Cancelled):
        llm.complete("deliver", HELLO, on_delta=cancel)
    assert len(fake_llm.requests) == 1


def test_usage_is_not_recorded_when_the_call_fails(fake_llm, llm):
    fake_llm.script(Reply(status=401, error_message="Incorrect API key provided."))
    recorded = []

    with pytest.raises(LLMRequestRejected):
        llm.complete("deliver", HELLO, record_usage=recorded.append)
    assert recorded == []


def test_backoff_doubles_with_jitter_and_honours_retry_after(fake_llm):
    waits: list[float] = []
    config = ClientSettings.build(base_url=fake_llm.base_url, api_key="test", default_model="m", max_retries=3,
                                  backoff_seconds=0.4, backoff_max_seconds=8.0)
    client = OpenAICompatibleClient(config, sleep=waits.append, rng=random.Random(7))
    fake_llm.script(Reply(status=500), Reply(status=500), Reply(status=429, retry_after=3), "ok")

    assert client.complete("deliver", HELLO).text == "ok"

    first, second, third = waits
    assert 0.2 <= first <= 0.4 and 0.4 <= second <= 0.8
    assert third == 3.0  # the server's Retry-After beats our 0.8-1.6 s
    client.close()


def test_a_refused_connection_is_retried_then_reported_with_the_address(settings):
    settings.LLM_BASE_URL = f"http://127.0.0.1:{_closed_port()}/v1"
    settings.LLM_API_KEY = "test"
    settings.LLM_ENABLED = True
    settings.LLM_MAX_RETRIES = 1
    settings.LLM_RETRY_BACKOFF_SECONDS = 0.01
    from smartmate.llm import get_llm_client

    with pytest.raises(LLMUnavailable) as caught:
        get_llm_client().complete("deliver", HELLO)

    assert caught.value.message.startswith(f"Could not reach the language model at {settings.LLM_BASE_URL} (")
    assert caught.value.message.endswith("(gave up after 2 attempts).")


def _closed_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed again on exit: nothing listens there


class _StopAfter:
    """An ``on_delta`` with ``poll()``, like the agent's CancelWatch: stop is pressed ``after`` seconds in."""

    def __init__(self, after: float) -> None:
        self.pressed_at = time.monotonic() + after
        self.shown: list[str] = []

    def __call__(self, delta) -> None:
        self.shown.append(getattr(delta, "text", ""))

    def poll(self) -> None:
        if time.monotonic() >= self.pressed_at:
            raise StreamStopped()


def _stream_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "llm-stream"]


@pytest.mark.parametrize("reply", [
    pytest.param(Reply(text="Monday is free", delay=8), id="waiting-for-the-first-byte"),
    pytest.param(Reply(text="Monday is free", chunk_size=6, stall_after=1, delay=8), id="a-gap-mid-text"),
    pytest.param(Reply(tool_calls=({"name": "plan_week", "arguments": {"days": ["Monday", "Tuesday"]}},),
                       stall_after=1, delay=8), id="a-gap-mid-tool-arguments"),
])
def test_a_stop_ends_the_call_at_once_while_the_model_is_silent(fake_llm, llm, reply):
    # The probe: the stop was asked only between chunks, so a silent model held it as long as it was silent.
    fake_llm.script(reply)
    watch = _StopAfter(0.3)

    with pytest.raises(StreamStopped) as stopped:
        llm.complete("deliver", HELLO, on_delta=watch)

    took = time.monotonic() - watch.pressed_at
    assert took < 0.5, f"the call ended {took:.2f} s after the stop"
    assert "Monday is free".startswith(stopped.value.partial_text)
    assert len(fake_llm.requests) == 1


def test_a_stop_ends_a_plain_call_at_once_while_the_model_is_silent(fake_llm, llm):
    # The route and plan stages are not streamed: their silence held a Stop up until the answer or the timeout.
    fake_llm.script(Reply(text='{"route": "reply"}', delay=8), "next answer")
    watch = _StopAfter(0.3)

    with pytest.raises(StreamStopped):
        llm.complete("route", HELLO, poll=watch.poll)

    took = time.monotonic() - watch.pressed_at
    assert took < 0.5, f"the call ended {took:.2f} s after the stop"
    assert not fake_llm.requests[0].stream
    assert llm.complete("route", HELLO, poll=lambda: None).text == "next answer"


def test_a_stop_during_the_backoff_before_a_retry_ends_the_call_at_once(fake_llm):
    config = ClientSettings.build(base_url=fake_llm.base_url, api_key="test", default_model="m", max_retries=2,
                                  backoff_seconds=0.4, backoff_max_seconds=8.0)
    client = OpenAICompatibleClient(config)
    fake_llm.script(Reply(status=429, retry_after=8), "too late")
    watch = _StopAfter(0.3)

    with pytest.raises(StreamStopped):
        client.complete("route", HELLO, poll=watch.poll)

    took = time.monotonic() - watch.pressed_at
    assert took < 0.5, f"the call ended {took:.2f} s after the stop"
    assert len(fake_llm.requests) == 1  # the retry was never sent
    client.close()


def test_a_stop_mid_stream_ends_the_reading_thread_with_its_connection(fake_llm, llm):
    fake_llm.script(Reply(text="Monday is free", chunk_size=6, stall_after=1, delay=8), "next answer")
    watch = _StopAfter(0.3)

    with pytest.raises(StreamStopped):
        llm.complete("deliver", HELLO, on_delta=watch)

    deadline = time.monotonic() + 1
    while _stream_threads() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _stream_threads()  # the shut-down socket woke its blocked read
    assert watch.shown == ["Monday"]
    assert llm.complete("deliver", HELLO, on_delta=lambda delta: None).text == "next answer"  # the pool is fine
