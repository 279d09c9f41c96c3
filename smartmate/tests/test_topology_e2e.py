"""A student's two browser tabs on two daphne processes behind nginx, in Chromium.

Each tab comes in through nginx's door pinned to one process (``Topology.pinned_urls``): every page,
API call and socket of the first tab is served by web-0, those of the second tab by web-1, while the
turn runs on the topology's agent worker and reminders go out through its default worker. The tabs
share what a browser shares across ports of one host: the session cookie.

Marked ``topology`` as well as ``e2e``: the MariaDB + Redis CI pass leaves the other page tests to the
first pass but runs these (they need Redis); on embedded defaults they skip.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.tests.factories import UserFactory
from agent.models import Conversation
from bench.fake_model import RecordedRequest
from smartmate.tests.live_server import log_in, wait_until
from smartmate.tests.topology_fixtures import ANSWER, web_log_counts

# A group of their own, not test_topology's: page tests run last in a test process (conftest.py: Playwright's
# loop would break the asyncio tests after them), and a shared group would run them early, with the others.
pytestmark = [pytest.mark.e2e, pytest.mark.topology, pytest.mark.worker, pytest.mark.xdist_group("topology-pages")]

STREAMED_PIECES = 6  # 4-character pieces of the answer the model streams before it falls silent
SILENCE = 600  # seconds the model then says nothing: only Stop ends the turn
STREAMED = ANSWER[:4 * STREAMED_PIECES]
WAIT = 30_000  # ms: a busy machine runs two daphnes, five workers, nginx and Chromium
# The tab shows the beginning of the streamed words (the first piece is sent at once, later ones gathered).
ANSWER_STARTED = """(streamed) => {
  const answer = document.querySelector("[data-test=chat-answer]");
  const shown = answer === null ? "" : answer.textContent.trim();
  return shown.length > 0 && streamed.startsWith(shown);
}"""


def _answer_then_silence(request: RecordedRequest) -> dict[str, Any]:
    """Route to a plain reply; stream the beginning of ``ANSWER``, then wait (Stop must end the turn)."""
    if not request.stream:
        return {"text": '{"route": "reply", "reason": "topology page test"}'}
    return {"text": ANSWER, "chunk_size": 4, "stall_after": STREAMED_PIECES, "delay": SILENCE}


@dataclass
class Sockets:
    """What one tab's websockets did: their addresses, and the frames sent and received, by path."""

    urls: list[str] = field(default_factory=list)
    sent: dict[str, list[dict]] = field(default_factory=dict)
    received: dict[str, list[dict]] = field(default_factory=dict)

    def frames(self, path: str, kind: str, *, sent: bool = False) -> list[dict]:
        return [frame for frame in (self.sent if sent else self.received).get(path, []) if frame.get("type") == kind]


def _watch_sockets(page: Page) -> Sockets:
    """Record every websocket the page opens from now on."""
    sockets = Sockets()

    def on_socket(socket) -> None:
        path = socket.url.split("?", 1)[0].split("/", 3)[3]  # e.g. ws/agent/
        sockets.urls.append(socket.url)
        sent, received = sockets.sent.setdefault(path, []), sockets.received.setdefault(path, [])
        socket.on("framesent", lambda payload: sent.append(_frame(payload)))
        socket.on("framereceived", lambda payload: received.append(_frame(payload)))

    page.on("websocket", on_socket)
    return sockets


def _frame(payload: Any) -> dict:
    text = payload if isinstance(payload, (str, bytes)) else payload["payload"]
    return json.loads(text)


@pytest.fixture
def two_tabs(page: Page, topology) -> tuple[Page, Page]:
    """Two tabs of one browser: the first through nginx's door to web-0, the second through its door to web-1."""
    second = page.context.new_page()
    for tab, door in zip((page, second), topology.pinned_urls, strict=True):
        tab.set_default_timeout(WAIT)
        tab.base_url = door  # type: ignore[attr-defined]
    return page, second


def test_two_tabs_on_two_processes_stream_one_answer_and_stop_in_one_ends_it_in_both(
        topology, topology_model, two_tabs):
    first, second = two_tabs
    topology_model.set_responder(_answer_then_silence)
    student = UserFactory()
    conversation = Conversation.objects.create(user=student)
    sockets = [_watch_sockets(tab) for tab in two_tabs]
    connects_before = web_log_counts(topology, "WSCONNECT /ws/agent/")

    log_in(first, student.username)  # through web-0; the second tab carries the same session cookie
    for tab, seen in zip(two_tabs, sockets, strict=True):
        tab.goto(f"{tab.base_url}/assistant/{conversation.pk}/")
        _wait_followed(tab, seen)
    first.fill("[data-test=chat-input]", "周三晚上有空吗？")
    first.press("[data-test=chat-input]", "Enter")

    # The answer streams into both tabs; the model falls silent, and Stop is pressed in the second tab.
    for tab in two_tabs:
        wait_until(tab, ANSWER_STARTED, STREAMED, timeout=WAIT / 1000)
    expect(second.locator("[data-test=chat-stop]")).to_be_visible(timeout=WAIT)
    second.click("[data-test=chat-stop]")

    # Both tabs end the turn, with the same words: all the model sent before its silence (the last pieces,
    # gathered into one event, are sent when the call is stopped).
    for tab in two_tabs:
        expect(tab.locator("[data-test=chat-status]")).to_have_text("已停止。", timeout=WAIT)
        expect(tab.locator("[data-test=chat-stop]")).to_be_hidden(timeout=WAIT)
        expect(tab.locator("[data-test=chat-send]")).to_be_enabled(timeout=WAIT)
        expect(tab.locator("[data-test=chat-answer]")).to_have_text(STREAMED, timeout=WAIT)
    _each_tab_on_its_own_process(topology, sockets, "WSCONNECT /ws/agent/", connects_before)
    assert [[frame["outcome"] for frame in seen.frames("ws/agent/", "turn.done")] for seen in sockets] == [
        ["cancelled"], ["cancelled"]]
    assert [len(seen.frames("ws/agent/", "chat.send", sent=True)) for seen in sockets] == [1, 0]
    assert [len(seen.frames("ws/agent/", "chat.cancel", sent=True)) for seen in sockets] == [0, 1]
    assert list(conversation.messages.values_list("role", "content")) == [("user", "周三晚上有空吗？"),
                                                                           ("assistant", STREAMED)]
    assert Conversation.objects.get(pk=conversation.pk).running_turn_id is None


def _each_tab_on_its_own_process(topology, sockets: list[Sockets], log_line: str, before: list[int]) -> None:
    """Every socket of tab i went through nginx's door to web-i, and each process logged one new ``log_line``."""
    for seen, door in zip(sockets, topology.pinned_urls, strict=True):
        assert {url.split("/ws/")[0] for url in seen.urls} == {door.replace("http://", "ws://")}
    after = web_log_counts(topology, log_line)
    assert [now - then for then, now in zip(before, after, strict=True)] == [1, 1]


def _wait_followed(tab: Page, seen: Sockets) -> None:
    """Wait until the tab's chat socket has asked to follow its conversation (its ``replay`` frame went out)."""
    waited = 0
    while not seen.frames("ws/agent/", "replay", sent=True) and waited < 30_000:
        tab.wait_for_timeout(50)  # lets Playwright deliver the socket's events
        waited += 50
    assert seen.frames("ws/agent/", "replay", sent=True), "the chat page never followed its conversation"


def _a_block_soon(student, name: str, minutes: int, start_section: int) -> None:
    """Put a study block ``name`` on the student's schedule (at ``start_section``) starting ``minutes`` from now."""
    from taskclasses.tests.factories import make_task_class, place_item

    event = place_item(make_task_class(student, name=name, items=1).items.get(), week=13, day=3, start=start_section)
    starts = timezone.now() + timedelta(minutes=minutes)
    type(event).objects.filter(pk=event.pk).update(starts_at=starts, ends_at=starts + timedelta(minutes=95))


# Count the bell's announcements (each one writes the toast's text) once its socket is open.
TOASTS_COUNTED = """() => {
  const toast = document.querySelector("[data-test=bell-toast]");
  if (!window.__toasts) {
    window.__toasts = [];
    new MutationObserver((records) => records.forEach(() => window.__toasts.push(toast.textContent)))
      .observe(toast, { childList: true });
  }
  return document.querySelector("[data-bell]").dataset.live === "1";
}"""


def test_a_reminder_toasts_once_in_each_tab_on_its_own_process_and_is_stored_once(topology, two_tabs):
    from taskclasses.reminders.models import Reminder
    from taskclasses.reminders.services import reminders_produce

    first, second = two_tabs
    student = UserFactory()
    sockets = [_watch_sockets(tab) for tab in two_tabs]
    connects_before = web_log_counts(topology, "WSCONNECT /ws/notifications/")
    log_in(first, student.username)  # lands on the dashboard, whose bell listens on web-0
    second.goto(f"{second.base_url}/")
    for tab in two_tabs:  # each bell's socket is open; from now on every announcement is counted
        wait_until(tab, TOASTS_COUNTED, timeout=30)

    # A block starts in 8 minutes: the reminder goes out through the outbox to the topology's worker, and
    # through Redis to both processes. A second block after it shows when the first reminder's delivery is over.
    for name, minutes, section in (("线代复习", 8, 5), ("概率论复习", 9, 7)):
        _a_block_soon(student, name, minutes, section)
        reminders_produce(user=student)
        for tab in two_tabs:
            expect(tab.locator("[data-test=bell-toast]")).to_contain_text(f"学习块“{name} #1”将于", timeout=WAIT)

    stored = list(Reminder.objects.filter(user=student).order_by("id"))
    assert len(stored) == 2
    _each_tab_on_its_own_process(topology, sockets, "WSCONNECT /ws/notifications/", connects_before)
    for tab, seen in zip(two_tabs, sockets, strict=True):
        delivered = [frame["reminder"] for frame in seen.frames("ws/notifications/", "reminder")]
        assert [reminder["id"] for reminder in delivered] == [reminder.pk for reminder in stored]
        assert tab.evaluate("window.__toasts") == [f"🔔 {reminder['text']}" for reminder in delivered]
