"""A question sent as the socket drops is never lost silently, in Chromium.

The page's socket runs through Playwright's WebSocket route to the real daphne server, so a test can
drop the connection exactly while a message is in flight: before the message reaches the server, or
after the server stored it but before its acknowledgement reaches the page. The page says 未发送 with
重新发送, sends the message again (by itself on reconnect, or on the button) with the same id, and the
server stores it once and answers it once.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import cast

import pytest
from playwright.sync_api import WebSocketRoute, expect

from accounts.models import User
from accounts.tests.factories import UserFactory
from agent.models import Conversation, Message
from agent.tests.factories import make_conversation, reply, route
from smartmate.tests.live_server import log_in

pytestmark = pytest.mark.e2e

AGENT_SOCKET = re.compile(r"/ws/agent/$")
ANSWER = "明天上午第一二节是高等数学。"


@dataclass
class Wire:
    """The page's agent sockets as the route sees them; ``connections`` decides what each one does."""

    # Per connection: "drop-send", "drop-ack", "drop-ack-keep-answer", "swallow-send", "refuse" or "pass".
    connections: list[str]
    sends: list[dict] = field(default_factory=list)

    def route(self, ws: WebSocketRoute) -> None:
        plan = self.connections.pop(0) if self.connections else "pass"
        if plan == "refuse":  # the server accepts and drops at once, as during an outage
            ws.close(code=1013)
            return
        server = ws.connect_to_server()
        ws.on_message(lambda message: self._from_page(plan, ws, server, message))
        server.on_message(lambda message: self._from_server(plan, ws, server, message))

    def _from_page(self, plan: str, ws: WebSocketRoute, server: WebSocketRoute, message: str | bytes) -> None:
        frame = json.loads(message)
        if frame["type"] == "chat.send":
            self.sends.append(frame)
            if plan == "drop-send":  # the socket drops as the message leaves: the server never sees it
                ws.close(code=4000)
                server.close()
                return
            if plan == "swallow-send" and len(self.sends) == 1:  # lost on the way; the socket stays up
                return
        server.send(message)

    def _from_server(self, plan: str, ws: WebSocketRoute, server: WebSocketRoute, message: str | bytes) -> None:
        kind = json.loads(message)["type"]
        if plan == "drop-ack" and kind == "chat.ack":
            ws.close(code=4000)  # stored on the server, but the page never hears so
            server.close()
            return
        if plan == "drop-ack-keep-answer" and kind == "chat.ack":
            return  # lost; the answer still streams in, then the socket drops
        ws.send(message)
        if plan == "drop-ack-keep-answer" and kind == "turn.done":
            ws.close(code=4000)
            server.close()


def _ask_through(page, chat_server, connections: list[str], title: str) -> tuple[Wire, Conversation]:
    """Open a conversation of a new student through a route playing ``connections``, and ask a question."""
    base_url, fake = chat_server
    fake.script(route("reply"), reply(ANSWER))
    wire = Wire(connections=connections)
    student = cast(User, UserFactory())
    conversation = make_conversation(student, title=title)
    page.set_default_timeout(30_000)
    page.base_url = base_url
    page.route_web_socket(AGENT_SOCKET, wire.route)
    log_in(page, student.username)
    page.goto(f"{base_url}/assistant/{conversation.pk}/")
    expect(page.locator("#chat-status")).not_to_have_text("正在连接…")
    page.fill("[data-test=chat-input]", "明天有什么课？")
    page.press("[data-test=chat-input]", "Enter")
    return wire, conversation


def _answer_shown(page) -> None:
    expect(page.locator("[data-test=chat-answer]")).to_have_text(ANSWER, timeout=15_000)  # a loaded machine


def _stored_questions(conversation) -> list[str]:
    return list(Message.objects.filter(conversation=conversation, role="user").values_list("content", flat=True))


def test_a_message_lost_as_the_socket_drops_says_unsent_and_goes_again_on_reconnect(
        page, chat_server, transactional_db):
    # The drop, then two reconnects the server refuses (Redis still away), then a good one.
    wire, conversation = _ask_through(page, chat_server, ["drop-send", "refuse", "refuse", "pass"], "断线时的问题")

    unsent = page.locator("[data-test=chat-user-message] [data-test=chat-unsent]")
    expect(unsent).to_contain_text("未发送")
    expect(unsent.locator("[data-test=chat-resend]")).to_have_text("重新发送")
    _answer_shown(page)
    expect(unsent).to_have_count(0)
    assert _stored_questions(conversation) == ["明天有什么课？"]
    assert len({frame["client_message_id"] for frame in wire.sends}) == 1 and len(wire.sends) >= 2


def test_a_message_stored_but_not_acknowledged_is_sent_again_and_answered_once(page, chat_server, transactional_db):
    wire, conversation = _ask_through(page, chat_server, ["drop-ack", "pass"], "没收到确认")

    _answer_shown(page)
    expect(page.locator("[data-test=chat-unsent]")).to_have_count(0)
    expect(page.locator("[data-test=chat-user-message]")).to_have_count(1)
    expect(page.locator("[data-test=chat-assistant-message]")).to_have_count(1)
    assert [frame["client_message_id"] for frame in wire.sends] == [wire.sends[0]["client_message_id"]] * 2
    assert _stored_questions(conversation) == ["明天有什么课？"]
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()


def test_a_resend_acknowledged_after_its_whole_answer_was_shown_leaves_send_enabled(
        page, chat_server, transactional_db):
    wire, conversation = _ask_through(page, chat_server, ["drop-ack-keep-answer", "pass"], "答完才断")

    _answer_shown(page)
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()
    expect(page.locator("[data-test=chat-unsent]")).to_have_count(0)
    assert len(wire.sends) == 2 and _stored_questions(conversation) == ["明天有什么课？"]


def test_a_message_never_acknowledged_offers_resend_and_the_button_sends_it(page, chat_server, transactional_db):
    _wire, conversation = _ask_through(page, chat_server, ["swallow-send"], "石沉大海")

    resend = page.locator("[data-test=chat-unsent] [data-test=chat-resend]")
    expect(resend).to_have_text("重新发送", timeout=10_000)  # after the page's few seconds for an ack
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()
    assert _stored_questions(conversation) == []
    resend.click()

    _answer_shown(page)
    expect(page.locator("[data-test=chat-unsent]")).to_have_count(0)
    assert _stored_questions(conversation) == ["明天有什么课？"]


def test_a_message_sent_while_the_conversation_is_still_loading_stays_and_is_answered(
        page, chat_server, transactional_db):
    # The load of the stored conversation is held until the question has been sent: the page sends it
    # after the load (which used to wipe its bubble and forget it), and it is stored and answered once.
    base_url, fake = chat_server
    fake.script(route("reply"), reply(ANSWER))
    student = cast(User, UserFactory())
    conversation = make_conversation(student, title="还在加载")
    held = []
    page.set_default_timeout(30_000)
    page.base_url = base_url
    page.route(re.compile(rf"/conversations/{conversation.pk}/$"), lambda held_route: held.append(held_route))
    log_in(page, student.username)
    page.goto(f"{base_url}/assistant/{conversation.pk}/")
    page.fill("[data-test=chat-input]", "明天有什么课？")
    page.press("[data-test=chat-input]", "Enter")
    expect(page.locator("[data-test=chat-input]")).to_have_value("明天有什么课？")  # waiting, not sent, not lost
    assert len(held) == 1
    held[0].continue_()

    _answer_shown(page)
    expect(page.locator("[data-test=chat-user-message]")).to_have_count(1)
    expect(page.locator("[data-test=chat-input]")).to_have_value("")
    assert _stored_questions(conversation) == ["明天有什么课？"]
