"""Turns survive infrastructure faults: leases, the sweeper, every way a turn can die.

The faults are real: a turn whose worker "died" is a conversation row left the way a killed worker
leaves it (lease run out, or handed off and never started); a process being stopped is a real signal
delivered while the turn waits for the scripted model.
"""

from __future__ import annotations

import signal
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.utils import timezone

from agent import embedded_turns
from agent.exceptions import TurnBusyError
from agent.models import Checkpoint, Conversation, Message, TimelineEvent
from agent.services.leases import LeaseHeartbeat, LeaseLost, lease_claim, lease_release
from agent.services.recovery import turn_recover, turns_resend_on_connect, turns_sweep
from agent.services.running import turn_run
from agent.services.turns import turn_start
from agent.tests.factories import make_conversation, reply, route, shown_answer, timeline, types

pytestmark = pytest.mark.django_db(transaction=True)


def handed_off(conversation: Conversation, *, text: str = "你好", sent_ago: float = 60, attempts: int = 1,
               lease_left: float | None = None, language: str = "en") -> str:
    """Leave a turn the way a lost message or a killed worker leaves it; return its id.

    ``lease_left`` None: handed off, never started; negative: started, its lease ran out that long ago.
    """
    now = timezone.now()
    turn_id = str(uuid.uuid4())
    Message.objects.create(conversation=conversation, role="user", content=text, turn_id=turn_id)
    Conversation.objects.filter(pk=conversation.pk).update(
        running_turn_id=turn_id, turn_started_at=now - timedelta(seconds=sent_ago),
        turn_sent_at=now - timedelta(seconds=sent_ago), turn_attempts=attempts, turn_language=language,
        lease_expires_at=None if lease_left is None else now + timedelta(seconds=lease_left),
        lease_owner="" if lease_left is None else "a-dead-worker")
    return turn_id


def turn_frames(conversation: Conversation, turn_id: str) -> list[dict]:
    return [frame for frame in timeline(conversation) if frame["turn_id"] == turn_id]



def is_free(conversation: Conversation) -> bool:
    row = Conversation.objects.get(pk=conversation.pk)
    return row.running_turn_id is None and row.lease_expires_at is None and row.lease_owner == ""


# --- the lease ---------------------------------------------------------------------------------------


def test_only_one_attempt_holds_a_turn_and_an_expired_lease_can_be_taken_over(user):
    conversation = make_conversation(user)
    turn_id = handed_off(conversation)

    first = lease_claim(conversation_id=conversation.pk, turn_id=turn_id)
    assert first is not None
    # A duplicate delivery while the first attempt is alive gets nothing.
    assert lease_claim(conversation_id=conversation.pk, turn_id=turn_id) is None
    # Once the lease runs out (nobody renewed it), a new attempt takes it; the old one can no longer release.
    later = timezone.now() + timedelta(seconds=31)
    second = lease_claim(conversation_id=conversation.pk, turn_id=turn_id, now=later)
    assert second is not None and second.owner != first.owner
    assert lease_release(first) is False
    assert lease_release(second) is True and is_free(conversation)


def test_a_duplicate_delivery_of_a_leased_turn_writes_nothing(user):
    conversation = make_conversation(user)
    turn_id = handed_off(conversation, lease_left=25)

    turn_run(conversation_id=conversation.pk, turn_id=turn_id, language="en")

    assert not TimelineEvent.objects.filter(conversation=conversation).exists()
    assert str(Conversation.objects.get(pk=conversation.pk).running_turn_id) == turn_id


def test_the_heartbeat_renews_the_lease_and_notices_a_takeover(user):
    conversation = make_conversation(user)
    turn_id = handed_off(conversation)
    lease = lease_claim(conversation_id=conversation.pk, turn_id=turn_id)
    assert lease is not None
    first_expiry = Conversation.objects.get(pk=conversation.pk).lease_expires_at

    with LeaseHeartbeat(lease, every=0.05):
        time.sleep(0.3)
        assert Conversation.objects.get(pk=conversation.pk).lease_expires_at > first_expiry
        lease.check()  # still ours
        Conversation.objects.filter(pk=conversation.pk).update(lease_owner="the-sweeper")
        deadline = time.monotonic() + 2
        while not lease.lost.is_set() and time.monotonic() < deadline:
            time.sleep(0.02)
    with pytest.raises(LeaseLost):
        lease.check()


# --- the sweeper ---------------------------------------------------------------------------------------


def test_a_turn_whose_message_was_lost_is_sent_again_and_answered(fake_llm, user):
    fake_llm.script(route("reply"), reply("你好！"))
    conversation = make_conversation(user)
    turn_id = handed_off(conversation, sent_ago=25)

    assert turns_sweep() == {"resent": 1}
    assert embedded_turns.join(timeout=20)

    frames = turn_frames(conversation, turn_id)
    assert types(frames) == ["status", "context", "assistant.delta*", "usage", "turn.done"]
    assert frames[-1]["outcome"] == "completed"
    assert Message.objects.get(turn_id=turn_id, role="assistant").content == "你好！"
    assert is_free(conversation)


def test_a_worker_connecting_to_the_broker_sends_again_at_once_a_turn_handed_off_moments_ago(fake_llm, user):
    # Redis came back empty: the sweep would wait AGENT_TURN_RESEND_AFTER; a connecting worker does not.
    fake_llm.script(route("reply"), reply("你好！"))
    waiting, running = make_conversation(user), make_conversation(user)
    turn_id = handed_off(waiting, sent_ago=1)
    handed_off(running, sent_ago=1, lease_left=20)

    assert turns_resend_on_connect() == {"agent_turns": 1}
    assert embedded_turns.join(timeout=20)

    assert turn_frames(waiting, turn_id)[-1]["outcome"] == "completed"
    assert Conversation.objects.get(pk=running.pk).lease_owner == "a-dead-worker"  # a live turn is left alone


def test_a_turn_handed_off_moments_ago_or_with_a_live_lease_is_left_alone(user):
    waiting, running = make_conversation(user), make_conversation(user)
    handed_off(waiting, sent_ago=5)
    handed_off(running, sent_ago=120, lease_left=20)

    assert turns_sweep() == {}
    assert turn_recover(conversation_id=waiting.pk) == turn_recover(conversation_id=running.pk) == "running"
    assert Conversation.objects.get(pk=running.pk).lease_owner == "a-dead-worker"


def test_a_turn_whose_worker_died_mid_answer_resumes_without_showing_the_answer_twice(fake_llm, user):
    fake_llm.script(route("reply"), reply("明天上午你有两节课。"))
    conversation = make_conversation(user)
    turn_id = handed_off(conversation, lease_left=-1)
    # What the dead attempt had streamed before it was killed (stored events, as it left them).
    for seq, (kind, payload) in enumerate([("status", {"code": "routing", "message": "…"}),
                                           ("assistant.delta", {"text": "明天上"})], start=1):
        TimelineEvent.objects.create(conversation=conversation, seq=seq, type=kind, turn_id=turn_id, payload=payload)

    assert turns_sweep() == {"resent": 1}
    assert embedded_turns.join(timeout=20)

    frames = turn_frames(conversation, turn_id)
    assert types(frames)[:4] == ["status", "assistant.delta*", "status", "answer.reset"]
    assert frames[2]["code"] == "resumed" and frames[3]["text"] == ""
    assert shown_answer(frames) == "明天上午你有两节课。"
    assert [frame["type"] for frame in frames].count("turn.done") == 1
    assert Message.objects.filter(turn_id=turn_id, role="assistant").count() == 1
    assert is_free(conversation)


def test_a_turn_whose_worker_died_after_its_turn_done_is_only_released(fake_llm, user):
    conversation = make_conversation(user)
    turn_id = handed_off(conversation, lease_left=-1)
    TimelineEvent.objects.create(conversation=conversation, seq=1, type="turn.done", turn_id=turn_id,
                                 payload={"outcome": "completed", "message_id": None})

    assert turns_sweep() == {"resent": 1}
    assert embedded_turns.join(timeout=20)

    assert types(turn_frames(conversation, turn_id)) == ["turn.done"]  # nothing answered or sent again
    assert fake_llm.requests == [] and is_free(conversation)


def test_after_its_last_attempt_a_dead_turn_ends_with_an_error_the_student_sees(user):
    conversation = make_conversation(user)
    turn_id = handed_off(conversation, attempts=3, lease_left=-1, language="zh-hans")

    assert turns_sweep() == {"ended": 1}
    assert turns_sweep() == {}  # once: a second sweep finds nothing to do

    frames = turn_frames(conversation, turn_id)
    assert types(frames) == ["error", "turn.done"]
    assert frames[0]["code"] == "turn_lost" and frames[0]["message"] == "助手还没来得及回答就停下了，请重新发送你的消息。"
    assert frames[1]["outcome"] == "failed"
    assert is_free(conversation)


def test_the_next_message_ends_a_dead_turn_at_once_instead_of_answering_busy(fake_llm, user):
    fake_llm.script(route("reply"), reply("好的"))
    conversation = make_conversation(user)
    dead = handed_off(conversation, attempts=3, lease_left=-1)

    started = turn_start(user=user, conversation_id=conversation.pk, text="还在吗？")
    assert embedded_turns.join(timeout=20)

    assert types(turn_frames(conversation, dead)) == ["error", "turn.done"]
    assert turn_frames(conversation, started.turn_id)[-1]["outcome"] == "completed"


def test_the_next_message_waits_while_a_dead_turn_is_resumed(fake_llm, user):
    fake_llm.script(route("reply"), reply("接着说"))
    conversation = make_conversation(user)
    dead = handed_off(conversation, attempts=1, lease_left=-1)

    with pytest.raises(TurnBusyError):
        turn_start(user=user, conversation_id=conversation.pk, text="还在吗？")
    assert embedded_turns.join(timeout=20)

    assert turn_frames(conversation, dead)[-1]["outcome"] == "completed"
    assert is_free(conversation)


# --- every way a turn dies -----------------------------------------------------------------------------


@contextmanager
def signal_after(seconds: float, exception: BaseException) -> Iterator[None]:
    """Raise ``exception`` in this (the main) thread after ``seconds``, as a signal handler does when a
    worker is told to stop (SIGTERM -> SystemExit, SIGINT -> KeyboardInterrupt, SIGUSR1 -> soft limit)."""
    def handler(signum, frame):
        raise exception

    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize(("death", "code", "reraised"), [
    (SystemExit(1), "turn_interrupted", True),
    (KeyboardInterrupt(), "turn_interrupted", True),
    (SoftTimeLimitExceeded(), "turn_timeout", False),
], ids=["SystemExit", "KeyboardInterrupt", "soft-time-limit"])
def test_a_turn_stopped_with_its_process_ends_with_an_error_and_turn_done(fake_llm, user, death, code, reraised):
    # A signal that lands inside a finalizer is swallowed by Python ("Exception ignored in ...") and the
    # turn simply finishes; that says nothing about our handling, so such a try is made again.
    # By rule, not by script: a try stopped during the router call leaves no reply queued for the next.
    fake_llm.set_responder(lambda request: reply("一二三四五六七八九十" * 5, chunk_delay=0.1) if request.stream
                           else route("reply"))
    for _try in range(3):
        conversation = make_conversation(user)
        turn_id = handed_off(conversation)
        with signal_after(0.6, death):
            try:
                turn_run(conversation_id=conversation.pk, turn_id=turn_id, language="en")
            except type(death):
                assert reraised, "only a process being stopped goes on up after the turn is closed"
        frames = turn_frames(conversation, turn_id)
        if frames[-1]["outcome"] != "completed":
            break

    assert types(frames)[-2:] == ["error", "turn.done"], types(frames)
    assert frames[-2]["code"] == code and frames[-1]["outcome"] == "failed"
    assert is_free(conversation)
    # The outcome is recorded (the stored turn.done): a later delivery of the same turn does nothing.
    assert not Checkpoint.objects.filter(conversation=conversation, turn_id=turn_id).exclude(phase="failed").exists()
    turn_run(conversation_id=conversation.pk, turn_id=turn_id, language="en")
    assert turn_frames(conversation, turn_id) == frames


# --- the conversation's state, as the page asks for it ----------------------------------------------------

STATE = "/api/v1/agent/conversations/{}/state/"


def test_the_state_ends_a_dead_turn_first_and_then_says_nothing_runs(auth_client, user):
    conversation = make_conversation(user)
    turn_id = handed_off(conversation, attempts=3, lease_left=-5)

    body = auth_client.get(STATE.format(conversation.pk)).json()

    assert body == {"running": False, "turn_id": None, "last_seq": 2}
    assert types(turn_frames(conversation, turn_id)) == ["error", "turn.done"]


def test_the_state_of_a_live_turn_says_it_runs(auth_client, user):
    conversation = make_conversation(user)
    turn_id = handed_off(conversation, lease_left=20)

    assert auth_client.get(STATE.format(conversation.pk)).json() == {"running": True, "turn_id": turn_id,
                                                                     "last_seq": 0}


def test_another_students_conversation_state_is_not_found(auth_client, other_user):
    conversation = make_conversation(other_user)
    handed_off(conversation, attempts=3, lease_left=-5)

    response = auth_client.get(STATE.format(conversation.pk))

    assert response.status_code == 404 and response.json()["code"] == "conversation_not_found"
    assert Conversation.objects.get(pk=conversation.pk).running_turn_id is not None  # untouched


def test_beat_runs_the_turn_sweep_on_the_default_queue_and_it_rescues_turns(settings, user):
    from agent.tasks import sweep_turns

    entry = settings.CELERY_BEAT_SCHEDULE["agent-turn-sweep"]
    assert entry["task"] == sweep_turns.name == "agent.sweep_turns"
    # Not the agent queue: that may be full of the very turns the sweep has to rescue.
    assert entry["options"]["queue"] == "default" and entry["schedule"] == settings.AGENT_TURN_SWEEP_INTERVAL
    conversation = make_conversation(user)
    handed_off(conversation, attempts=3, lease_left=-5)

    assert sweep_turns.run() == {"ended": 1}  # the task body, as a worker runs it
    assert is_free(conversation)


# --- quota held by a dead attempt ----------------------------------------------------------------------


def test_a_dead_attempts_open_reservation_goes_back_when_the_turn_is_taken_over(user, fake_llm):
    from accounts.tests.factories import UserFactory
    from agent.services.reservations import turn_reservation_open
    from agent.turn_services import DjangoTurnServices

    # What the same question costs a student whose turn never failed.
    other = UserFactory()
    reference = make_conversation(other)
    fake_llm.script(route("reply"), reply("在的。"))
    turn_run(conversation_id=reference.pk, turn_id=handed_off(reference), language="zh-hans")
    paid_once = User_usage(other)
    assert paid_once > 0

    conversation = make_conversation(user)
    turn_id = handed_off(conversation, lease_left=-5)
    # The dead attempt reserved a call's quota and was killed before the call settled.
    services = DjangoTurnServices(user=user, conversation_id=conversation.pk, turn_id=turn_id)
    assert services.quota_reserve(3000) == 3000 == User_usage(user)
    assert Conversation.objects.get(pk=conversation.pk).turn_reserved_tokens == 3000

    fake_llm.script(route("reply"), reply("在的。"))
    turn_run(conversation_id=conversation.pk, turn_id=turn_id, language="zh-hans")

    # The new attempt gave the dead call's reservation back and paid for its own calls only.
    row = Conversation.objects.get(pk=conversation.pk)
    assert row.turn_reserved_tokens == 0 and row.running_turn_id is None
    assert abs(User_usage(user) - paid_once) <= 50  # the same calls; prompts differ only by the name
    turn_reservation_open(conversation_id=conversation.pk, turn_id=turn_id, tokens=10)  # the turn is over
    assert Conversation.objects.get(pk=conversation.pk).turn_reserved_tokens == 0


def test_the_sweeper_ending_a_stalled_turn_gives_its_open_reservation_back(user, settings):
    from agent.turn_services import DjangoTurnServices

    settings.AGENT_TURN_MAX_ATTEMPTS = 1
    conversation = make_conversation(user)
    turn_id = handed_off(conversation, lease_left=-60, attempts=1)
    DjangoTurnServices(user=user, conversation_id=conversation.pk, turn_id=turn_id).quota_reserve(2500)

    turns_sweep()

    assert is_free(conversation)
    assert Conversation.objects.get(pk=conversation.pk).turn_reserved_tokens == 0
    assert User_usage(user) == 0


def test_a_settled_call_leaves_nothing_open(user):
    from agent.turn_services import DjangoTurnServices

    conversation = make_conversation(user)
    turn_id = handed_off(conversation, lease_left=30)
    services = DjangoTurnServices(user=user, conversation_id=conversation.pk, turn_id=turn_id)
    reserved = services.quota_reserve(1200)
    services.quota_settle(reserved, 345)
    assert Conversation.objects.get(pk=conversation.pk).turn_reserved_tokens == 0
    assert User_usage(user) == 345


def User_usage(user) -> int:  # noqa: N802 - reads like the column it returns
    user.refresh_from_db(fields=["token_usage"])
    return int(user.token_usage)



@pytest.fixture
def busy_agent_queue(settings) -> Iterator[None]:
    """A real broker whose agent queue holds a message no worker has reached yet (workers behind)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("no broker configured: the queue backlog is read from Redis in the MariaDB + Redis CI pass")
    from smartmate.celery import app

    app.control.purge()
    app.send_task("agent.a_turn_queued_before", queue="agent")
    yield
    app.control.purge()


@pytest.mark.worker
def test_a_turn_waiting_behind_a_busy_agent_queue_is_not_ended_as_lost(user, busy_agent_queue, settings):
    from smartmate.celery import app
    from smartmate.platform.task_queue import queue_backlog

    conversation = make_conversation(user)
    handed_off(conversation, attempts=3, sent_ago=60)  # resent three times, never started: waiting
    assert queue_backlog("agent") == 1

    assert turns_sweep() == {"running": 1}
    assert Conversation.objects.get(pk=conversation.pk).running_turn_id is not None

    app.control.purge()  # the queue is empty and the turn still did not start: its messages are lost
    assert queue_backlog("agent") == 0
    assert turns_sweep() == {"ended": 1}
    assert is_free(conversation)


@pytest.mark.worker
def test_a_turn_waiting_longer_than_anyone_should_ends_even_behind_a_busy_queue(user, busy_agent_queue, settings):
    settings.AGENT_TURN_MAX_WAIT = 120
    conversation = make_conversation(user)
    handed_off(conversation, attempts=3, sent_ago=121)

    assert turns_sweep() == {"ended": 1}
    assert is_free(conversation)


def test_without_a_broker_the_backlog_is_unknown(settings):
    from smartmate.platform.task_queue import queue_backlog

    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert queue_backlog("agent") is None
