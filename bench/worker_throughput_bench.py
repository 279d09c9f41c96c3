"""Assistant turns per second on Celery workers against the same turns run in this process.

    python -m bench.worker_throughput_bench [--turns 60] [--students 8] [--workers 1,2]
                                            [--database sqlite|mysql] [--answer-chars 200]

Needs ``REDIS_URL`` (and ``DATABASE_URL`` for ``--database mysql``; ``sqlite`` ignores it). Students are
created in a fresh benchmark database (``bench.turns_bench.bench_database``), each with one conversation.
The model is the scripted fake (``bench.fake_model``) in a child process with no delay, answering
every call with the same route object padded to ``--answer-chars`` (the router takes it as a direct reply;
the reply streams it back in 4-character deltas), as ``bench.ws_bench`` does.

A turn is submitted the way the websocket consumer submits it: ``turn_start`` in a thread of this
process's event loop (``database_sync_to_async``), which stores the message and, once committed, hands the
turn to ``agent.services.dispatch``. This process follows every conversation's channel-layer group (the
Redis layer, as a daphne would) and measures each turn from its submission to its ``turn.done``. Every
student sends its next message as soon as its last one is done (a closed loop, ``--students`` turns in
flight), so the workers never wait for work.

Phases, each on new students (a conversation's history grows with every turn):

- ``in-process``: the dispatcher's embedded path (``CELERY_TASK_ALWAYS_EAGER`` switched on in this
  process only): turns run on this process's embedded pool (up to ``AGENT_EMBEDDED_TURNS`` at once, so one
  turn's waits are filled by another's work), events still go through Redis.
- ``in-process x1``: the same with one student, one turn at a time, as ``bench.turns_bench`` runs them.
- ``worker -c K`` for each K of ``--workers``: a Celery worker on the ``agent`` queue, prefork with K
  processes, started for the phase and stopped after it.

Printed per phase: turns done and errors, turns/s over the measured turns (the first ``--warmup``
completions are not measured: the worker's first turns import and connect), turns/s per worker process
and its ratio to each in-process rate (target >= 0.5), p50/p95 submit -> ``turn.done``, CPU per turn of the
process(es) that ran the turns (this one in-process; the worker's process tree otherwise), and the load
average before and after. Background model work (memory extraction, titles) is switched off so both
sides run the same turn; their outbox messages for the ``memory``/``default`` queues are purged at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.harness import bench_database, django_setup_for_bench, percentiles
from bench.topology.processes import start_fake_llm
from bench.ws_bench import agent_worker_start

# Django (models, services, the Celery app) is imported inside functions: main() sets it up first.

REPO_ROOT = Path(__file__).resolve().parent.parent
MESSAGE = "明天下午我有什么课？"
# Background model work off in every process of the run: both sides run exactly the turn.
QUIET_BACKGROUND = {"MEMORY_ENABLED": "0", "AGENT_AUTO_TITLES": "0"}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# ``python -m celery`` under cProfile with a CPU clock (the process's CPU, every thread's: an asgiref thread's
# sends count in the frame waiting for them), not wall time (which would count waits on locks and sockets).
PROFILED_CELERY = """
import cProfile, runpy, sys, time
sys.argv[0] = "celery"
profile = cProfile.Profile(time.{clock})
try:
    profile.runcall(runpy.run_module, "celery", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
finally:
    profile.dump_stats({path!r})
"""
PROFILE_CLOCKS = {"cpu": "process_time", "wall": "perf_counter"}


@dataclass(frozen=True)
class ThroughputConfig:
    """One run: how many turns per phase from how many students, which worker sizes, how long an answer is."""

    turns: int = 60
    students: int = 8
    workers: tuple[int, ...] = (1, 2)
    answer_chars: int = 200
    warmup: int = 4
    rounds: int = 3  # in-process and worker phases alternate; the medians damp a loaded machine's swings
    timeout: float = 300.0
    pool: str = "prefork"
    profile: Path | None = None  # a solo worker under cProfile writes its stats here
    profile_clock: str = "cpu"  # cpu: where the worker burns CPU; wall: where its time goes, waits included



@dataclass
class PhaseResult:
    """What one phase measured."""

    name: str
    processes: int  # processes running turns: 1 in-process, K on a worker
    completed: int = 0
    events: int = 0  # frames of the measured students' turns received
    errors: Counter = field(default_factory=Counter)
    done_seconds: list[float] = field(default_factory=list)
    measured_turns: int = 0
    measured_seconds: float = 0.0
    cpu_seconds: float = 0.0
    load_before: tuple[float, float, float] = (0.0, 0.0, 0.0)
    load_after: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def rate(self) -> float:
        return self.measured_turns / self.measured_seconds if self.measured_seconds > 0 else 0.0

    @property
    def rate_per_process(self) -> float:
        return self.rate / self.processes

    @property
    def in_process(self) -> bool:
        return self.name.startswith("in-process")

    def ratios(self, references: Sequence[PhaseResult]) -> dict[str, float]:
        """This phase's turns/s per process against each in-process phase's rate (none for an in-process phase)."""
        if self.in_process:
            return {}
        return {reference.name: self.rate_per_process / reference.rate for reference in references if reference.rate}

    def line(self, references: Sequence[PhaseResult] = ()) -> str:
        p50, p95 = percentiles([seconds * 1000 for seconds in self.done_seconds])
        ratio = "".join(f", per process / {name} {value:.2f}" for name, value in self.ratios(references).items())
        errors = (" (" + ", ".join(f"{kind} x{n}" for kind, n in self.errors.most_common()) + ")"
                  if self.errors else "")
        cpu = self.cpu_seconds * 1000 / self.completed if self.completed else 0.0
        events = self.events / self.completed if self.completed else 0.0
        return (f"{self.name:<14} turns {self.completed}, errors {sum(self.errors.values())}{errors}, "
                f"events/turn {events:.0f} | "
                f"{self.rate:5.2f} turns/s, {self.rate_per_process:5.2f} per process{ratio} | submit -> turn.done "
                f"p50 {p50:7.1f} p95 {p95:7.1f} ms | CPU/turn {cpu:5.1f} ms | load {_load(self.load_before)} -> "
                f"{_load(self.load_after)}")


def _load(load: tuple[float, float, float]) -> str:
    return "/".join(f"{value:.2f}" for value in load)


# --- Students and the closed loop -------------------------------------------------------------------------


@dataclass
class _Flight:
    """The turn one student is waiting for."""

    turn_id: str = ""
    sent: float = 0.0


def students_create(count: int) -> list[tuple[Any, int]]:
    """Create ``count`` students, each with a semester and one conversation; return (user, conversation id)."""
    from accounts.models import User
    from bench.ws_bench import students_create as ws_students_create

    students = ws_students_create(count)
    users = User.objects.in_bulk([student.user_id for student in students])
    return [(users[student.user_id], student.conversation_id) for student in students]


def _submit(user: Any, conversation_id: int) -> str:
    from agent.services.turns import turn_start

    return turn_start(user=user, conversation_id=conversation_id, text=MESSAGE).turn_id


async def drive(students: Sequence[tuple[Any, int]], result: PhaseResult, *, turns: int, warmup: int,
                timeout: float) -> None:
    """Run ``turns`` turns over ``students`` (each sends again once its turn is done); fill ``result``."""
    from channels.db import database_sync_to_async
    from channels.layers import get_channel_layer

    from agent.broadcast import conversation_group

    layer = get_channel_layer()
    channel = await layer.new_channel("bench")
    for _user, conversation_id in students:
        await layer.group_add(conversation_group(conversation_id), channel)
    submit = database_sync_to_async(_submit)
    users = {conversation_id: user for user, conversation_id in students}
    flights = {conversation_id: _Flight() for conversation_id in users}
    sent_count, deadline, warm_at = 0, time.monotonic() + timeout, None

    async def send(conversation_id: int) -> None:
        nonlocal sent_count
        sent_count += 1
        flights[conversation_id].sent = time.perf_counter()
        flights[conversation_id].turn_id = await submit(users[conversation_id], conversation_id)

    try:
        for conversation_id in list(users)[:turns]:
            await send(conversation_id)
        while result.completed < turns:
            message = await asyncio.wait_for(layer.receive(channel), timeout=max(0.01, deadline - time.monotonic()))
            frame = message.get("frame") or {}
            flight = flights.get(int(frame.get("conversation_id") or 0))
            if flight is None or frame.get("turn_id") != flight.turn_id:
                continue
            result.events += 1
            if frame.get("type") == "error":
                result.errors[f"error event {frame.get('code')}"] += 1
            if frame.get("type") != "turn.done":
                continue
            now = time.perf_counter()
            result.completed += 1
            result.done_seconds.append(now - flight.sent)
            if frame.get("outcome") != "completed":
                result.errors[f"turn {frame.get('outcome')}"] += 1
            if result.completed == warmup:
                warm_at = now
            elif result.completed > warmup and warm_at is not None:
                result.measured_turns, result.measured_seconds = result.completed - warmup, now - warm_at
            if sent_count < turns:
                await send(frame["conversation_id"])
    except TimeoutError:
        result.errors["timeout waiting for turn.done"] += turns - result.completed
    finally:
        for _user, conversation_id in students:
            await layer.group_discard(conversation_group(conversation_id), channel)


# --- CPU of a process tree ----------------------------------------------------------------------------------


def tree_cpu_seconds(root: int) -> float:
    """Return user + system CPU seconds of ``root`` and its live descendants (read from /proc)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    family, total = {root}, 0.0
    for _ in range(4):  # the worker, its pool processes, anything they started
        family |= {pid for pid, parent in parents.items() if parent in family}
    for pid in family:
        total += times.get(pid, 0.0)
    return total


# --- Phases ---------------------------------------------------------------------------------------------------


@contextmanager
def embedded_dispatch() -> Iterator[None]:
    """Make this process's dispatcher run turns on its embedded pool, as with no broker."""
    from django.test import override_settings

    with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
        yield


def phase_in_process(config: ThroughputConfig, in_flight: int) -> PhaseResult:
    """The turns on this process's embedded pool, ``in_flight`` at a time (1: one after another, as
    ``bench.turns_bench`` runs them)."""
    from agent import embedded_turns

    name = "in-process" if in_flight > 1 else "in-process x1"
    result = PhaseResult(name=name, processes=1, load_before=os.getloadavg())
    students = students_create(in_flight)
    cpu = time.process_time()
    with embedded_dispatch():
        asyncio.run(drive(students, result, turns=config.turns, warmup=config.warmup, timeout=config.timeout))
        embedded_turns.join(timeout=30)
    result.cpu_seconds, result.load_after = time.process_time() - cpu, os.getloadavg()
    return result


def phase_worker(config: ThroughputConfig, concurrency: int, env: dict[str, str], folder: Path) -> PhaseResult:
    from django.db import connection

    # A threads pool runs its turns in one process; prefork in one process each.
    processes = 1 if config.pool == "threads" else concurrency
    result = PhaseResult(name=f"worker -c {concurrency}", processes=processes, load_before=os.getloadavg())
    students = students_create(config.students)
    connection.close()  # the worker's turns must not wait on a lock this thread holds
    with ExitStack() as stack:
        process = start_agent_worker(stack, config, concurrency, env, folder)
        cpu = tree_cpu_seconds(process.pid)
        asyncio.run(drive(students, result, turns=config.turns, warmup=config.warmup, timeout=config.timeout))
        result.cpu_seconds = tree_cpu_seconds(process.pid) - cpu
    result.load_after = os.getloadavg()
    return result


def start_agent_worker(stack: ExitStack, config: ThroughputConfig, concurrency: int, env: dict[str, str],
                       folder: Path) -> subprocess.Popen:
    """Start a Celery worker on the ``agent`` queue with ``concurrency`` processes; wait until it answers."""
    launcher: tuple[str, ...] = ("-m", "celery")
    if config.profile:
        launcher = ("-c", PROFILED_CELERY.format(path=str(config.profile), clock=PROFILE_CLOCKS[config.profile_clock]))
    return agent_worker_start(stack, env=env, log_path=folder / f"worker-c{concurrency}.log", pool=config.pool,
                              concurrency=concurrency, name_prefix="bench-throughput", launcher=launcher)


def worker_env(database_name: str, llm_url: str, folder: Path) -> dict[str, str]:
    """The worker's environment: the benchmark database, the fake model, production mode, quiet logs."""
    env = dict(os.environ)
    env.update(QUIET_BACKGROUND, DATABASE_NAME_OVERRIDE=database_name, LLM_BASE_URL=llm_url, LLM_API_KEY="bench",
               MILVUS_URI=str(folder / "milvus-worker.db"), DJANGO_SETTINGS_MODULE="smartmate.settings",
               PYTHONUNBUFFERED="1")
    return env


def purge_background_queues() -> None:
    """Drop the outbox messages no worker of this run consumes (memory, default) from the broker."""
    from smartmate.celery import app

    with app.connection_for_write() as connection:
        channel = connection.default_channel
        for queue in ("memory", "default"):
            channel.queue_purge(queue)


def run(config: ThroughputConfig, *, folder: Path, llm_url: str, database_name: str,
        echo: bool = True) -> list[list[PhaseResult]]:
    """Run ``config.rounds`` rounds (the in-process phases, then one per worker size) on ``database_name``
    (Django is set up on it, with its model at ``llm_url``); return each round's results.

    ``echo``: print the header and each round's lines as the round ends (a run takes a while).
    """
    from django.db import connection

    rounds = []
    env = worker_env(database_name, llm_url, folder)
    if echo:
        print(header(config, connection.vendor), flush=True)
    try:
        for index in range(config.rounds):
            results = [phase_in_process(config, config.students), phase_in_process(config, 1)]
            for concurrency in config.workers:
                results.append(phase_worker(config, concurrency, env, folder))
            rounds.append(results)
            for line in round_lines(results) if echo else ():
                print(f"round {index + 1}: {line}", flush=True)
    finally:
        purge_background_queues()
    return rounds


def header(config: ThroughputConfig, database: str) -> str:
    return (f"{config.turns} direct-reply turns per phase from {config.students} students (closed loop; the first "
            f"{config.warmup} not measured), {config.rounds} round(s), database {database}, Redis channel layer, "
            f"answer of {config.answer_chars} characters, zero-latency fake model, {os.cpu_count()} CPUs, "
            f"worker pool {config.pool}")


def round_lines(results: Sequence[PhaseResult]) -> list[str]:
    """One line per phase of a round, each worker phase with its ratios to the round's in-process rates."""
    references = [result for result in results if result.in_process]
    return [result.line(references) for result in results]


def summary_lines(rounds: Sequence[Sequence[PhaseResult]]) -> list[str]:
    """Medians over the rounds: turns/s, per process, and the per-process ratios to the same round's in-process."""
    lines = []
    for position, first in enumerate(rounds[0]):
        phases = [results[position] for results in rounds]
        cpu = [phase.cpu_seconds * 1000 / phase.completed for phase in phases if phase.completed]
        line = (f"median {first.name:<14} {statistics.median(phase.rate for phase in phases):5.2f} turns/s, "
                f"{statistics.median(phase.rate_per_process for phase in phases):5.2f} per process, "
                f"CPU/turn {statistics.median(cpu) if cpu else 0.0:5.1f} ms")
        ratios = [phase.ratios([result for result in results if result.in_process])
                  for phase, results in zip(phases, rounds)]
        for name in ratios[0]:
            line += f", per process / {name} {statistics.median(ratio[name] for ratio in ratios):.2f}"
        lines.append(line + (" (target >= 0.5)" if ratios[0] else ""))
    return lines


def main(argv: list[str] | None = None) -> None:
    """Parse the options, set up Django on the chosen database, run, print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=60, help="turns per phase")
    parser.add_argument("--students", type=int, default=8, help="turns in flight at once (one per student)")
    parser.add_argument("--workers", default="1,2", help="worker sizes (prefork processes), comma-separated")
    parser.add_argument("--database", choices=["sqlite", "mysql"], default="sqlite")
    parser.add_argument("--answer-chars", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of all phases (medians are reported)")
    parser.add_argument("--warmup", type=int, default=4, help="completions per phase not measured")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds one phase may take")
    parser.add_argument("--pool", choices=["prefork", "solo", "threads"], default="prefork",
                        help="threads: K turns in one process (no time limits: Celery cannot stop a thread)")
    parser.add_argument("--profile", type=Path, help="run one solo worker under cProfile; write its stats here")
    parser.add_argument("--profile-clock", choices=sorted(PROFILE_CLOCKS), default="cpu",
                        help="cpu: the worker's CPU by function; wall: its time, waits included")
    parser.add_argument("--keep-logs", action="store_true", help="print the folder with the workers' logs")
    args = parser.parse_args(argv)
    if not os.environ.get("REDIS_URL"):
        parser.error("needs REDIS_URL (e.g. redis://127.0.0.1:6392/0)")
    if args.database == "mysql" and not os.environ.get("DATABASE_URL", "").startswith("mysql"):
        parser.error("--database mysql needs DATABASE_URL=mysql://...")
    if args.database == "sqlite":
        os.environ.pop("DATABASE_URL", None)
    workers = tuple(int(size) for size in args.workers.split(",") if size.strip())
    if args.profile:
        args.pool, workers = "solo", (1,)
    if args.pool == "solo" and any(size != 1 for size in workers):
        parser.error("--pool solo runs one process: --workers 1")
    config = ThroughputConfig(turns=args.turns, students=args.students, workers=workers, answer_chars=args.answer_chars,
                              rounds=max(1, args.rounds), warmup=min(args.warmup, args.turns - 1), timeout=args.timeout,
                              pool=args.pool, profile=args.profile.resolve() if args.profile else None,
                              profile_clock=args.profile_clock)
    folder = Path(tempfile.mkdtemp(prefix="smartmate-bench-throughput-"))
    with ExitStack() as stack:
        llm_url = start_fake_llm(stack, folder, config.answer_chars)
        django_setup_for_bench(LLM_API_KEY="bench", LLM_BASE_URL=llm_url, LLM_MAX_RETRIES="0",
                               MILVUS_URI=str(folder / "milvus.db"), **QUIET_BACKGROUND)
        with bench_database() as database_name:
            rounds = run(config, folder=folder, llm_url=llm_url, database_name=database_name)
    for line in summary_lines(rounds):
        print(line)
    if args.keep_logs:
        print(f"workers' logs: {folder}")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    if any(result.errors or result.completed < config.turns for results in rounds for result in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
