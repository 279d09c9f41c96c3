"""A student chats with the assistant in Chromium: streaming, Markdown, options, reconnect, cards."""

from __future__ import annotations

import json
import re
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone, translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from agent.flow.contracts import (
    AskUser,
    AssistantDelta,
    ConfirmRequest,
    ContextUsage,
    PreviewReady,
    StatusEvent,
    ToolCallEvent,
    ToolResultEvent,
    TurnDone,
    UsageEvent,
)
from agent.models import Conversation, Message
from agent.tests.factories import make_conversation, reply, route
from agent.timeline import TimelineEmitter
from schedule.models import PlanPreview
from smartmate.tests.live_server import log_in, wait_until
from taskclasses.tests.factories import make_task_class

ANSWER = "你好！我是时伴，今天想学点什么？"



@pytest.mark.e2e
def test_a_student_says_hello_and_watches_the_answer_stream_in(page, chat_server, transactional_db):
    base_url, fake = chat_server
    fake.script(route("reply"), reply(ANSWER, chunk_delay=0.12))
    student = UserFactory(username="xiaoming")
    page.set_default_timeout(30_000)
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
    wait_until(page,
               "([selector, full]) => { const node = document.querySelector(selector);"
               " return node && node.textContent.length > 0 && node.textContent.length < full.length; }",
               ["[data-test=chat-assistant-message] .chat-text", ANSWER])
    expect(answer).to_have_text(ANSWER)
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()
    expect(page.locator("[data-test=chat-error]")).to_be_hidden()
    page.wait_for_url(re.compile(r"/assistant/\d+/$"))
    expect(page.locator("[data-test=chat-item]")).to_have_text(re.compile("你好"))
    assert list(Message.objects.filter(conversation__user=student).values_list("role", "content")) == [
        ("user", "你好"), ("assistant", ANSWER)]


# --- The page's rendering, options, reconnect and cards ---------------------------------------------

MARKDOWN = ("**重点**：先复习\n\n- 第一章\n- 第二章\n\n"
            '<img src="x" onerror="window.__pwned = 1"><script>window.__pwned = 2</script>'
            '<a href="javascript:window.__pwned = 3">点我</a>')


def _open_chat(page, base_url: str, username: str, path: str = "/assistant/") -> None:
    page.set_default_timeout(30_000)
    page.base_url = base_url
    log_in(page, username)
    page.goto(f"{base_url}{path}")


def _frames_sent(page) -> list[dict]:
    """Record every frame the page sends on its sockets."""
    frames: list[dict] = []

    def on_socket(socket) -> None:
        socket.on("framesent", lambda payload: frames.append(json.loads(
            payload if isinstance(payload, (str, bytes)) else payload["payload"])))

    page.on("websocket", on_socket)
    return frames


@pytest.mark.e2e
def test_a_markdown_answer_renders_as_html_with_injected_html_neutralised(page, chat_server, transactional_db):
    base_url, fake = chat_server
    fake.script(route("reply"), reply(MARKDOWN, reasoning="先想一想", chunk_delay=0.01),
                route("reply"), reply("换个说法：*先做题*。"))
    student = UserFactory()
    plan = make_task_class(student, name="线性代数复习")
    frames = _frames_sent(page)
    _open_chat(page, base_url, student.username)

    page.click("[data-test=chat-task-classes] summary")
    page.check(f"input[name=task_class_ids][value='{plan.pk}']")
    page.check("[data-test=chat-thinking-on]")
    page.check("[data-test=chat-always-execute]")
    page.fill("[data-test=chat-input]", "怎么复习？")
    page.press("[data-test=chat-input]", "Enter")

    answer = page.locator("[data-test=chat-answer]")
    expect(answer.locator("strong")).to_have_text("重点")
    expect(answer.locator("li")).to_have_count(2)
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()
    reasoning = page.locator("[data-test=chat-assistant-message] details.chat-reasoning")
    expect(reasoning).to_be_visible()
    expect(reasoning).not_to_have_attribute("open", "")  # collapsed until the student opens it
    reasoning.locator("summary").click()
    expect(reasoning.locator(".chat-reasoning-text")).to_have_text("先想一想")
    assert answer.locator("img, script").count() == 0
    assert answer.locator("a").get_attribute("href") is None
    assert page.evaluate("window.__pwned") is None
    sent = next(frame for frame in frames if frame["type"] == "chat.send")
    assert (sent["task_class_ids"], sent["thinking"], sent["always_execute"]) == ([plan.pk], "on", True)

    # Reloaded, the toggles are remembered and the stored answer is rendered (once) the same way.
    page.reload()
    expect(page.locator("[data-test=chat-thinking-on]")).to_be_checked()
    expect(page.locator("[data-test=chat-always-execute]")).to_be_checked()
    expect(page.locator("[data-test=chat-answer] strong")).to_have_text("重点")
    expect(page.locator("[data-test=chat-assistant-message]")).to_have_count(1)
    assert page.evaluate("window.__pwned") is None

    # Regenerate: the server answers the last question again and the old answer is replaced.
    page.click("[data-test=chat-regenerate]")
    expect(page.locator("[data-test=chat-answer] em")).to_have_text("先做题")
    expect(page.locator("[data-test=chat-assistant-message]")).to_have_count(1)
    expect(page.locator("[data-test=chat-user-message]")).to_have_count(1)
    assert [frame["type"] for frame in frames].count("chat.regenerate") == 1
    page.reload()
    expect(page.locator("[data-test=chat-answer] em")).to_have_text("先做题")
    expect(page.locator("[data-test=chat-assistant-message]")).to_have_count(1)


@pytest.mark.e2e
def test_after_a_dropped_connection_the_page_replays_what_it_missed_without_duplicates(
        page, chat_server, transactional_db):
    base_url, fake = chat_server
    story = "从前有座山，山里有座庙，庙里有个老和尚在给小和尚讲故事。"
    fake.script(route("reply"), reply(story, chunk_delay=0.15))
    student = UserFactory()
    sockets: list[tuple] = []
    sent: list[dict] = []

    def through(socket) -> None:  # pass every frame through, so the test can cut the line
        server = socket.connect_to_server()
        socket.on_message(lambda message: (sent.append(json.loads(message)),  # type: ignore[func-returns-value]  # 2 calls
                                           server.send(message)))
        server.on_message(lambda message: socket.send(message))
        sockets.append((socket, server))

    page.route_web_socket(re.compile(r"/ws/agent/"), through)
    _open_chat(page, base_url, student.username)
    page.fill("[data-test=chat-input]", "讲个故事")
    page.press("[data-test=chat-input]", "Enter")
    answer = page.locator("[data-test=chat-answer]")
    expect(answer).not_to_be_empty()

    page_side, server_side = sockets[-1]
    page_side.close()
    server_side.close()

    expect(answer).to_have_text(story)
    expect(page.locator("[data-test=chat-assistant-message]")).to_have_count(1)
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()
    replays = [frame for frame in sent if frame["type"] == "replay"]
    assert len(sockets) >= 2 and replays and replays[-1]["after_seq"] > 0


def _emit_turn(conversation, *events) -> None:
    # As a real turn: the student's message is stored first, then the turn's events.
    turn_id = str(uuid.uuid4())
    Message.objects.create(conversation=conversation, role=Message.Role.USER, content="帮我安排", turn_id=turn_id)
    emit = TimelineEmitter(conversation_id=conversation.pk, turn_id=turn_id, send=lambda *args: None)
    for event in events:
        emit(event)


@pytest.mark.e2e
def test_tool_timeline_cards_and_meter_render_and_their_buttons_send_the_right_frames(
        page, chat_server, transactional_db):
    base_url, _fake = chat_server
    student = UserFactory()
    preview = PlanPreview.objects.create(user=student, source=PlanPreview.Source.ASSISTANT,
                                         expires_at=timezone.now() + timedelta(days=1))
    asking = make_conversation(student, title="问一问")
    _emit_turn(asking,
               StatusEvent(code="routing", message="…"),
               ToolCallEvent(call_id="c1", name="query_range", arguments={"week": 3}, summary="查看第 3 周"),
               ToolResultEvent(call_id="c1", name="query_range", status="done", summary="第 3 周有 5 个空闲时段"),
               PreviewReady(preview_id=preview.pk, summary="安排了 4 个复习时段"),
               AssistantDelta(text="已为你**安排**好。"),
               ContextUsage(parts={"system": 400, "memory": 0, "history": 300, "tools": 200, "message": 100},
                            used=1000, budget=8000),
               UsageEvent(prompt_tokens=900, completion_tokens=100, total_tokens=1000, calls=2),
               TurnDone(outcome="completed"))
    _emit_turn(asking, ConfirmRequest(interaction_id="old", title="确认计划", summary="两步", details={"steps": ["读", "练"]}),
               TurnDone(outcome="interrupted"))
    _emit_turn(asking, AskUser(interaction_id="ask-1", question="每天最多学几小时？"), TurnDone(outcome="interrupted"))
    confirming = make_conversation(student, title="确认")
    _emit_turn(confirming, PreviewReady(preview_id=preview.pk + 1000, summary="别的预览"),
               ConfirmRequest(interaction_id="confirm-1", title="移动两个时段", summary="周三 → 周四"),
               TurnDone(outcome="interrupted"))
    frames = _frames_sent(page)
    _open_chat(page, base_url, student.username, f"/assistant/{asking.pk}/")
    with translation.override("zh-hans"):
        stale, not_found = gettext("This confirmation or question is no longer open."), gettext("Not found.")

    tool = page.locator("[data-test=chat-tool]")
    expect(tool).to_have_attribute("data-status", "done")
    expect(tool.locator("[data-test=chat-tool-result]")).to_have_text("第 3 周有 5 个空闲时段")
    expect(page.locator("[data-test=chat-answer] strong")).to_have_text("安排")
    expect(page.locator("[data-test=chat-context-label]")).to_contain_text("8,000")
    expect(page.locator("#chat-meter-bar .chat-meter-part")).to_have_count(5)
    expect(page.locator("[data-test=chat-confirm-card] [data-test=chat-accept]")).to_be_disabled()  # answered since
    expect(page.locator("[data-test=chat-preview-open]")).to_have_attribute("href", f"/board/?preview={preview.pk}")
    with page.expect_request(re.compile(r"/api/v1/previews/\d+/apply/$")) as applying:
        page.click("[data-test=chat-preview-apply]")
    assert applying.value.headers.get("x-idempotency-key") and applying.value.headers.get("x-csrftoken")
    expect(page.locator("[data-test=chat-preview-card]")).to_have_attribute("data-state", "applied")
    page.fill("[data-test=chat-answer-input]", "两小时")
    page.click("[data-test=chat-answer-send]")
    expect(page.locator("[data-test=chat-error]")).to_have_text(stale)
    expect(page.locator("[data-test=chat-ask-card]")).to_have_attribute("data-state", "stale")

    page.click(f"[data-test=chat-item][data-conversation-id='{confirming.pk}'] [data-test=chat-open]")
    expect(page.locator("[data-test=chat-confirm-card] h3")).to_have_text("移动两个时段")
    page.click("[data-test=chat-preview-apply]")
    expect(page.locator("[data-test=chat-preview-card] [data-test=chat-card-note]")).to_have_text(not_found)
    page.click("[data-test=chat-accept]")
    expect(page.locator("[data-test=chat-confirm-card]")).to_have_attribute("data-state", "stale")
    expect(page.locator("[data-test=chat-error]")).to_have_text(stale)
    resumes = [(f["conversation_id"], f["interaction_id"], f["action"], f.get("text")) for f in frames
               if f["type"] == "chat.resume"]
    assert resumes == [(asking.pk, "ask-1", "answer", "两小时"), (confirming.pk, "confirm-1", "accept", None)]
    preview.refresh_from_db()
    assert preview.status == PlanPreview.Status.APPLIED

    # The list renames, archives and deletes (the last two leave a blank chat when it was open).
    page.once("dialog", lambda dialog: dialog.accept("改个名字"))
    page.click(f"[data-test=chat-item][data-conversation-id='{confirming.pk}'] [data-test=chat-rename]")
    expect(page.locator("[data-test=chat-title]")).to_have_text("改个名字")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click(f"[data-test=chat-item][data-conversation-id='{confirming.pk}'] [data-test=chat-delete]")
    page.click(f"[data-test=chat-item][data-conversation-id='{asking.pk}'] [data-test=chat-archive]")
    expect(page.locator("[data-test=chat-item]")).to_have_count(0)
    page.wait_for_url(f"{base_url}/assistant/")
    asking.refresh_from_db()
    assert asking.archived and not Conversation.objects.filter(pk=confirming.pk).exists()


@pytest.mark.e2e
def test_a_replayed_preview_card_says_what_became_of_its_preview(page, chat_server, transactional_db):
    # The probe: after a reload every preview card offered Apply again, whatever had happened to it.
    base_url, _fake = chat_server
    student = UserFactory()
    later, earlier = timezone.now() + timedelta(days=1), timezone.now() - timedelta(minutes=1)
    previews = {state: PlanPreview.objects.create(user=student, source=PlanPreview.Source.ASSISTANT,
                                                  status=status, expires_at=expires)
                for state, status, expires in [("applied", "applied", later), ("discarded", "discarded", later),
                                               ("expired", "open", earlier), ("open", "open", later)]}
    conversation = make_conversation(student, title="几次建议")
    for state, preview in previews.items():
        _emit_turn(conversation, PreviewReady(preview_id=preview.pk, summary=f"建议 {state}"),
                   TurnDone(outcome="completed"))
    _open_chat(page, base_url, student.username, f"/assistant/{conversation.pk}/")
    with translation.override("zh-hans"):
        applied = gettext("Applied to your schedule.")

    cards = page.locator("[data-test=chat-preview-card]")
    expect(cards).to_have_count(4)
    for index, state in enumerate(["applied", "discarded", "expired"]):
        expect(cards.nth(index)).to_have_attribute("data-state", state)
        expect(cards.nth(index).locator("[data-test=chat-preview-apply]")).to_be_hidden()
    expect(cards.nth(0).locator("[data-test=chat-card-note]")).to_have_text(applied)
    expect(cards.nth(3).locator("[data-test=chat-preview-apply]")).to_be_visible()


@pytest.mark.e2e
@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 900}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_a_model_failure_is_said_once_in_chinese_without_the_endpoints_words(page, chat_server, transactional_db,
                                                                               viewport):
    base_url, fake = chat_server
    fake.script({"status": 400, "error_message": "model not found: deepseek-chatt"})
    student = UserFactory(username=f"xiaoli-llm-error{viewport['width']}")
    page.set_viewport_size(viewport)
    page.set_default_timeout(30_000)
    page.base_url = base_url
    log_in(page, student.username)
    page.goto(f"{base_url}/assistant/")
    page.fill("[data-test=chat-input]", "明天有什么课？")
    page.click("[data-test=chat-send]")
    said = "助手的模型拒绝了这次请求。换个说法试试，或者新开一个对话。"
    expect(page.locator("[data-test=chat-turn-error]")).to_have_text(said)
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()
    body = page.inner_text("body")
    assert body.count(said) == 1  # once, in the turn; not again in a banner
    assert "model not found" not in body and "HTTP" not in body and "LLM_" not in body
    expect(page.locator("[data-test=chat-error]")).to_be_hidden()
