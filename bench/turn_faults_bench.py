"""Assistant turns under infrastructure faults: restart Redis, kill a worker mid-turn, restart MariaDB, stop beat.

    SVC_DIR=/tmp/C-svc REDIS_PORT=6391 MYSQL_PORT=3391 bash .ci/services.sh     # services of its own
    DATABASE_URL=mysql://smartmate:smartmate@127.0.0.1:3391/smartmate REDIS_URL=redis://127.0.0.1:6391/0 \\
    SVC_DIR=/tmp/C-svc python -m bench.turn_faults_bench [--students 10] [--phase-seconds 40] \\
        [--faults baseline,redis,worker,mariadb,beat]

It STOPS AND STARTS the Redis and MariaDB named by REDIS_URL / DATABASE_URL (their files in
SVC_DIR, as .ci/services.sh lays them out): never point it at services anybody else uses.

A fresh database (``<name>_bench``), a fake LLM in this process (answers stream in about two
seconds, so faults land mid-answer), two Celery workers (prefork, 2 processes each) and beat.
N students chat through the turn service (as the websocket does), each asking its next question
once the last one ended. Each phase asks for ``--phase-seconds`` with its fault 5 s in, then waits
for every open question. For each phase it prints:

- asked / answered (the whole answer, shown once) / errored (an ``error`` + ``turn.done`` the
  student saw) / lost (no ``turn.done`` within 120 s);
- the longest time a conversation stayed busy after its question (students wait as the chat page
  does: after 30 s without an event they ask for the conversation's state);
- duplicate ``turn.done``, answers shown twice (the page's rendering: deltas, ``answer.reset``),
  and extra model calls beyond the two a turn needs: the call a fault cut off is made again. The
  operator pays for it; the student's quota is charged only for calls that finished (a call cut off
  mid-stream reports no usage), so a student pays twice only if a process dies in the moment between
  a call's end and the checkpoint after it.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

from bench.harness import bench_database, django_setup_for_bench

REPO_ROOT = Path(__file__).resolve().parent.parent
LOST_AFTER = 120.0
SILENT_TURN = 30.0  # the chat page asks for the conversation's state after this long without an event
FAULT_AT = 5.0
ANSWER_CHUNKS = 24  # pieces of 4 characters, 0.08 s apart: about two seconds of streaming


def answer_for(question: str) -> str:
    """The answer the fake model streams for ``question`` (so each turn's right answer is known)."""
    return f"关于「{question}」：" + "明天上午八点高数，十点英语。" * 6


# --- services and processes ------------------------------------------------------------------------


class Services:
    """Stop and start this run's own Redis and MariaDB (laid out by .ci/services.sh in SVC_DIR)."""

    def __init__(self) -> None:
        self.dir = Path(os.environ.get("SVC_DIR", "/tmp/smartmate-services"))
        self.redis_port = urlsplit(os.environ["REDIS_URL"]).port or 6379
        self.mysql_port = urlsplit(os.environ["DATABASE_URL"]).port or 3306
        self.socket = self.dir / "mysqld.sock"

    def redis_stop(self) -> None:
        subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", str(self.redis_port), "shutdown", "nosave"],
                       capture_output=True, check=False)

    def redis_start(self) -> None:
        subprocess.run(["redis-server", "--bind", "127.0.0.1", "--port", str(self.redis_port), "--daemonize", "yes",
                        "--save", "", "--appendonly", "no", "--dir", str(self.dir),
                        "--pidfile", str(self.dir / "redis.pid"), "--logfile", str(self.dir / "redis.log")],
                       check=True, capture_output=True)
        _wait(lambda: b"PONG" in subprocess.run(["redis-cli", "-p", str(self.redis_port), "ping"],
                                                capture_output=True).stdout, 10)

    def mariadb_stop(self) -> None:
        subprocess.run(["mariadb-admin", f"--socket={self.socket}", "-uroot", "shutdown"], capture_output=True,
                       check=False)

    def mariadb_start(self) -> None:
        subprocess.Popen(
            ["mariadbd", "--no-defaults", "--user=root", f"--datadir={self.dir / 'mysql'}", f"--socket={self.socket}",
             f"--port={self.mysql_port}", "--bind-address=127.0.0.1", "--skip-name-resolve", "--max-connections=500",
             f"--pid-file={self.dir / 'mysqld.pid'}", f"--log-error={self.dir / 'mysqld.err'}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        _wait(lambda: subprocess.run(["mariadb-admin", f"--socket={self.socket}", "-uroot", "ping"],
                                     capture_output=True).returncode == 0, 60)


def _wait(condition: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError("a service did not come back")
        time.sleep(0.2)


class Fleet:
    """Two Celery workers and beat on the bench database."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env, self.logs = env, logs
        self.workers: list[subprocess.Popen] = []
        self.beat: subprocess.Popen | None = None

    def _celery(self, *args: str, name: str) -> subprocess.Popen:
        log = open(self.logs / f"{name}.log", "ab")  # the child keeps writing to it
        return subprocess.Popen([sys.executable, "-m", "celery", "-A", "smartmate", *args, "--loglevel=WARNING"],
                                cwd=REPO_ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)

    def worker_start(self) -> None:
        number = len(self.workers)
        self.workers.append(self._celery("worker", "--pool=prefork", "--concurrency=2", "-Q", "default,agent,memory",
                                         "--without-gossip", "--without-mingle", "-n", f"fault{number}-{uuid.uuid4().hex[:6]}@%h",
                                         name=f"worker{number}"))

    def worker_kill(self) -> None:
        """SIGKILL the first worker and its pool processes at once, mid-turn."""
        victim = self.workers.pop(0)
        children = subprocess.run(["pgrep", "-P", str(victim.pid)], capture_output=True, text=True).stdout.split()
        for pid in [victim.pid, *map(int, children)]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        victim.wait()

    def beat_start(self) -> None:
        self.beat = self._celery("beat", "-s", str(self.logs / "beat-schedule"), name="beat")

    def beat_stop(self) -> None:
        if self.beat is not None:
            self.beat.terminate()
            self.beat.wait(timeout=30)
            self.beat = None

    def stop(self) -> None:
        self.beat_stop()
        for worker in self.workers:
            worker.terminate()
        for worker in self.workers:
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()


# --- students ----------------------------------------------------------------------------------------


@dataclass
class Question:
    conversation_id: int
    text: str
    turn_id: str
    asked: float
    freed: float | None = None
    outcome: str = ""


@dataclass
class Phase:
    name: str
    questions: list[Question] = field(default_factory=list)
    refused: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def student_loop(user: Any, conversation_id: int, phase: Phase, stop: threading.Event) -> None:
    """Ask, wait for the end (or LOST_AFTER), ask again, until ``stop``; through every fault."""
    from django.db import connection

    from agent.services.turns import turn_start

    number = 0
    while not stop.is_set():
        number += 1
        text = f"{user.username} {phase.name}第{number}问：明天有什么课？"
        try:
            started = turn_start(user=user, conversation_id=conversation_id, text=text, language="zh-hans")
        except Exception:  # noqa: BLE001 - busy, database down, ...: the page shows an error; try again
            with phase.lock:
                phase.refused += 1
            connection.close()
            time.sleep(1)
            continue
        question = Question(conversation_id, text, started.turn_id, time.monotonic())
        with phase.lock:
            phase.questions.append(question)
        wait_for_end(question)
    connection.close()


def wait_for_end(question: Question) -> None:
    """Wait as the chat page does: watch the turn's events, and ask for the conversation's state when
    the turn has been silent for SILENT_TURN seconds (GET …/state/, which rescues a dead turn)."""
    from django.db import DatabaseError, connection

    from agent.models import Conversation, TimelineEvent

    last_event, last_change = 0, time.monotonic()
    while time.monotonic() - question.asked < LOST_AFTER:
        try:
            events = TimelineEvent.objects.filter(turn_id=question.turn_id)
            done = events.filter(type="turn.done").values_list("payload", flat=True).first()
            free = not Conversation.objects.filter(pk=question.conversation_id,
                                                   running_turn_id=question.turn_id).exists()
            newest = events.order_by("-seq").values_list("seq", flat=True).first() or 0
            if newest != last_event:
                last_event, last_change = newest, time.monotonic()
            elif time.monotonic() - last_change > SILENT_TURN:
                page_asks_for_state(question.conversation_id)
                last_change = time.monotonic()
        except DatabaseError:
            connection.close()
            time.sleep(0.5)
            continue
        if done is not None and free:
            question.outcome, question.freed = done["outcome"], time.monotonic()
            return
        time.sleep(0.2)
    question.outcome = "lost"


def page_asks_for_state(conversation_id: int) -> None:
    """What the page's state request does on the server (a version without it has nothing to ask)."""
    try:
        from agent.services.recovery import turn_recover
    except ImportError:
        return
    turn_recover(conversation_id=conversation_id)


# --- the run -------------------------------------------------------------------------------------------


def run_phase(name: str, fault: Callable[[], None], students: list[tuple[Any, int]], seconds: float) -> Phase:
    phase, stop = Phase(name), threading.Event()
    threads = [threading.Thread(target=student_loop, args=(user, conversation_id, phase, stop), daemon=True)
               for user, conversation_id in students]
    for thread in threads:
        thread.start()
    time.sleep(FAULT_AT)
    fault()
    time.sleep(max(0.0, seconds - FAULT_AT))
    stop.set()
    for thread in threads:
        thread.join(LOST_AFTER + 30)
    return phase


def report(phase: Phase, fake: Any) -> str:
    from django.db import connection

    from agent.models import Message, TimelineEvent

    connection.close()  # this thread's connection may predate a database restart

    calls: dict[str, int] = {}
    for request in fake.requests:
        users = [m for m in request.messages if m.get("role") == "user"]
        if users:
            key = str(users[-1].get("content"))
            calls[key] = calls.get(key, 0) + 1
    answered = errored = lost = duplicates = twice = extra = 0
    busiest = 0.0
    for question in phase.questions:
        frames = list(TimelineEvent.objects.filter(turn_id=question.turn_id).order_by("seq").values("type", "payload"))
        done = [frame for frame in frames if frame["type"] == "turn.done"]
        duplicates += max(0, len(done) - 1)
        shown = ""
        for frame in frames:
            if frame["type"] == "assistant.delta":
                shown += frame["payload"]["text"]
            elif frame["type"] == "answer.reset":
                shown = frame["payload"]["text"]
        stored = Message.objects.filter(turn_id=question.turn_id, role="assistant").values_list("content", flat=True)
        if question.outcome == "completed" and list(stored) == [answer_for(question.text)] == [shown]:
            answered += 1
        elif question.outcome == "lost":
            lost += 1
        else:
            errored += 1
        twice += int(answer_for(question.text) * 2 in shown or shown.count(answer_for(question.text)[:12]) > 1)
        extra += max(0, sum(count for text, count in calls.items() if question.text in text) - 2)
        busiest = max(busiest, (question.freed or time.monotonic()) - question.asked)
    return (f"{phase.name:<9} {len(phase.questions):>5} {answered:>8} {errored:>7} {lost:>4} {phase.refused:>7} "
            f"{busiest:>10.1f} {duplicates:>12} {twice:>11} {extra:>11}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=10)
    parser.add_argument("--phase-seconds", type=float, default=40.0)
    parser.add_argument("--faults", default="baseline,redis,worker,mariadb,beat")
    args = parser.parse_args(argv)
    if not os.environ.get("REDIS_URL") or not os.environ.get("DATABASE_URL", "").startswith("mysql"):
        print("error: set DATABASE_URL (MariaDB) and REDIS_URL to services this run may restart", file=sys.stderr)
        return 1

    from bench.fake_model import FakeLLMServer

    fake = FakeLLMServer().start()

    def responder(request: Any) -> dict[str, Any]:
        if not request.stream:  # the router
            return {"text": '{"route": "reply", "reason": "bench"}'}
        question = str([m for m in request.messages if m.get("role") == "user"][-1].get("content"))
        return {"text": answer_for(question), "chunk_delay": 2.0 / ANSWER_CHUNKS}

    fake.set_responder(responder)
    env = {"LLM_BASE_URL": fake.base_url, "LLM_API_KEY": "bench", "AGENT_AUTO_TITLES": "false",
           "MEMORY_ENABLED": "false"}
    django_setup_for_bench(**env)
    from accounts.models import User
    from accounts.tests.factories import UserFactory
    from agent.tests.factories import make_conversation

    services = Services()
    logs = Path(os.environ.get("SVC_DIR", "/tmp")) / "turn-faults-logs"
    logs.mkdir(parents=True, exist_ok=True)
    with bench_database() as database_name:
        fleet = Fleet({**os.environ, **env, "DATABASE_NAME_OVERRIDE": database_name}, logs)
        fleet.worker_start()
        fleet.worker_start()
        fleet.beat_start()
        time.sleep(5)
        def fresh_students() -> list[tuple[Any, int]]:
            """New students for each phase: a conversation an earlier fault left locked must not count again."""
            students = []
            for number in range(args.students):
                user = cast(User, UserFactory(username=f"fault{number}-{uuid.uuid4().hex[:6]}"))
                students.append((user, make_conversation(user).pk))
            return students

        def redis_restart() -> None:
            services.redis_stop()
            time.sleep(12)
            services.redis_start()

        def worker_kill() -> None:
            fleet.worker_kill()
            time.sleep(3)
            fleet.worker_start()

        def mariadb_restart() -> None:
            services.mariadb_stop()
            time.sleep(10)
            services.mariadb_start()

        def beat_down_with_a_worker_kill() -> None:
            fleet.beat_stop()
            worker_kill()
            time.sleep(45)
            fleet.beat_start()

        faults = {"baseline": lambda: None, "redis": redis_restart, "worker": worker_kill,
                  "mariadb": mariadb_restart, "beat": beat_down_with_a_worker_kill}
        print("fault     asked answered errored lost refused busy_max_s dup_turn_done shown_twice extra_calls")
        try:
            for name in args.faults.split(","):
                phase = run_phase(name, faults[name], fresh_students(), args.phase_seconds)
                print(report(phase, fake), flush=True)
        finally:
            fleet.stop()
            fake.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
