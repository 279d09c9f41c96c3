"""Fault test (MariaDB + Redis CI pass): a real Celery worker killed mid-turn, a turn message lost in Redis.

Each question must get its whole answer, shown once, within seconds of the fault (leases of 3 s
here; 30 s in production, so "within a minute" there), with one ``turn.done`` and one stored answer,
and the conversation must be free afterwards. The sweeper runs here as beat would run it.
The longer run with Redis and MariaDB restarts is ``bench/turn_faults_bench.py``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator

import pytest
from django.db import connection

from agent.models import Conversation, Message, TimelineEvent
from agent.services.recovery import turns_sweep
from agent.services.turns import turn_start
from agent.tests.factories import make_conversation, reply, route, shown_answer, timeline
from smartmate.tests.worker import worker_start, worker_stop

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ANSWER = "明天上午八点有高数，十点有英语，下午两点到四点可以复习线性代数。" * 2
LEASE = 3  # seconds; the worker renews it every second


@pytest.fixture
def fault_env(fake_llm, settings, monkeypatch, tmp_path) -> Iterator[dict]:
    """Short leases for this test process (the sweeper) and for the workers it starts (the heartbeat)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("no broker configured: the fault test runs in the MariaDB + Redis CI pass")
    from smartmate.celery import app

    worker_env = {"AGENT_TURN_LEASE": str(LEASE), "AGENT_TURN_HEARTBEAT": "1", "AGENT_TURN_RESEND_AFTER": "2",
                  "LLM_BASE_URL": fake_llm.base_url, "LLM_API_KEY": "test", "LLM_RETRY_BACKOFF_SECONDS": "0.01",
                  "AGENT_AUTO_TITLES": "false", "MEMORY_ENABLED": "false"}
    for name, value in worker_env.items():
        monkeypatch.setenv(name, value)
    settings.AGENT_TURN_LEASE, settings.AGENT_TURN_HEARTBEAT, settings.AGENT_TURN_RESEND_AFTER = LEASE, 1, 2
    app.control.purge()
    yield {"log": tmp_path / "worker.log"}
    app.control.purge()


def start_worker(log_path) -> subprocess.Popen:
    with open(log_path, "ab") as log:
        return worker_start(log=log, database_name=str(connection.settings_dict["NAME"]), pool="prefork")


def frames_of(conversation: Conversation, turn_id: str) -> list[dict]:
    return [frame for frame in timeline(conversation) if frame["turn_id"] == turn_id]



def wait_for(condition, *, seconds: float, sweep: bool = False) -> float:
    """Wait until ``condition()``; run the sweeper every half second when ``sweep``; return the time taken."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > seconds:
            raise AssertionError(f"not within {seconds} s")
        if sweep:
            turns_sweep()
        time.sleep(0.5 if sweep else 0.05)
    return time.monotonic() - started


def finished(conversation: Conversation, turn_id: str) -> bool:
    return TimelineEvent.objects.filter(conversation=conversation, turn_id=turn_id, type="turn.done").exists()


def assert_answered_once(conversation: Conversation, turn_id: str) -> None:
    frames = frames_of(conversation, turn_id)
    assert [frame["type"] for frame in frames].count("turn.done") == 1
    assert frames[-1]["type"] == "turn.done" and frames[-1]["outcome"] == "completed"
    assert shown_answer(frames) == ANSWER
    assert Message.objects.filter(turn_id=turn_id, role="assistant").get().content == ANSWER
    assert Conversation.objects.get(pk=conversation.pk).running_turn_id is None


def test_a_worker_killed_mid_answer_is_replaced_and_the_answer_arrives_once(fault_env, fake_llm, user):
    # The first attempt streams slowly and dies part-way; the resumed one routes and answers again.
    fake_llm.script(route("reply"), reply(ANSWER, chunk_delay=0.1), route("reply"), reply(ANSWER))
    conversation = make_conversation(user)
    worker = start_worker(fault_env["log"])
    try:
        started = turn_start(user=user, conversation_id=conversation.pk, text="明天有什么课？")
        wait_for(lambda: TimelineEvent.objects.filter(turn_id=started.turn_id, type="assistant.delta").count() >= 3,
                 seconds=30)
        _kill_tree(worker)
        worker = start_worker(fault_env["log"])
        took = wait_for(lambda: finished(conversation, started.turn_id), seconds=30, sweep=True)
    finally:
        worker_stop(worker)

    assert took < 15
    assert_answered_once(conversation, started.turn_id)
    frames = frames_of(conversation, started.turn_id)
    assert "answer.reset" in [frame["type"] for frame in frames]


def test_a_turn_message_lost_in_redis_is_sent_again_and_answered(fault_env, fake_llm, user):
    from smartmate.celery import app

    fake_llm.script(route("reply"), reply(ANSWER))
    conversation = make_conversation(user)
    started = turn_start(user=user, conversation_id=conversation.pk, text="明天有什么课？")
    app.control.purge()  # the message is gone, as when Redis restarts empty
    worker = start_worker(fault_env["log"])
    try:
        took = wait_for(lambda: finished(conversation, started.turn_id), seconds=30, sweep=True)
    finally:
        worker_stop(worker)

    assert took < 15
    assert_answered_once(conversation, started.turn_id)


def _kill_tree(process: subprocess.Popen) -> None:
    """SIGKILL a prefork worker and its pool children at once, as the OOM killer or a crashed host would."""
    children = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
    for pid in [process.pid, *map(int, children)]:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    process.wait()
