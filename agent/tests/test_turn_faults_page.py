"""The chat page while the services under it fail, in Chromium against Redis + Celery + beat.

A stack of its own: a Redis this test may restart (never the one other tests share), a daphne child,
a prefork Celery worker and beat (sweeping turns every second), all on the test database, and the
fake model in this process, which streams each answer slowly so that faults land mid-answer. Leases
are short (4 s; 30 s in production), so "within a minute" in production is seconds here.

- Redis restarts while an answer streams: the answer finishes, or the page shows an error; either
  way Send comes back, and the next message is answered.
- The worker is killed while an answer streams: a new worker (or the sweeper) takes the turn over and
  the page shows the whole answer once; Send comes back; the next message is answered.

Runs in the MariaDB + Redis CI pass (it needs a broker and the ``redis-server`` binary).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from playwright.sync_api import expect

from accounts.tests.factories import UserFactory
from bench.fake_model import FakeLLMServer, RecordedRequest
from smartmate.tests.live_server import REPO_ROOT, daphne_serving, log_in
from smartmate.tests.own_redis import OwnRedis

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ANSWERS = {
    "明天有什么课？": "明天上午八点有高等数学，十点有大学英语，下午两点到四点没有课，可以复习线性代数。",
    "谢谢": "不客气，复习加油！",
    "后天呢？": "后天上午没有课，下午两点有大学物理实验，记得带上实验报告。",
}
CHUNK_DELAY = 0.2  # seconds between the streamed pieces: an answer takes about 8 s


@dataclass
class Stack:
    base_url: str
    redis: OwnRedis
    env: dict[str, str]
    logs: Path
    worker: subprocess.Popen | None = None
    beat: subprocess.Popen | None = None

    def celery(self, *args: str, name: str) -> subprocess.Popen:
        log = open(self.logs / f"{name}.log", "ab")  # the child writes to it for its whole life
        return subprocess.Popen([sys.executable, "-m", "celery", "-A", "smartmate", *args, "--loglevel=INFO"],
                                cwd=REPO_ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)

    def worker_start(self) -> None:
        self.worker = self.celery("worker", "--pool=prefork", "--concurrency=2", "-Q", "default,agent,memory",
                                  "--without-gossip", "--without-mingle", "-n", f"page-{time.monotonic_ns()}@%h",
                                  name="worker")

    def worker_kill(self) -> None:
        """SIGKILL the worker and its pool processes at once, as a crashed host would."""
        assert self.worker is not None
        children = subprocess.run(["pgrep", "-P", str(self.worker.pid)], capture_output=True, text=True).stdout.split()
        for pid in [self.worker.pid, *map(int, children)]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.worker.wait()
        self.worker = None

    def stop(self) -> None:
        for process in (self.beat, self.worker):
            if process is not None:
                process.terminate()
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()


def _answer(request: RecordedRequest) -> dict[str, Any]:
    """The router gets a reply route; the answer streams slowly, so faults land mid-answer."""
    if not request.stream:
        return {"text": '{"route": "reply", "reason": "page fault test"}'}
    question = str([m for m in request.messages if m.get("role") == "user"][-1].get("content"))
    text = ANSWERS.get(question.strip(), "好的。")
    return {"text": text, "chunk_delay": CHUNK_DELAY}


@pytest.fixture
def stack(settings, tmp_path) -> Iterator[Stack]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("no broker configured: the page fault test runs in the MariaDB + Redis CI pass")
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    redis = OwnRedis(tmp_path)
    redis.start()
    fake = FakeLLMServer().start()
    fake.set_responder(_answer)
    env = {**os.environ, "DATABASE_NAME_OVERRIDE": str(connection.settings_dict["NAME"]),
           "REDIS_URL": redis.url, "CELERY_BROKER_URL": redis.url, "CELERY_RESULT_BACKEND": redis.url,
           "LLM_BASE_URL": fake.base_url, "LLM_API_KEY": "test", "LLM_RETRY_BACKOFF_SECONDS": "0.01",
           "AGENT_TURN_LEASE": "4", "AGENT_TURN_HEARTBEAT": "1", "AGENT_TURN_RESEND_AFTER": "2",
           "AGENT_TURN_SWEEP_INTERVAL": "1", "AGENT_AUTO_TITLES": "false", "MEMORY_ENABLED": "false",
           "SMARTMATE_WARM_START": "0"}
    try:
        with daphne_serving(env["DATABASE_NAME_OVERRIDE"], tmp_path / "daphne.log", env) as base_url:
            running = Stack(base_url=base_url, redis=redis, env=env, logs=tmp_path)
            running.worker_start()
            running.beat = running.celery("beat", "-s", str(tmp_path / "beat-schedule"), name="beat")
            try:
                yield running
            finally:
                running.stop()
    finally:
        fake.stop()
        redis.stop()


def _open_chat(page, base_url: str, username: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.set_default_timeout(60_000)
    page.base_url = base_url
    log_in(page, username)
    page.goto(f"{base_url}/assistant/")


def _ask(page, text: str) -> None:
    page.fill("[data-test=chat-input]", text)
    page.click("[data-test=chat-send]")


def _answer_streaming(page) -> None:
    """Wait until the answer has begun to stream on the page."""
    expect(page.locator("[data-test=chat-answer]").last).not_to_be_empty(timeout=60_000)


def _settled(page, question: str) -> str:
    """Wait (up to a minute) until the page shows the whole answer or an error and Send is back; say which."""
    answer, error = page.locator("[data-test=chat-answer]").last, page.locator("[data-test=chat-turn-error]")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if error.count() and error.last.is_visible():
            outcome = "error"
            break
        if (answer.text_content() or "").strip() == ANSWERS[question]:
            outcome = "answered"
            break
        time.sleep(0.25)
    else:
        raise AssertionError(f"no answer and no error within a minute; the page shows {answer.text_content()!r}")
    expect(page.locator("[data-test=chat-send]")).to_be_enabled(timeout=60_000)
    return outcome


def test_redis_restarts_while_an_answer_streams_then_the_next_message_is_answered(stack, page):
    student = UserFactory()
    _open_chat(page, stack.base_url, student.username)
    _ask(page, "明天有什么课？")
    _answer_streaming(page)

    stack.redis.stop()
    time.sleep(3)
    stack.redis.start()

    assert _settled(page, "明天有什么课？") in {"answered", "error"}
    _ask(page, "谢谢")
    expect(page.locator("[data-test=chat-answer]").last).to_have_text(ANSWERS["谢谢"], timeout=60_000)
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()


def test_the_worker_is_killed_while_an_answer_streams_and_the_answer_arrives_once(stack, page):
    student = UserFactory()
    _open_chat(page, stack.base_url, student.username)
    _ask(page, "后天呢？")
    _answer_streaming(page)

    stack.worker_kill()
    stack.worker_start()

    assert _settled(page, "后天呢？") == "answered"
    # Shown once: the page dropped the part streamed before the kill (answer.reset) and shows one answer.
    answers = page.locator("[data-test=chat-answer]")
    expect(answers).to_have_count(1)
    _ask(page, "谢谢")
    expect(answers.last).to_have_text(ANSWERS["谢谢"], timeout=60_000)
    expect(page.locator("[data-test=chat-send]")).to_be_enabled()
