"""The chat page after infrastructure faults, in Chromium on a phone-sized screen.

The conversation is left the way a fault leaves it (its stored timeline and its row), then the
student opens it: the page asks the server what is running, so a dead turn never keeps Send
disabled, a turn that ran again after its worker died shows its answer once, and the student can
send the next message at once.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from agent.flow.contracts import AnswerReset, AssistantDelta, Event, StatusEvent, TurnDone
from agent.models import Conversation, Message
from agent.tests.factories import make_conversation, reply, route
from agent.timeline import TimelineEmitter
from smartmate.tests.live_server import log_in

pytestmark = pytest.mark.e2e



def _stored_turn(conversation: Conversation, text: str, events: list[Event]) -> str:
    """Store a student's message and the events a turn left in the timeline; return the turn's id."""
    turn_id = str(uuid.uuid4())
    Message.objects.create(conversation=conversation, role="user", content=text, turn_id=turn_id)
    emit = TimelineEmitter(conversation_id=conversation.pk, turn_id=turn_id, send=lambda *args: None)
    for event in events:
        emit(event)
    return turn_id


def _open(page, base_url: str, username: str, conversation: Conversation) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.set_default_timeout(30_000)
    page.base_url = base_url
    log_in(page, username)
    page.goto(f"{base_url}/assistant/{conversation.pk}/")


def test_a_turn_that_never_sent_turn_done_does_not_keep_send_disabled(page, chat_server, transactional_db):
    base_url, fake = chat_server
    fake.script(route("reply"), reply("在的，有什么可以帮你？"))
    student = UserFactory(username="xiaohong")
    conversation = make_conversation(student, title="断掉的回答")
    # A worker killed before the lease era: events, no turn.done, and the conversation already free.
    _stored_turn(conversation, "明天有什么课？", [StatusEvent(code="routing", message="…"),
                                                   AssistantDelta(text="明天上午")])

    _open(page, base_url, student.username, conversation)

    expect(page.locator("[data-test=chat-answer]").first).to_have_text("明天上午")
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()
    expect(page.locator("[data-test=chat-stop]")).to_be_hidden()
    page.fill("[data-test=chat-input]", "还在吗？")
    page.press("[data-test=chat-input]", "Enter")
    expect(page.locator("[data-test=chat-answer]").last).to_have_text("在的，有什么可以帮你？")
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()


def test_a_dead_turn_is_ended_when_the_page_opens_with_a_chinese_error(page, chat_server, transactional_db):
    base_url, fake = chat_server
    student = UserFactory(username="xiaogang")
    conversation = make_conversation(student, title="卡住的对话")
    turn_id = _stored_turn(conversation, "帮我排一下周末", [StatusEvent(code="routing", message="…")])
    # Its worker died: the lease ran out long ago and it was already handed out three times.
    Conversation.objects.filter(pk=conversation.pk).update(
        running_turn_id=turn_id, turn_started_at=timezone.now() - timedelta(minutes=2), turn_attempts=3,
        lease_expires_at=timezone.now() - timedelta(seconds=40), lease_owner="dead", turn_language="zh-hans")

    _open(page, base_url, student.username, conversation)

    error = page.locator("[data-test=chat-turn-error]")
    expect(error).to_have_text("助手还没来得及回答就停下了，请重新发送你的消息。")
    expect(error).to_have_attribute("data-code", "turn_lost")
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()
    assert Conversation.objects.get(pk=conversation.pk).running_turn_id is None


def test_a_turn_resumed_after_its_worker_died_shows_its_answer_once(page, chat_server, transactional_db):
    base_url, _fake = chat_server
    student = UserFactory(username="xiaoli")
    conversation = make_conversation(student, title="重来的回答")
    _stored_turn(conversation, "明天有什么课？", [
        # The dead attempt had checkpointed "明天上午" and streamed on past it before it was killed ...
        StatusEvent(code="routing", message="…"), AssistantDelta(text="明天上午有高"),
        # ... the new attempt says what the answer is so far, and streams the rest again.
        StatusEvent(code="resumed", message="…"), AnswerReset(text="明天上午", reasoning=""),
        AssistantDelta(text="有高数。"), TurnDone(outcome="completed")])

    _open(page, base_url, student.username, conversation)

    expect(page.locator("[data-test=chat-answer]")).to_have_text("明天上午有高数。")
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()
