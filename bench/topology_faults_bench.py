"""Students chatting over websockets through the production topology while its parts fail, and /healthz.

    bash .ci/services.sh                       # MariaDB (and a Redis the bench does not touch)
    DATABASE_URL=mysql://smartmate:smartmate@127.0.0.1:3306/smartmate SVC_DIR=/tmp/smartmate-services \\
    python -m bench.topology_faults_bench [--students 8] [--phase-seconds 30] \\
        [--faults baseline,redis,worker,web,mariadb,beat]

The topology (``bench.topology``: nginx, two daphne processes, a worker per queue, beat; memory
extraction and conversation titles on) runs against a fresh ``<name>_bench`` database and a Redis of
the bench's own (restarting it disturbs nobody). The model is the scripted fake; an answer streams for
about two seconds, so faults land mid-answer. The MariaDB fault STOPS AND STARTS the server of
``SVC_DIR`` (as ``.ci/services.sh`` lays it out): never point it at a database anybody else uses.

Each student is a page: a websocket through nginx with a fresh ticket, ``chat.send`` with a
``client_message_id``; when the socket drops it reconnects (a new ticket, retried while the database is
down), follows its conversation again (``replay`` after the last ``seq`` it saw) and sends again what
was not acknowledged, as ``static/js/chat.js`` does. A question ends as

- answered: ``turn.done`` completed, with the whole answer;
- failed visibly: an ``error`` event or another outcome, with a Chinese message the page shows;
- lost: nothing within a minute of asking (the target is 0).

Meanwhile /healthz is asked through nginx twice a second. A phase runs ``--phase-seconds`` with its
fault 5 s in (Redis restart: 3 s down; agent worker SIGKILL, restarted 3 s later as a supervisor
would; one daphne SIGTERM and restart; MariaDB restart; beat stopped for the rest of the phase), then
waits for every open question. Printed per phase: asked / answered / failed visibly (and how many of
those messages were Chinese) / lost, the longest question, and /healthz: 200s, 503s while every
dependency was up (false alarms), answers that failed outright.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.harness import bench_database, django_setup_for_bench
from bench.turn_faults_bench import Services, answer_for
from smartmate.tests.own_redis import OwnRedis

LOST_AFTER = 60.0
FAULT_AT = 5.0
HEALTH_EVERY = 0.5
CHINESE = re.compile(r"[\u4e00-\u9fff]")


@dataclass
class Question:
    text: str
    client_id: str
    asked: float
    outcome: str = ""  # answered / failed / lost
    chinese: bool = True
    seconds: float = 0.0


@dataclass
class Phase:
    name: str
    questions: list[Question] = field(default_factory=list)
    health: list[tuple[float, int]] = field(default_factory=list)
    fault_window: tuple[float, float] = (0.0, 0.0)  # a dependency really down (or restarting) in between


# --- a student, as the chat page behaves ---------------------------------------------------------------


class Page:
    """One student's chat page: a socket that reconnects, follows, and resends what was not acknowledged."""

    def __init__(self, topology: Any, user: Any, conversation_id: int) -> None:
        self.topology, self.user, self.conversation_id = topology, user, conversation_id
        self.last_seq = 0
        self.socket: Any = None

    async def _ticket(self) -> str:
        from django.db import close_old_connections

        from agent.services.tickets import ticket_create

        def issue() -> str:
            close_old_connections()
            return ticket_create(user=self.user).ticket

        while True:
            try:
                return await asyncio.to_thread(issue)
            except Exception:  # noqa: BLE001 - the database is down: the page asks again
                await asyncio.sleep(1)

    async def connect(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.typing import Origin

        while True:
            url = self.topology.url.replace("http://", "ws://") + "/ws/agent/?ticket=" + await self._ticket()
            try:
                self.socket = await connect(url, origin=Origin(self.topology.url), proxy=None, open_timeout=15)
                await self.socket.send(json.dumps({"type": "replay", "conversation_id": self.conversation_id,
                                                   "after_seq": self.last_seq}))
                return
            except Exception:  # noqa: BLE001 - refused or cut while a part restarts: back off, try again
                await asyncio.sleep(1)

    async def ask(self, question: Question) -> None:
        """Send until acknowledged and read until this question's turn ends (or LOST_AFTER)."""
        frame = json.dumps({"type": "chat.send", "conversation_id": self.conversation_id, "text": question.text,
                            "client_message_id": question.client_id}, ensure_ascii=False)
        turn: str | None = None  # known once acknowledged; a replay may bring its events before the ack
        answers: dict[str, str] = {}
        ended: dict[str, str] = {}
        deadline = question.asked + LOST_AFTER
        while time.monotonic() < deadline:
            try:
                if turn is None:
                    await self.socket.send(frame)
                while time.monotonic() < deadline:
                    wait = 5.0 if turn is None else max(0.1, deadline - time.monotonic())
                    event = json.loads(await asyncio.wait_for(self.socket.recv(), timeout=wait))
                    turn = self._read(event, question, turn, answers, ended)
                    if turn is not None and turn in ended:
                        completed = ended[turn] == "completed" and answers.get(turn) == answer_for(question.text)
                        question.outcome = "answered" if completed else "failed"
                        return
                    if event.get("type") == "error" and "seq" not in event and turn is None:
                        await asyncio.sleep(1)  # refused (busy, limits, Redis down): the page offers to resend
                        break
            except TimeoutError:
                continue  # no ack within 5 s: send it again (same id; the server stores it once)
            except Exception:  # noqa: BLE001 - the socket dropped: reconnect, follow, resend
                await self.connect()
        question.outcome = "lost"

    def _read(self, event: dict, question: Question, turn: str | None, answers: dict[str, str],
              ended: dict[str, str]) -> str | None:
        """Take one event in as the page does; return this question's turn once acknowledged."""
        kind, turn_id = event.get("type"), event.get("turn_id", "")
        self.last_seq = max(self.last_seq, event.get("seq", 0))
        if kind == "chat.ack" and event.get("client_message_id") == question.client_id:
            return str(event["turn_id"])
        if kind == "answer.reset":
            answers[turn_id] = ""
        elif kind == "assistant.delta":
            answers[turn_id] = answers.get(turn_id, "") + event.get("text", "")
        elif kind == "error" and "seq" in event:
            question.chinese = question.chinese and bool(CHINESE.search(event.get("message", "")))
        elif kind == "turn.done":
            ended[turn_id] = event.get("outcome", "")
        return turn


async def student(page: Page, phase: Phase, stop: asyncio.Event) -> None:
    await page.connect()
    number = 0
    while not stop.is_set():
        number += 1
        question = Question(text=f"{page.user.username} {phase.name}第{number}问：明天有什么课？",
                            client_id=secrets.token_hex(8), asked=time.monotonic())
        phase.questions.append(question)
        await page.ask(question)
        question.seconds = time.monotonic() - question.asked
    await page.socket.close()


# --- /healthz --------------------------------------------------------------------------------------------


def health_probe(url: str, token: str, phase: Phase, stop: threading.Event) -> None:
    while not stop.wait(HEALTH_EVERY):
        request = urllib.request.Request(f"{url}/healthz", headers={"Authorization": f"Bearer {token}"})
        try:
            with urllib.request.urlopen(request, timeout=3) as response:
                status = response.status
        except urllib.error.HTTPError as error:
            status = error.code
        except OSError:
            status = 0
        phase.health.append((time.monotonic(), status))


# --- phases ----------------------------------------------------------------------------------------------


def faults(topology: Any, redis: OwnRedis, services: Services | None) -> dict[str, Callable[[], float]]:
    """Each fault, run FAULT_AT seconds into its phase; return when its dependency is back (monotonic)."""

    def redis_restart() -> float:
        redis.stop()
        time.sleep(3)
        redis.start()
        return time.monotonic()

    def worker_kill() -> float:
        topology.kill("worker-agent")
        time.sleep(3)
        topology.start_again("worker-agent")
        return time.monotonic()

    def web_restart() -> float:
        topology.stop("web-0")
        topology.start_again("web-0")
        return time.monotonic()

    def mariadb_restart() -> float:
        assert services is not None
        services.mariadb_stop()
        services.mariadb_start()
        return time.monotonic()

    def beat_stop() -> float:
        topology.stop("beat")  # started again after the phase
        return time.monotonic()

    chosen = {"baseline": lambda: time.monotonic(), "redis": redis_restart, "worker": worker_kill,
              "web": web_restart, "beat": beat_stop}
    if services is not None:
        chosen["mariadb"] = mariadb_restart
    return chosen


def run_phase(name: str, fault: Callable[[], float], topology: Any, pages: list[Page], seconds: float) -> Phase:
    phase = Phase(name)
    probe_stop = threading.Event()
    probe = threading.Thread(target=health_probe, args=(topology.url, topology.env["METRICS_TOKEN"], phase,
                                                        probe_stop), daemon=True)
    probe.start()

    async def drive() -> None:
        stop = asyncio.Event()
        runs = [asyncio.create_task(student(page, phase, stop)) for page in pages]
        await asyncio.sleep(FAULT_AT)
        began = time.monotonic()
        back = await asyncio.to_thread(fault)
        phase.fault_window = (began, back + 5.0) if name != "baseline" else (0.0, 0.0)
        await asyncio.sleep(max(0.0, seconds - FAULT_AT - (time.monotonic() - began)))
        stop.set()
        await asyncio.gather(*runs)

    asyncio.run(drive())
    probe_stop.set()
    probe.join()
    return phase


def report(phase: Phase) -> str:
    asked = len(phase.questions)
    by = {kind: [q for q in phase.questions if q.outcome == kind] for kind in ("answered", "failed", "lost")}
    chinese = sum(q.chinese for q in by["failed"])
    longest = max((q.seconds for q in phase.questions), default=0.0)
    start, end = phase.fault_window
    calm = [status for at, status in phase.health if not start <= at <= end]
    false_alarms = sum(status == 503 for status in calm)
    unanswered = sum(status == 0 for _, status in phase.health)
    return (f"{phase.name:<9} asked {asked:>3}  answered {len(by['answered']):>3}  failed visibly "
            f"{len(by['failed']):>2} ({chinese} in Chinese)  lost {len(by['lost']):>2}  longest {longest:5.1f} s  "
            f"| healthz {sum(s == 200 for _, s in phase.health)}/{len(phase.health)} ok, "
            f"{false_alarms} false 503, {unanswered} no answer")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=8)
    parser.add_argument("--phase-seconds", type=float, default=30.0)
    parser.add_argument("--faults", default="baseline,redis,worker,web,mariadb,beat")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="topology-faults-") as folder:
        redis = OwnRedis(Path(folder))
        redis.start()
        try:
            os.environ["REDIS_URL"] = redis.url  # before Django reads its settings
            os.environ.pop("CELERY_BROKER_URL", None)
            django_setup_for_bench()
            return run(args, redis, Path(folder))
        finally:
            redis.stop()


def run(args: argparse.Namespace, redis: OwnRedis, folder: Path) -> int:
    from accounts.models import User
    from agent.models import Conversation
    from bench.fake_model import FakeLLMServer
    from bench.topology import topology_running

    services = Services() if os.environ.get("DATABASE_URL", "").startswith("mysql") and os.environ.get("SVC_DIR") \
        else None
    fake = FakeLLMServer().start()
    fake.set_responder(_answer)
    lost = 0
    try:
        with bench_database() as database, topology_running(
                folder / "topology", web=2, database_name=database, llm_url=fake.base_url,
                extra_env={"AGENT_AUTO_TITLES": "true", "MEMORY_ENABLED": "true"}) as topology:
            users = [User.objects.create_user(username=f"faults-{n}-{secrets.token_hex(2)}", password="!x",
                                              token_limit=10_000_000) for n in range(args.students)]
            pages = [Page(topology, user, Conversation.objects.create(user=user).pk) for user in users]
            chosen = faults(topology, redis, services)
            for name in args.faults.split(","):
                if name not in chosen:
                    print(f"{name:<9} skipped (needs MariaDB from DATABASE_URL and SVC_DIR)")
                    continue
                phase = run_phase(name, chosen[name], topology, pages, args.phase_seconds)
                if name == "beat":
                    topology.start_again("beat")
                print(report(phase), flush=True)
                lost += sum(q.outcome == "lost" for q in phase.questions)
    finally:
        fake.stop()
    print("result:", "ok" if lost == 0 else f"FAIL: {lost} question(s) lost")
    return 0 if lost == 0 else 1


def _answer(request: Any) -> dict[str, Any]:
    """Route, title and memory calls get a route object (it names no fact); answers stream in ~2 s."""
    if not request.stream:
        return {"text": '{"route": "reply", "reason": "fault bench"}'}
    question = str([m for m in request.messages if m.get("role") == "user"][-1].get("content"))
    return {"text": answer_for(question.strip()), "chunk_size": 4, "chunk_delay": 0.08}


if __name__ == "__main__":
    raise SystemExit(main())
