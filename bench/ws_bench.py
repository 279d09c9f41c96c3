"""Load the assistant's websocket: N students connect at once, each sends a message and reads the streamed answer.

    python -m bench.ws_bench [--mode memory|redis] [--connections 500] [--servers 2] [--answer-chars 200]

Each student (created in a fresh benchmark database, see ``bench.turns_bench.bench_database``) gets a
single-use ticket, opens ``/ws/agent/?ticket=…``, and waits until every socket is open; then all
send one ``chat.send`` into their own conversation at once and read events until ``turn.done``.
The model is the scripted fake (``bench.fake_model``) in a child process, answering every call
with the same fallback reply and no delay: a JSON route object (``{"route": "reply", …}``, padded to
``--answer-chars``) that the router accepts and the reply streams back in 4-character deltas.

``--mode memory``: one daphne process, in-memory channel layer, turns in threads of that process
(embedded mode). ``--mode redis``: ``--servers`` daphne processes (sockets dealt round-robin), the
Redis channel layer, and a Celery worker on the ``agent`` queue running the turns; needs
``REDIS_URL``. Either mode uses MySQL/MariaDB when ``DATABASE_URL`` is set, else SQLite.

Reported: connections made, errors (target 0: students who saw a refused or dropped socket, an error
frame or event, a gap in ``seq``, a turn not completed, or a timeout; then the problems by kind),
p50/p95 of the time from sending to the first event and to ``turn.done`` (in redis mode the first
event is sent when a worker takes the turn from the queue, so it includes the wait there), the wall
time from the first send to the last ``turn.done``, and the events per second received over it.
Everything listens and connects on 127.0.0.1 only, and every wait has a deadline (``--timeout``),
so the run ends by itself; children are stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.harness import bench_database, django_setup_for_bench, percentiles
from bench.topology.processes import HOST, free_port, start_fake_llm, stopping, wait_for_port

# Django (models, services, the Celery app) is imported inside functions: main() sets it up first.

REPO_ROOT = Path(__file__).resolve().parent.parent
MESSAGE = "明天下午我有什么课？"
CONNECT_CONCURRENCY = 64  # handshakes in flight at once; more only overflows daphne's listen backlog
# Variables that switch a child to real services; a memory-mode child must not inherit them.
SERVICE_VARIABLES = ("REDIS_URL", "CELERY_BROKER_URL", "REDIS_CACHE_URL", "CELERY_RESULT_BACKEND")


@dataclass(frozen=True)
class BenchConfig:
    """One run: how many sockets, which mode, how long the answer is, how long anything may take."""

    connections: int = 500
    mode: str = "memory"
    servers: int = 1
    answer_chars: int = 200
    timeout: float = 300.0
    worker_concurrency: int = 2
    worker_pool: str = "prefork"


@dataclass
class ClientResult:
    """What one simulated student saw."""

    connected: bool = False
    connect_seconds: float = 0.0
    first_event: float | None = None
    done: float | None = None
    events: int = 0
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Report:
    """The run's figures (milliseconds unless named otherwise)."""

    config: BenchConfig
    database: str
    connected: int
    completed: int
    failed: int
    events: int
    errors: Counter
    connect_ms: tuple[float, float]
    first_event_ms: tuple[float, float]
    done_ms: tuple[float, float]
    wall_seconds: float

    @property
    def error_count(self) -> int:
        """Return how many students saw at least one problem (``errors`` counts the problems by kind)."""
        return self.failed

    @property
    def events_per_second(self) -> float:
        return self.events / self.wall_seconds if self.wall_seconds > 0 else 0.0

    def lines(self) -> list[str]:
        """Render the report as printed."""
        config = self.config
        lines = [
            f"mode {config.mode}: {config.servers} daphne process(es), database {self.database}, "
            f"answer of {config.answer_chars} characters"
            + (f", Celery worker -Q agent --pool={config.worker_pool} -c {config.worker_concurrency}"
               if config.mode == "redis" else ", turns in threads of the server"),
            f"connections {self.connected}/{config.connections}, turns completed {self.completed}, "
            f"errors {self.error_count}" + (f" ({', '.join(f'{kind} x{n}' for kind, n in self.errors.most_common())})"
                                           if self.errors else ""),
            f"connect (ticket + handshake) p50 {self.connect_ms[0]:8.1f}  p95 {self.connect_ms[1]:8.1f}",
            f"send -> first event          p50 {self.first_event_ms[0]:8.1f}  p95 {self.first_event_ms[1]:8.1f}",
            f"send -> turn.done            p50 {self.done_ms[0]:8.1f}  p95 {self.done_ms[1]:8.1f}",
            f"wall {self.wall_seconds:.2f} s from the first send to the last turn.done, {self.events} events, "
            f"{self.events_per_second:.0f} events/s",
        ]
        return lines


# --- Children: fake model, daphne, Celery ---------------------------------------------------------------


def child_env(config: BenchConfig, database_name: str, llm_url: str, folder: Path) -> dict[str, str]:
    """Return the environment of the servers and workers: the benchmark database, the fake model, quiet logs."""
    env = dict(os.environ)
    if config.mode == "memory":
        for name in SERVICE_VARIABLES:
            env.pop(name, None)
    env.setdefault("MILVUS_URI", str(folder / "milvus.db"))  # not the developer's var/milvus.db
    env.update(DATABASE_NAME_OVERRIDE=database_name, LLM_BASE_URL=llm_url, LLM_API_KEY="bench",
               DJANGO_SETTINGS_MODULE="smartmate.settings", PYTHONUNBUFFERED="1")
    return env


def start_daphnes(stack: ExitStack, config: BenchConfig, env: dict[str, str], folder: Path) -> list[str]:
    """Start the daphne processes; return their ws:// base URLs."""
    started = []
    for index in range(config.servers):
        port = free_port()
        log = stack.enter_context(open(folder / f"daphne-{index}.log", "wb"))
        process = subprocess.Popen([sys.executable, "-m", "daphne", "-b", HOST, "-p", str(port),
                                    "smartmate.asgi:application"], cwd=REPO_ROOT, env=env, stdout=log,
                                   stderr=subprocess.STDOUT)
        stack.enter_context(stopping(process))
        started.append((port, process, folder / f"daphne-{index}.log"))
    for port, process, log_path in started:
        try:
            wait_for_port(port, process, timeout=60, what="daphne")
        except RuntimeError as exc:
            raise RuntimeError(f"{exc}\n--- {log_path} ---\n{log_path.read_text(errors='replace')[-3000:]}") from exc
    return [f"ws://{HOST}:{port}" for port, _process, _log in started]


def start_agent_worker(stack: ExitStack, config: BenchConfig, env: dict[str, str], folder: Path) -> None:
    """Start a Celery worker on the ``agent`` queue and wait until it answers a ping."""
    agent_worker_start(stack, env=env, log_path=folder / "worker.log", pool=config.worker_pool,
                       concurrency=config.worker_concurrency, name_prefix="bench-ws")


def agent_worker_start(stack: ExitStack, *, env: dict[str, str], log_path: Path, pool: str, concurrency: int,
                       name_prefix: str, launcher: Sequence[str] = ("-m", "celery")) -> subprocess.Popen:
    """Start a Celery worker on the ``agent`` queue (``launcher`` runs celery: plain or under a profiler),
    stopped with ``stack``; wait until it answers a ping and return it."""
    from smartmate.celery import app

    name = f"{name_prefix}-{secrets.token_hex(3)}@{socket.gethostname()}"
    log = stack.enter_context(open(log_path, "wb"))
    process = subprocess.Popen(
        [sys.executable, *launcher, "-A", "smartmate", "worker", "-Q", "agent", f"--pool={pool}",
         f"--concurrency={concurrency}", "--without-gossip", "--without-mingle", "--without-heartbeat",
         "--loglevel=WARNING", "-n", name], cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    stack.enter_context(stopping(process, grace=30))
    deadline = time.monotonic() + 60
    while not app.control.ping(destination=[name], timeout=0.5):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("The benchmark's Celery worker did not start:\n"
                               + log_path.read_text(errors="replace")[-3000:])
    return process


# --- Students -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Student:
    user_id: int
    conversation_id: int


def students_create(count: int) -> list[Student]:
    """Create ``count`` students with a semester and one empty conversation each (bulk: no password hashing)."""
    from datetime import date

    from accounts.models import User
    from agent.models import Conversation
    from schedule.models import CalendarSettings, default_section_times

    run = secrets.token_hex(3)
    users = User.objects.bulk_create([User(username=f"bench-{run}-{index}", password="!", token_limit=10_000_000)
                                      for index in range(count)])
    if any(user.pk is None for user in users):  # backends without RETURNING on bulk inserts
        users = list(User.objects.filter(username__startswith=f"bench-{run}-").order_by("id"))
    CalendarSettings.objects.bulk_create([
        CalendarSettings(user=user, semester_start=date(2026, 9, 7), semester_weeks=20,
                         section_times=default_section_times()) for user in users])
    Conversation.objects.bulk_create([Conversation(user=user) for user in users])
    by_user = dict(Conversation.objects.filter(user__in=users).values_list("user_id", "id"))
    return [Student(user_id=user.pk, conversation_id=by_user[user.pk]) for user in users]


def tickets_issue(students: Sequence[Student]) -> list[str]:
    """Issue one websocket ticket per student (they are valid for 60 s: call this just before connecting)."""
    from accounts.models import User
    from agent.services.tickets import ticket_create

    users = User.objects.in_bulk([student.user_id for student in students])
    return [ticket_create(user=users[student.user_id]).ticket for student in students]


# --- The load ---------------------------------------------------------------------------------------------


async def _student(url: str, ticket: str, conversation_id: int, result: ClientResult, *,
                   handshakes: asyncio.Semaphore, opened: asyncio.Event, opened_count: list[int], total: int,
                   go: asyncio.Event, deadline: float) -> None:
    from websockets.asyncio.client import connect

    def attempt_finished() -> None:
        opened_count[0] += 1
        if opened_count[0] == total:
            opened.set()

    origin = "http://" + url.split("://", 1)[1]
    started = time.perf_counter()
    try:
        async with handshakes:
            # proxy=None: never through an HTTP proxy from the environment, straight to loopback.
            socket_ = await connect(f"{url}/ws/agent/?ticket={ticket}", origin=origin,  # type: ignore[arg-type]
                                    proxy=None,
                                    open_timeout=60, ping_interval=None, close_timeout=5, max_size=2 ** 20)
    except Exception as exc:  # noqa: BLE001 - every failure is a figure of the report
        result.problems.append(f"connect failed: {type(exc).__name__}")
        attempt_finished()
        return
    result.connected, result.connect_seconds = True, time.perf_counter() - started
    attempt_finished()
    async with socket_:
        await go.wait()
        await _converse(socket_, conversation_id, result, deadline)


async def _converse(socket_: Any, conversation_id: int, result: ClientResult, deadline: float) -> None:
    from websockets.exceptions import ConnectionClosed

    sent = time.perf_counter()
    last_seq = None
    try:
        await socket_.send(json.dumps({"type": "chat.send", "conversation_id": conversation_id, "text": MESSAGE},
                                      ensure_ascii=False))
        while True:
            frame = json.loads(await asyncio.wait_for(socket_.recv(), timeout=max(0.01, deadline - time.monotonic())))
            if "seq" not in frame:  # an unstored error frame: the server refused the chat.send
                result.problems.append(f"error frame {frame.get('code')}")
                return
            now = time.perf_counter()
            if result.first_event is None:
                result.first_event = now - sent
            if last_seq is not None and frame["seq"] != last_seq + 1:
                result.problems.append("seq gap")
            last_seq = frame["seq"]
            result.events += 1
            if frame["type"] == "error":
                result.problems.append(f"error event {frame.get('code')}")
            if frame["type"] == "turn.done":
                result.done = now - sent
                if frame.get("outcome") != "completed":
                    result.problems.append(f"turn {frame.get('outcome')}")
                return
    except TimeoutError:
        result.problems.append("timeout waiting for turn.done")
    except ConnectionClosed as exc:
        result.problems.append(f"closed by the server ({exc.rcvd.code if exc.rcvd else 'no close frame'})")


async def _load(urls: Sequence[str], tickets: Sequence[str], students: Sequence[Student],
                timeout: float) -> tuple[list[ClientResult], float, float]:
    """Connect every student, then let all send at once; return results and the send/last-done times."""
    results = [ClientResult() for _ in students]
    handshakes, opened, go = asyncio.Semaphore(CONNECT_CONCURRENCY), asyncio.Event(), asyncio.Event()
    deadline, opened_count = time.monotonic() + timeout, [0]
    tasks = [asyncio.create_task(_student(urls[index % len(urls)], tickets[index], student.conversation_id,
                                          results[index], handshakes=handshakes, opened=opened,
                                          opened_count=opened_count, total=len(students), go=go,
                                          deadline=deadline))
             for index, student in enumerate(students)]
    return await _run_phases(tasks, results, opened, go, deadline)


async def _run_phases(tasks: list[asyncio.Task], results: list[ClientResult], opened: asyncio.Event,
                      go: asyncio.Event, deadline: float) -> tuple[list[ClientResult], float, float]:
    try:
        await asyncio.wait_for(opened.wait(), timeout=max(0.01, deadline - time.monotonic()))
    except TimeoutError:
        pass  # the stragglers count as connect failures below
    sending = time.perf_counter()
    go.set()
    await asyncio.wait(tasks, timeout=max(0.01, deadline - time.monotonic()) + 10)
    for task, result in zip(tasks, results):
        if not task.done():
            task.cancel()
            result.problems.append("timeout" if result.connected else "connect failed: timeout")
    await asyncio.gather(*tasks, return_exceptions=True)
    finished = max((sending + result.done for result in results if result.done is not None), default=sending)
    return results, sending, finished


# --- Whole run --------------------------------------------------------------------------------------------


def run_bench(config: BenchConfig, *, database_name: str, folder: Path) -> Report:
    """Start the children on ``database_name`` (Django is set up on it), run the load, stop them; return the report."""
    from django.db import connection

    students = students_create(config.connections)
    with ExitStack() as stack:
        llm_url = start_fake_llm(stack, folder, config.answer_chars)
        env = child_env(config, database_name, llm_url, folder)
        urls = start_daphnes(stack, config, env, folder)
        if config.mode == "redis":
            start_agent_worker(stack, config, env, folder)
        tickets = tickets_issue(students)
        connection.close()  # the clients never touch the database; don't hold a connection meanwhile
        results, sending, finished = asyncio.run(_load(urls, tickets, students, config.timeout))
    return _report(config, results, finished - sending)


def _report(config: BenchConfig, results: Sequence[ClientResult], wall: float) -> Report:
    from django.db import connection

    errors = Counter(problem for result in results for problem in result.problems)
    done = [result for result in results if result.done is not None and not result.problems]
    return Report(
        config=config, database=connection.vendor,
        connected=sum(result.connected for result in results), completed=len(done),
        failed=sum(bool(result.problems) for result in results),
        events=sum(result.events for result in results), errors=errors,
        connect_ms=percentiles([result.connect_seconds * 1000 for result in results if result.connected]),
        first_event_ms=percentiles([result.first_event * 1000 for result in results if result.first_event is not None]),
        done_ms=percentiles([result.done * 1000 for result in results if result.done is not None]),
        wall_seconds=wall)


def main(argv: list[str] | None = None) -> None:
    """Parse the options, set up a benchmark database, run, print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["memory", "redis"], default="memory")
    parser.add_argument("--connections", type=int, default=500)
    parser.add_argument("--servers", type=int, default=None, help="daphne processes (memory: 1; redis: default 2)")
    parser.add_argument("--answer-chars", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds the whole load may take")
    parser.add_argument("--worker-concurrency", type=int, default=2)
    parser.add_argument("--worker-pool", choices=["prefork", "threads", "solo"], default="prefork")
    parser.add_argument("--keep-logs", action="store_true", help="print the folder with the children's logs")
    args = parser.parse_args(argv)
    if args.mode == "memory" and args.servers not in (None, 1):
        parser.error("memory mode runs one server process: the in-memory layer cannot span two")
    if args.mode == "redis" and not os.environ.get("REDIS_URL"):
        parser.error("redis mode needs REDIS_URL (e.g. redis://127.0.0.1:6391/0)")
    config = BenchConfig(connections=args.connections, mode=args.mode, servers=args.servers or
                         (2 if args.mode == "redis" else 1), answer_chars=args.answer_chars, timeout=args.timeout,
                         worker_concurrency=args.worker_concurrency, worker_pool=args.worker_pool)
    if args.mode == "memory":
        for name in SERVICE_VARIABLES:
            os.environ.pop(name, None)
    django_setup_for_bench()
    folder = Path(tempfile.mkdtemp(prefix="smartmate-bench-ws-"))
    with bench_database() as database_name:
        report = run_bench(config, database_name=database_name, folder=folder)
    for line in report.lines():
        print(line)
    if args.keep_logs:
        print(f"children's logs: {folder}")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    if report.error_count:
        sys.exit(1)


if __name__ == "__main__":
    main()
