"""Stop keeps the assistant's word, in Chromium, in Chinese, with the scripted model:

1. She accepts a move and presses Stop at once: the move is in a preview she can apply, and after
   Apply it is on the week board; the model's closing words, which came after Stop, never show.
2. She asks a question of a model that stays silent for 10 s (while it routes, then while it answers)
   and presses Stop: the page is ready again within a second, and nothing arrives later.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from agent.tests.factories import reply, route, tool_call
from agent.tests.test_assistant_flow_e2e import AFTERNOON, FRIDAY, _review_on_thursday_evening, _semester_in_week_three
from agent.tests.test_chat_e2e import _open_chat
from agent.tools.support.working_schedule import working_load
from schedule.models import ScheduleEvent
from schedule.tests.factories import import_csv

pytestmark = pytest.mark.e2e


@pytest.fixture(autouse=True)
def _fresh_script(chat_server):
    # Each test stops its turn before the model is asked for every scripted reply: what one test left
    # queued on the module's shared fake must not answer the next test's first call.
    chat_server[1].reset()

SILENT = 10  # seconds the model says nothing
STOP_BOUND = 3.0  # seconds; far below the model's silence, above a loaded CI machine's page timing
LATE_WORDS = "这句话在停止之后才到"


def _stop_and_time(page) -> float:
    """Press Stop; return the seconds until the page is ready for the next message (Send enabled, Stop gone)."""
    expect(page.locator("[data-test=chat-stop]")).to_be_visible()
    pressed = time.monotonic()
    page.click("[data-test=chat-stop]")
    expect(page.locator("[data-test=chat-stop]")).to_be_hidden(timeout=5_000)
    expect(page.locator("[data-test=chat-send]")).to_be_enabled(timeout=5_000)
    return time.monotonic() - pressed


def test_an_accepted_move_stopped_at_once_is_a_preview_she_can_apply(page, chat_server, transactional_db):
    base_url, fake = chat_server
    student = UserFactory()
    monday = _semester_in_week_three(student)
    import_csv(student, "高等数学,1,1,2,王老师,二教1101,1-20")
    block = _review_on_thursday_evening(student, monday)
    entry = working_load(user=student, now=timezone.now()).board.find(event_id=block.pk)
    friday = (monday + timedelta(days=FRIDAY - 1)).isoformat()
    fake.script(route("execute"), tool_call("move", {"task_id": entry.id, "date": friday, "start_section": AFTERNOON}))
    _open_chat(page, base_url, student.username)
    page.fill("[data-test=chat-input]", "把周四晚上的复习挪到周五下午")
    page.click("[data-test=chat-send]")
    confirm = page.locator("[data-test=chat-confirm-card]").last
    expect(confirm).to_contain_text("概率论复习", timeout=30_000)

    fake.script(reply(LATE_WORDS, delay=SILENT))  # her closing words would come long after Stop
    confirm.locator("[data-test=chat-accept]").click()
    took = _stop_and_time(page)

    # The latency itself is bench.stop_bench's figure (~0.25 s); here only that Stop does not wait for the
    # model's silence (8 s), with room for a CI machine running the suite on every core.
    assert took < STOP_BOUND, f"the page was ready {took:.2f} s after Stop"
    expect(page.locator("[data-test=chat-status]")).to_have_text("已停止。")
    preview_card = page.locator("[data-test=chat-preview-card]").last
    expect(preview_card).to_be_visible()
    expect(page.locator("[data-test=chat-assistant-message] .chat-text").last).to_contain_text("已完成")
    preview_card.locator("[data-test=chat-preview-apply]").click()
    expect(preview_card.locator("[data-test=chat-card-note]")).to_have_class("chat-card-note ok")
    moved = ScheduleEvent.objects.get(user=student, task_item__task_class__name="概率论复习")
    assert (moved.week, moved.day, moved.start_section) == (4, FRIDAY, AFTERNOON)
    page.goto(f"{base_url}/board/?week=4")
    expect(page.locator(f'td[data-day="{FRIDAY}"][data-section="{AFTERNOON}"]')).to_contain_text("概率论复习")
    page.go_back()
    expect(page.locator("[data-test=chat-preview-card]").last).to_be_visible()
    expect(page.locator("main")).not_to_contain_text(LATE_WORDS)


def test_stop_on_a_silent_model_frees_the_page_within_a_second_and_nothing_comes_later(
        page, chat_server, transactional_db):
    base_url, fake = chat_server
    student = UserFactory()
    # Silent while it decides how to answer (a plain call), then silent before its first words (streamed).
    fake.script({**route("reply"), "delay": SILENT}, route("reply"), reply(LATE_WORDS, delay=SILENT))
    asked_before = len(fake.requests)
    _open_chat(page, base_url, student.username)
    first_asked = time.monotonic()
    took = []
    # The first turn stops while the model decides (1 call); the second once it is streaming (2 calls more).
    for question, calls in (("明天有什么课？", 1), ("那后天呢？", 3)):
        page.fill("[data-test=chat-input]", question)
        page.click("[data-test=chat-send]")
        expect(page.locator("[data-test=chat-stop]")).to_be_visible()
        _wait_until_asked(page, fake, asked_before + calls)  # the model has been asked and says nothing
        took.append(_stop_and_time(page))
        expect(page.locator("[data-test=chat-status]")).to_have_text("已停止。")

    assert max(took) < STOP_BOUND, f"the page was ready {took} s after Stop"
    page.wait_for_timeout(max(0.0, first_asked + SILENT + 1.5 - time.monotonic()) * 1000)  # past both silences
    expect(page.locator("main")).not_to_contain_text(LATE_WORDS)
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()
    # Nothing arrives after the stop either: no error (the hung call's end is the model's, never the page's).
    expect(page.locator("[data-test=chat-turn-error]")).to_have_count(0)
    expect(page.locator("[data-test=chat-error]")).to_be_hidden()
    assert len(fake.requests) - asked_before == 3  # the stopped route asked nothing further


def _wait_until_asked(page, fake, calls: int, timeout: float = 20.0) -> None:
    """Wait (on a loaded machine, as long as it takes) until the fake model has received ``calls`` requests."""
    deadline = time.monotonic() + timeout
    while len(fake.requests) < calls:
        assert time.monotonic() < deadline, f"the model was asked {len(fake.requests)} times, not {calls}"
        page.wait_for_timeout(50)
