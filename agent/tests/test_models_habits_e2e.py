"""A new student in Chromium, with the fake model replaying a Qwen-style stream that thinks in <think>
tags, calls a tool in a fenced block after a sentence, and has its last answer cut at the length limit."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from agent.models import Message
from agent.tests.factories import reply, route
from bench.llm_fixtures import recorded
from smartmate.tests.live_server import log_in, wait_until


@pytest.mark.e2e
def test_thinking_shows_as_reasoning_the_tool_runs_once_and_a_cut_answer_says_so(page, chat_server,
                                                                                 transactional_db):
    base_url, fake = chat_server
    fake.script(recorded("route_qwen_think_execute"), recorded("execute_qwen_fenced_call_after_sentence"),
                recorded("execute_qwen_answer_cut"))
    student = UserFactory(username="xiaoqwen")
    page.set_viewport_size({"width": 390, "height": 844})
    page.set_default_timeout(30_000)
    page.base_url = base_url
    log_in(page, student.username)
    page.goto(f"{base_url}/assistant/")

    page.fill("[data-test=chat-input]", "看看我这周有什么待办")
    page.press("[data-test=chat-input]", "Enter")

    turn = page.locator("[data-test=chat-assistant-message]").first
    cut = turn.locator("[data-test=chat-cut-off]")
    expect(cut).to_contain_text("回答因长度限制被截断", timeout=45_000)  # three model calls and a tool
    reasoning = turn.locator("details.chat-reasoning")
    expect(reasoning).to_be_visible()
    reasoning.locator("summary").click()
    expect(reasoning).to_contain_text("需要先查学生本周的任务")
    expect(reasoning).to_contain_text("结果里有两条随口记")
    expect(turn.locator("[data-test=chat-tool]")).to_have_count(1)  # the tool ran once
    expect(turn.locator("[data-test=chat-tool]")).to_have_attribute("data-status", "done")
    answer = turn.locator("[data-test=chat-answer]")
    expect(answer).to_contain_text("我先查一下你这周的任务。")
    expect(answer).to_contain_text("建议先")
    shown = answer.inner_text()
    assert not any(mark in shown for mark in ("{", "```", "query_tasks", "think>")), shown
    wait_until(page, "() => document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scroll
    stored = Message.objects.get(conversation__user=student, role="assistant")
    assert stored.outcome == "truncated" and "query_tasks" not in stored.content

    # Reloaded, the stored answer still says it was cut; Continue asks the model to go on.
    page.reload()
    expect(page.locator("[data-test=chat-cut-off]")).to_contain_text("回答因长度限制被截断")
    fake.script(route("reply"), reply("先写展示的提纲，再做幻灯片。"))
    page.click("[data-test=chat-continue]")
    expect(page.locator("[data-test=chat-user-message] .chat-text").last).to_have_text("请从截断的地方接着回答。",
                                                                                   timeout=15_000)
    expect(page.locator("[data-test=chat-answer]").last).to_have_text("先写展示的提纲，再做幻灯片。", timeout=30_000)
    expect(page.locator("[data-test=chat-continue]")).to_have_count(0)
