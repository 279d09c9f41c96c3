"""Services and the turn's Django facade: prompts, titles, input checks, where turns run, tickets."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from agent.exceptions import InvalidText, TicketInvalid
from agent.flow.prompts import system_prompt
from agent.models import Conversation
from agent.services.running import TurnDoneAfterRelease
from agent.services.tickets import ticket_create, ticket_redeem
from agent.services.turns import turn_start
from agent.tests.factories import make_conversation
from agent.turn_services import DjangoTurnServices
from schedule.tests.factories import custom_event

SHANGHAI = ZoneInfo("Asia/Shanghai")


@pytest.mark.django_db
def test_the_system_prompt_has_the_date_the_week_and_todays_timetable(user):
    custom_event(user, title="社团活动", week=3, day=2, start=5, end=6)
    now = datetime(2026, 9, 22, 10, 0, tzinfo=SHANGHAI)  # Tuesday of week 3
    facade = DjangoTurnServices(user=user, conversation_id=1, turn_id="t", now=lambda: now)

    prompt = system_prompt(facade.prompt_context())

    assert "2026年9月22日 星期二 10:00" in prompt
    assert "本学期第 3 周（共 20 周）。" in prompt
    assert "- 14:00–15:40 社团活动" in prompt
    assert prompt.endswith("## 相关记忆（数据，仅在确有帮助时参考）\n（暂无）")


@pytest.mark.django_db
def test_outside_the_semester_the_prompt_says_so(user):
    now = datetime(2026, 8, 1, 9, 0, tzinfo=SHANGHAI)
    prompt = system_prompt(DjangoTurnServices(user=user, conversation_id=1, turn_id="t",
                                              now=lambda: now).prompt_context())
    assert "现在不在学期内（学期共 20 周）。" in prompt and "今天没有安排。" in prompt


@pytest.mark.django_db
@pytest.mark.parametrize("text, code, message", [
    ("   ", "invalid_text", "Write a message first."),
    ("x" * 4001, "text_too_long", "The message is too long: at most 4000 characters."),
])
def test_an_empty_or_too_long_message_is_refused(user, text, code, message):
    conversation = make_conversation(user)
    with pytest.raises(InvalidText) as refused:
        turn_start(user=user, conversation_id=conversation.pk, text=text)
    assert (refused.value.code, refused.value.message) == (code, message)
    assert not conversation.messages.exists()


@pytest.mark.django_db
def test_with_a_broker_the_turn_goes_to_the_celery_agent_queue(user, settings, monkeypatch,
                                                                django_capture_on_commit_callbacks):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued = []
    monkeypatch.setattr("agent.tasks.run_turn.apply_async", lambda args, queue: queued.append((*args, queue)))
    conversation = make_conversation(user)

    with django_capture_on_commit_callbacks(execute=True):
        started = turn_start(user=user, conversation_id=conversation.pk, text="一段很长的话" * 10,
                             language="en")

    assert queued == [(conversation.pk, started.turn_id, "en", "agent")]
    assert Conversation.objects.get(pk=conversation.pk).title == ("一段很长的话" * 5)[:29] + "…"
    assert settings.CELERY_TASK_ROUTES["agent.*"] == {"queue": "agent"}


@pytest.mark.django_db
def test_a_lock_left_by_a_dead_worker_is_taken_over_after_ten_minutes(user, settings, monkeypatch,
                                                                      django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr("agent.tasks.run_turn.apply_async", lambda args, queue: None)
    conversation = make_conversation(user)
    Conversation.objects.filter(pk=conversation.pk).update(
        running_turn_id="00000000-0000-0000-0000-000000000009", turn_started_at=timezone.now() - timedelta(minutes=11))

    started = turn_start(user=user, conversation_id=conversation.pk, text="你好")

    assert str(Conversation.objects.get(pk=conversation.pk).running_turn_id) == started.turn_id


@pytest.mark.django_db
def test_a_ticket_works_once(user):
    issued = ticket_create(user=user)
    assert ticket_redeem(ticket=issued.ticket) == user
    with pytest.raises(TicketInvalid) as refused:
        ticket_redeem(ticket=issued.ticket)
    assert refused.value.message == "This ticket is unknown, already used or expired. Ask for a new one."


def test_turn_done_is_sent_only_after_the_conversation_is_released():
    # A client answers turn.done at once; before this it could find the conversation still locked (busy).
    sent = []
    sender = TurnDoneAfterRelease(send=lambda conversation_id, frame: sent.append(frame["type"]))
    sender(1, {"type": "assistant.delta"})
    sender(1, {"type": "turn.done"})
    assert sent == ["assistant.delta"]
    sender.release()
    assert sent == ["assistant.delta", "turn.done"]
