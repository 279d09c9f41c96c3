"""A student chats with the assistant in Chromium: the answer streams in piece by piece."""

from __future__ import annotations

import re
import urllib.request
from typing import Iterator

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from agent.llm.fake_server import FakeLLMServer
from agent.models import Message
from agent.tests.factories import reply, route
from smartmate.tests.live_server import daphne_serving, log_in

ANSWER = "你好！我是时伴，今天想学点什么？"


@pytest.fixture(scope="module")
def chat_server(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[tuple[str, FakeLLMServer]]:
    """A daphne child whose model is a fake LLM in this process, in embedded mode (turns in threads)."""
    from django.db import connection

    with django_db_blocker.unblock():
        database_name = str(connection.settings_dict["NAME"])
    fake = FakeLLMServer().start()
    # The child reads its settings from the environment: point it at the fake, and keep it embedded
    # even in the Redis CI pass (no Celery worker runs beside this test).
    extra_env = {"LLM_BASE_URL": fake.base_url, "LLM_API_KEY": "test", "REDIS_URL": "", "CELERY_BROKER_URL": ""}
    try:
        with daphne_serving(database_name, tmp_path_factory.mktemp("chat") / "daphne.log", extra_env) as base_url:
            # Warm it up (first request loads templates and URLconfs) so a busy machine does not eat
            # into the page's own timeouts.
            urllib.request.urlopen(f"{base_url}/accounts/login/", timeout=60).close()
            yield base_url, fake
    finally:
        fake.stop()


@pytest.mark.e2e
def test_a_student_says_hello_and_watches_the_answer_stream_in(page, chat_server, transactional_db):
    base_url, fake = chat_server
    fake.script(route("reply"), reply(ANSWER, chunk_delay=0.12))
    student = UserFactory(username="xiaoming")
    page.set_default_timeout(15_000)
    page.base_url = base_url
    log_in(page, student.username)

    page.click("[data-nav=assistant]")
    page.wait_for_url(f"{base_url}/assistant/")
    expect(page.locator("[data-test=llm-not-configured]")).to_have_count(0)
    page.fill("[data-test=chat-input]", "你好")
    page.press("[data-test=chat-input]", "Enter")

    expect(page.locator("[data-test=chat-user-message] .chat-text")).to_have_text("你好")
    answer = page.locator("[data-test=chat-assistant-message] .chat-text")
    # Part of the answer is on screen before the rest has been written: it streams.
    page.wait_for_function(
        "([selector, full]) => { const node = document.querySelector(selector);"
        " return node && node.textContent.length > 0 && node.textContent.length < full.length; }",
        arg=["[data-test=chat-assistant-message] .chat-text", ANSWER])
    expect(answer).to_have_text(ANSWER)
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()
    expect(page.locator("[data-test=chat-error]")).to_be_hidden()
    page.wait_for_url(re.compile(r"/assistant/\d+/$"))
    expect(page.locator("[data-test=chat-item]")).to_have_text(re.compile("你好"))
    assert list(Message.objects.filter(conversation__user=student).values_list("role", "content")) == [
        ("user", "你好"), ("assistant", ANSWER)]
