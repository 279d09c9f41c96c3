"""Measure what the agent framework costs per model round and per turn, against a zero-latency fake model.

    python -m bench.turns_bench [--turns 100] [--warmup 3] [--scenario direct_reply]

Whole turns run in this process, as the embedded mode runs them: ``services.turn_start`` stores the
message and starts the turn thread (``turn_run``: graph, checkpoints, timeline rows, broadcasts,
usage charged to the student), on a fresh migrated database (SQLite in a temporary folder, or
``<name>_bench`` when ``DATABASE_URL`` names MySQL), dropped afterwards. The scripted fake model
(``bench.fake_model``) answers over real HTTP with no delay.

Framework time is the turn's wall time minus the time spent inside the LLM client's calls (the
request, the fake's HTTP handling and the ``openai`` package; ``python -m bench.llm_client_bench`` measures the
client's own share). Work the framework does in the client's callbacks while a call runs (storing
and broadcasting each streamed delta, charging usage) counts as framework time. A model *round* is
one model call together with the framework time before it (from the turn's start or the previous
call's end) and its callbacks; the last round also takes the tail after the last call.

Background model calls that run inside the turn in embedded mode (memory extraction and the title,
handed over by the outbox when the answer is stored; on a worker they run on their own queues) get
the fake's fallback reply, ``{"facts": []}``; they are counted apart from the scenario's calls but
their time is in the turn's. ``--memory off`` runs with ``MEMORY_ENABLED=0``. "process CPU/turn" is
this process's CPU time during the turn (fake model included): unlike wall time it does not grow
when other processes load the machine.

What issue #17's "framework cost" target measures is apart from that: "turn CPU" is the CPU of the
threads that run the turn itself, from the student's message (``turn_start``, in this thread) to
``turn.done`` (the embedded turn thread and its lease heartbeat), read per thread
(``pthread_getcpuclockid``); the fake model's thread is not in it. "background CPU" is the CPU of
the background pool's threads (title, memory extraction) for that turn: after each turn the
benchmark waits for them (``background_join``) before the next turn starts, so each turn's
background work is counted once and never overlaps the next turn (``--background overlap`` lets
it run on, as a busy server does). Queries are counted the same way, per thread group, through a
``connection.execute_wrapper`` on each thread's connection. ``--profile FILE`` writes a cProfile of
the turn threads (``python -m pstats FILE``).

Scenarios are a table, ``SCENARIOS``: a name, the student's message, and the fake model's script for
one turn (its replies in call order, as in a fake-server script file). Adding a flow is appending one
entry; a scenario whose script is not used up exactly, or whose turn ends with another outcome than
the one declared, counts as an error.
"""

from __future__ import annotations

import argparse
import cProfile
import secrets
import statistics
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.harness import bench_database, django_setup_for_bench, load_average, percentiles

# Django (models, settings, the agent's services) is imported inside functions: main() sets it up first.

ReplyScript = Mapping[str, Any]
# Model stages that run after the answer (memory extraction, titles): not part of a scenario's script.
BACKGROUND_STAGES = ("memory", "title")
# The fake's answer once a turn's script is used up: what a background stage gets ("no facts found").
BACKGROUND_REPLY: ReplyScript = {"text": '{"facts": []}'}
# How a background call's prompt begins (the title, memory extraction and decisions): those run beside
# the turns now, so the fake answers them by rule and they never take a reply scripted for a turn.
BACKGROUND_PROMPTS = ("给下面这段对话起一个简短的标题", "【任务：记忆")


def background_responder(request: Any) -> ReplyScript | None:
    """Answer a title or memory call with BACKGROUND_REPLY; leave the turn's calls to the script."""
    messages = request.body.get("messages") or [{}]
    first = str(messages[0].get("content") or "")
    return BACKGROUND_REPLY if first.startswith(BACKGROUND_PROMPTS) else None

ROUTE_REPLY: ReplyScript = {"text": '{"route": "reply", "reason": "a question the assistant can answer"}'}
ANSWER = ("明天下午你有两节课：14:00-15:35 的概率论（教三 201）和 15:55-17:30 的大学物理实验（实验楼 305）。"
          "晚上 19:00 之后没有安排，可以用来复习线性代数第五章，或者把上周的作业再检查一遍。"
          "需要的话，我可以帮你把复习安排进课表。")
REASONING = "学生问明天下午的安排。先看课表里明天的课，再看晚上的空闲时间，最后给一个简短的建议。"


@dataclass(frozen=True)
class Scenario:
    """One scripted flow: what the student says and what the fake model answers, call by call."""

    name: str
    script: tuple[ReplyScript, ...]
    text: str = "明天下午我有什么课？"
    outcome: str = "completed"
    student: str = "bench"  # "demo": the demo student (smartmate.demo: timetable, notes, task classes)
    # Accept the card the turn ended on and run this script in the resumed turn (calls counted together).
    accept_script: tuple[ReplyScript, ...] | None = None
    accept_outcome: str = "completed"


PLAN = {"text": '{"goal": "下周复习概率论", "steps": [{"title": "查看空闲时间", "done_when": "列出空闲时段"}, '
               '{"title": "安排 4 次复习", "done_when": "预览里有 4 个学习块"}], "rough_build": false, '
               '"task_class_ids": [], "question": null}'}


def _tool(name: str, arguments: str = "{}") -> ReplyScript:
    return {"text": "", "tool_calls": [{"name": name, "arguments": arguments}]}


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("direct_reply", (ROUTE_REPLY, {"text": ANSWER})),
    Scenario("reply_with_reasoning", (ROUTE_REPLY, {"text": ANSWER, "reasoning": REASONING})),
    Scenario("route_corrected_once", ({"text": "当然可以！"}, ROUTE_REPLY, {"text": ANSWER})),
    # A plan turn ends on its confirmation card.
    Scenario("plan_to_card", ({"text": '{"route": "plan"}'}, PLAN), text="帮我安排下周的复习计划",
             outcome="interrupted"),
    # Read tools run at once: overview, then a day, then the answer.
    Scenario("execute_two_reads", ({"text": '{"route": "execute"}'}, _tool("get_overview"),
                                   _tool("query_range", '{"date": "2026-09-23"}'), {"text": ANSWER}),
             text="看看我这周的安排"),
    # A write opens a confirmation card (always-execute off).
    Scenario("quick_note_to_card", ({"text": '{"route": "quick_note"}'},
                                    _tool("quick_note_create", '{"text": "周五下午交概率论作业"}')),
             text="记一下周五下午交概率论作业", outcome="interrupted"),
    # On the demo student: tomorrow's courses are in the route stage's summary, so it answers directly.
    Scenario("demo_tomorrow_courses", (ROUTE_REPLY, {"text": ANSWER}), text="我明天有什么课", student="demo"),
    # The same question when the model still looks it up: one read tool from the schedule-read pack.
    Scenario("demo_tomorrow_courses_lookup", ({"text": '{"route": "execute", "packs": ["schedule_read"]}'},
                                              _tool("query_range", '{"date": "2026-09-23"}'), {"text": ANSWER}),
             text="我明天有什么课", student="demo"),
    # Plan -> confirm (the card) -> accept -> execute: the whole flow's calls and prompt tokens.
    Scenario("demo_plan_confirm_execute", ({"text": '{"route": "plan"}'}, PLAN), text="帮我安排下周的复习计划",
             outcome="interrupted", student="demo",
             accept_script=(_tool("query_available_slots", '{"week": 14}'), {"text": ANSWER})),
)


# --- Timing the model -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelCall:
    """One call of the LLM client: when it ran, and how much of it our callbacks took."""

    stage: str
    started: float
    ended: float
    callbacks: float
    prompt_estimate: int = 0  # the prompt's estimated tokens, tool schemas included (smartmate.llm.usage)
    # CPU of the calling (turn) thread: its clock when the call started and ended, our callbacks' share,
    # and the benchmark's own work for the call (the prompt estimate), which is no part of the turn.
    thread: int = 0
    cpu_started: float = 0.0
    cpu_ended: float = 0.0
    callbacks_cpu: float = 0.0
    bench_cpu: float = 0.0

    @property
    def model_seconds(self) -> float:
        return self.ended - self.started - self.callbacks


class TimedClient:
    """Wrap the real LLM client and record each call's time, minus its callbacks (framework work)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[ModelCall] = []
        self._lock = threading.Lock()

    def stage_config(self, stage: str) -> Any:
        return self.inner.stage_config(stage)

    def complete(self, stage: str, messages: Sequence[Any], tools: Sequence[Any] | None = None,
                 on_delta: Callable[..., Any] | None = None, *, config: Any = None,
                 record_usage: Callable[..., Any] | None = None, poll: Callable[[], object] | None = None) -> Any:
        spent, spent_cpu = [0.0], [0.0]

        def timed(callback: Callable[..., Any] | None) -> Callable[..., Any] | None:
            if callback is None:
                return None

            def run(*args: Any) -> Any:
                started, cpu_started = time.perf_counter(), time.thread_time()
                try:
                    return callback(*args)
                finally:
                    spent[0] += time.perf_counter() - started
                    spent_cpu[0] += time.thread_time() - cpu_started
            return run

        from smartmate.llm import Completion
        from smartmate.llm.usage import estimate_usage

        bench_started = time.thread_time()
        prompt = estimate_usage(messages, tools, Completion(text="")).prompt_tokens
        started, cpu_started = time.perf_counter(), time.thread_time()
        try:
            return self.inner.complete(stage, messages, tools, timed(on_delta), config=config,
                                       record_usage=timed(record_usage), poll=poll)
        finally:
            call = ModelCall(stage=stage, started=started, ended=time.perf_counter(), callbacks=spent[0],
                             prompt_estimate=prompt, thread=threading.get_ident(), cpu_started=cpu_started,
                             cpu_ended=time.thread_time(), callbacks_cpu=spent_cpu[0],
                             bench_cpu=cpu_started - bench_started)
            with self._lock:
                self.calls.append(call)

    def take(self) -> list[ModelCall]:
        """Return the calls recorded since the last take, oldest first."""
        with self._lock:
            calls, self.calls = self.calls, []
        return calls


def _own(calls: Sequence[ModelCall]) -> list[ModelCall]:
    """The turn's own calls: a background call (title, memory) may start before the turn ends, on its own
    thread; it is neither one of the turn's rounds nor time taken out of the turn's framework time."""
    return [call for call in calls if call.stage not in BACKGROUND_STAGES]


def rounds_framework(started: float, ended: float, calls: Sequence[ModelCall]) -> list[float]:
    """Split a turn's framework seconds into model rounds (see the module docstring)."""
    if not calls:
        return [ended - started]
    rounds, previous_end = [], started
    for call in calls:
        rounds.append(call.started - previous_end + call.callbacks)
        previous_end = call.ended
    rounds[-1] += ended - previous_end
    return rounds


def rounds_cpu(turn_cpu: float, thread_cpu_after: Mapping[int, float], calls: Sequence[ModelCall]) -> list[float]:
    """Split a turn's framework CPU into model rounds (``turn_cpu``: the turn's CPU with the benchmark's
    own work already taken out), as ``rounds_framework`` splits its wall time: what ran before
    a call (on any of the turn's threads) and the call's callbacks; the last round also takes the turn
    thread's CPU after the last call. ``thread_cpu_after``: each thread's CPU clock once the turn was over.
    The rounds add up to ``turn_cpu - client_cpu(calls)``."""
    if not calls:
        return [turn_cpu]
    after = thread_cpu_after.get(calls[-1].thread, calls[-1].cpu_ended)
    # Everything before the first call: the turn's CPU less what its thread spent from that call on
    # (which still holds the benchmark's work before the later calls).
    before_first = turn_cpu + sum(call.bench_cpu for call in calls[1:]) - (after - calls[0].cpu_started)
    rounds, previous_end = [], None
    for call in calls:
        ahead = before_first if previous_end is None else call.cpu_started - previous_end - call.bench_cpu
        rounds.append(ahead + call.callbacks_cpu)
        previous_end = call.cpu_ended
    rounds[-1] += after - calls[-1].cpu_ended
    return rounds


def client_cpu(calls: Sequence[ModelCall]) -> float:
    """The CPU the LLM client itself took in the turn's thread (its HTTP, the SDK, parsing), callbacks not."""
    return sum(call.cpu_ended - call.cpu_started - call.callbacks_cpu for call in calls)


# --- Running turns ------------------------------------------------------------------------------------


@dataclass
class ScenarioResult:
    """What the measured turns of one scenario cost."""

    name: str
    turns: int = 0
    errors: list[str] = field(default_factory=list)
    turn_ms: list[float] = field(default_factory=list)
    framework_ms: list[float] = field(default_factory=list)
    round_ms: list[float] = field(default_factory=list)
    model_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    calls: list[int] = field(default_factory=list)
    background_calls: Counter = field(default_factory=Counter)
    prompt_tokens: list[int] = field(default_factory=list)
    prompt_estimates: list[int] = field(default_factory=list)
    completion_tokens: list[int] = field(default_factory=list)
    events: list[int] = field(default_factory=list)
    turn_cpu_ms: list[float] = field(default_factory=list)
    background_cpu_ms: list[float] = field(default_factory=list)
    turn_queries: list[int] = field(default_factory=list)
    background_queries: list[int] = field(default_factory=list)
    framework_cpu_ms: list[float] = field(default_factory=list)  # turn CPU without the LLM client's own
    round_cpu_ms: list[float] = field(default_factory=list)


# --- CPU and queries per thread group ---------------------------------------------------------------

# Which threads do what, by their names: the turn (this thread starts it: turn_start; the embedded pool
# runs it; its lease heartbeat renews it) and the background pool (title, memory extraction).
THREAD_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("turn", ("MainThread", "agent-turn", "turn-lease")),
    ("background", ("outbox-background",)),
)


def thread_group(name: str) -> str:
    """The group of the thread called ``name`` (``other``: the fake model, the channel layer's loop)."""
    return next((group for group, prefixes in THREAD_GROUPS if name.startswith(prefixes)), "other")


def threads_cpu() -> dict[str, float]:
    """CPU seconds used so far by each thread group's live threads (Linux: per-thread clocks)."""
    totals: dict[str, float] = defaultdict(float)
    for thread in threading.enumerate():
        if thread.ident is None:
            continue
        try:
            totals[thread_group(thread.name)] += time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
        except (OSError, ProcessLookupError):  # the thread ended between the listing and the read
            continue
    return totals


def thread_clocks() -> dict[int, float]:
    """Each live thread's CPU clock (seconds), by thread ident."""
    clocks = {}
    for thread in threading.enumerate():
        if thread.ident is not None:
            try:
                clocks[thread.ident] = time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
            except (OSError, ProcessLookupError):
                continue
    return clocks


class QueryCounter:
    """Count SQL statements per thread group: a ``connection.execute_wrapper`` on every thread's connection."""

    def __init__(self) -> None:
        self.counts: Counter = Counter()
        self._lock = threading.Lock()

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        with self._lock:
            self.counts[thread_group(threading.current_thread().name)] += 1
        return execute(sql, params, many, context)

    def install(self) -> None:
        """Wrap this thread's connection now and every connection opened from now on (each thread has its own)."""
        from django.db import connection
        from django.db.backends.signals import connection_created

        connection_created.connect(self._attach, weak=False, dispatch_uid="bench-turns-query-counter")
        self._attach(sender=None, connection=connection)

    def uninstall(self) -> None:
        from django.db.backends.signals import connection_created

        connection_created.disconnect(dispatch_uid="bench-turns-query-counter")

    def _attach(self, sender: Any, connection: Any, **_kwargs: Any) -> None:
        if self not in connection.execute_wrappers:
            connection.execute_wrappers.append(self)

    def snapshot(self) -> Counter:
        with self._lock:
            return Counter(self.counts)


class TurnDoneWatch:
    """When each turn's ``turn.done`` went out to its sockets: where a turn ends for the student.

    The turn's thread sends it after freeing the conversation (``agent.services.running``); waiting for
    it, rather than polling the pool until it is idle (``embedded_turns.join`` looks every 10 ms), keeps
    the poll's granularity out of the last round's wall time and this thread's polling out of its CPU.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._done: dict[str, float] = {}
        self._events: dict[str, threading.Event] = {}

    def _event(self, turn_id: str) -> threading.Event:
        with self._lock:
            return self._events.setdefault(turn_id, threading.Event())

    def seen(self, frame: Mapping[str, Any]) -> None:
        if frame.get("type") == "turn.done":
            turn_id = str(frame.get("turn_id"))
            with self._lock:
                self._done[turn_id] = time.perf_counter()
            self._event(turn_id).set()

    def wait(self, turn_id: str, timeout: float = 60.0) -> float | None:
        """The moment the turn's ``turn.done`` was sent; None if it was not within ``timeout``."""
        self._event(turn_id).wait(timeout)
        with self._lock:
            self._events.pop(turn_id, None)
            return self._done.pop(turn_id, None)

    @contextmanager
    def watching(self) -> Iterator[None]:
        """See every frame the turns broadcast (``agent.broadcast`` hands them to ``group_send``)."""
        from agent import broadcast

        original = broadcast.group_send

        def group_send(group: str, message: dict[str, Any]) -> None:
            self.seen(message.get("frame") or {})
            original(group, message)

        broadcast.group_send = group_send
        try:
            yield
        finally:
            broadcast.group_send = original


@dataclass
class Probe:
    """What a run watches besides the model: CPU and queries per thread group, and an optional profile."""

    queries: QueryCounter = field(default_factory=QueryCounter)
    turn_done: TurnDoneWatch = field(default_factory=TurnDoneWatch)
    drain_background: bool = True
    profile: cProfile.Profile | None = None

    def read(self) -> tuple[dict[str, float], Counter]:
        return threads_cpu(), self.queries.snapshot()


@contextmanager
def profiled_turns(profile: cProfile.Profile | None) -> Iterator[None]:
    """Profile each embedded turn's ``turn_run`` (in its own thread) into ``profile``."""
    if profile is None:
        yield
        return
    from agent.services import dispatch

    original = dispatch.turn_run

    def turn_run(**kwargs: Any) -> None:
        profile.enable()
        try:
            original(**kwargs)
        finally:
            profile.disable()

    dispatch.turn_run = turn_run
    try:
        yield
    finally:
        dispatch.turn_run = original


def bench_user() -> Any:
    """Create the student the turns run for, with a semester and a quota no benchmark can use up."""
    from datetime import date

    from accounts.models import User
    from schedule.models import CalendarSettings, default_section_times

    user = User.objects.create(username=f"bench-{secrets.token_hex(4)}", password="!", token_limit=2_000_000_000)
    CalendarSettings.objects.create(user=user, semester_start=date(2026, 9, 7), semester_weeks=20,
                                    section_times=default_section_times())
    return user


def demo_user() -> Any:
    """The demo student (seeded into the bench database), with a quota no benchmark can use up."""
    from accounts.models import User
    from smartmate.demo import seed_demo

    user, _lines = seed_demo()
    User.objects.filter(pk=user.pk).update(token_limit=2_000_000_000)
    return user


def run_scenario(scenario: Scenario, *, fake: Any, client: TimedClient, user: Any, turns: int,
                 warmup: int = 0, probe: Probe | None = None) -> ScenarioResult:
    """Run ``warmup`` + ``turns`` turns of ``scenario``, each in a new conversation; measure the last ``turns``."""
    result = ScenarioResult(name=scenario.name)
    probe = probe or Probe()
    for index in range(warmup + turns):
        measured = _one_turn(scenario, fake=fake, client=client, user=user, probe=probe)
        if index >= warmup:
            _record(result, measured)
    return result


@dataclass(frozen=True)
class _Turn:
    wall: float
    cpu: float
    calls: list[ModelCall]
    frames: list[dict[str, Any]]
    error: str = ""
    rounds: list[float] = field(default_factory=list)
    cost: _Cost = field(default_factory=lambda: _Cost())
    rounds_cpu: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class _Cost:
    """CPU seconds and queries of one turn's own threads and of the background work it caused."""

    turn_cpu: float = 0.0
    background_cpu: float = 0.0
    turn_queries: int = 0
    background_queries: int = 0
    client_cpu: float = 0.0  # the LLM client's own share of turn_cpu

    def __add__(self, other: _Cost) -> _Cost:
        return _Cost(self.turn_cpu + other.turn_cpu, self.background_cpu + other.background_cpu,
                     self.turn_queries + other.turn_queries, self.background_queries + other.background_queries,
                     self.client_cpu + other.client_cpu)


def _measured(probe: Probe, client: TimedClient, before: tuple[dict[str, float], Counter]
              ) -> tuple[_Cost, list[ModelCall], list[float]]:
    """Right after the turn: its cost (the background's once drained), its model calls, its CPU per round."""
    from smartmate.platform.outbox.background import background_join

    after, clocks = probe.read(), thread_clocks()
    if probe.drain_background:
        background_join(timeout=60)
    drained = probe.read()
    calls = client.take()
    own = _own(calls)
    turn_cpu = after[0]["turn"] - before[0]["turn"] - sum(call.bench_cpu for call in own)
    background_cpu = (drained[0]["background"] - before[0]["background"]
                      - sum(call.bench_cpu for call in calls if call not in own))
    cost = _Cost(turn_cpu=turn_cpu, background_cpu=background_cpu, turn_queries=after[1]["turn"] - before[1]["turn"],
                 background_queries=drained[1]["background"] - before[1]["background"], client_cpu=client_cpu(own))
    return cost, calls, rounds_cpu(turn_cpu, clocks, own)


def _one_turn(scenario: Scenario, *, fake: Any, client: TimedClient, user: Any, probe: Probe) -> _Turn:
    from agent import embedded_turns
    from agent.selectors import events_after
    from agent.services.conversations import conversation_create
    from agent.services.turns import turn_start

    conversation = conversation_create(user=user)
    fake.script(*scenario.script)
    client.take()
    before = probe.read()
    started, cpu_started = time.perf_counter(), time.process_time()
    turn = turn_start(user=user, conversation_id=conversation.pk, text=scenario.text)
    ended = probe.turn_done.wait(turn.turn_id)
    finished = embedded_turns.join(timeout=60)
    ended, cpu = ended or time.perf_counter(), time.process_time() - cpu_started
    cost, calls, cpu_rounds = _measured(probe, client, before)
    frames = [envelope.to_json() for envelope in events_after(conversation=conversation, after_seq=0, limit=10_000)
              if envelope.turn_id == turn.turn_id]
    error = _problem(scenario, fake=fake, frames=frames, finished=finished)
    measured = _Turn(wall=ended - started, cpu=cpu, calls=calls, frames=frames, error=error,
                     rounds=rounds_framework(started, ended, _own(calls)), cost=cost, rounds_cpu=cpu_rounds)
    if scenario.accept_script is None or error:
        return measured
    accepted = _accept(scenario, fake=fake, client=client, user=user, conversation=conversation, frames=frames,
                       probe=probe)
    return _Turn(wall=measured.wall + accepted.wall, cpu=measured.cpu + accepted.cpu,
                 calls=measured.calls + accepted.calls, frames=measured.frames + accepted.frames,
                 error=accepted.error, rounds=measured.rounds + accepted.rounds, cost=measured.cost + accepted.cost,
                 rounds_cpu=measured.rounds_cpu + accepted.rounds_cpu)


def _accept(scenario: Scenario, *, fake: Any, client: TimedClient, user: Any, conversation: Any,
            frames: list[dict[str, Any]], probe: Probe) -> _Turn:
    """Accept the card the first turn ended on and run the resumed turn with ``accept_script``."""
    import dataclasses

    from agent import embedded_turns
    from agent.selectors import events_after
    from agent.services.turns import turn_resume

    assert scenario.accept_script is not None
    card = next(frame for frame in reversed(frames) if frame["type"] == "confirm.request")
    fake.script(*scenario.accept_script)
    before = probe.read()
    started, cpu_started = time.perf_counter(), time.process_time()
    turn = turn_resume(user=user, conversation_id=conversation.pk, interaction_id=card["interaction_id"],
                       action="accept")
    ended = probe.turn_done.wait(turn.turn_id)
    finished = embedded_turns.join(timeout=60)
    ended, cpu = ended or time.perf_counter(), time.process_time() - cpu_started
    cost, calls, cpu_rounds = _measured(probe, client, before)
    resumed = [envelope.to_json() for envelope in events_after(conversation=conversation, after_seq=0, limit=10_000)
               if envelope.turn_id == turn.turn_id]
    error = _problem(dataclasses.replace(scenario, outcome=scenario.accept_outcome), fake=fake, frames=resumed,
                     finished=finished)
    return _Turn(wall=ended - started, cpu=cpu, calls=calls, frames=resumed, error=error,
                 rounds=rounds_framework(started, ended, _own(calls)), cost=cost, rounds_cpu=cpu_rounds)


def _problem(scenario: Scenario, *, fake: Any, frames: list[dict[str, Any]], finished: bool) -> str:
    if not finished:
        return "the turn did not finish within 60 s"
    if fake.pending:
        fake.reset()  # leftover replies would be taken by the next turn
        fake.set_fallback(BACKGROUND_REPLY)
        return "the script was not used up"
    done = frames[-1] if frames else {}
    if done.get("type") != "turn.done":
        return "the turn did not end with turn.done"
    if done.get("outcome") != scenario.outcome:
        errors = [frame.get("code") for frame in frames if frame["type"] == "error"]
        return f"outcome {done.get('outcome')} (errors: {errors}), expected {scenario.outcome}"
    return ""


def _record(result: ScenarioResult, turn: _Turn) -> None:
    result.turns += 1
    if turn.error:
        result.errors.append(turn.error)
        return
    model = sum(call.model_seconds for call in _own(turn.calls))
    result.turn_ms.append(turn.wall * 1000)
    result.cpu_ms.append(turn.cpu * 1000)
    result.turn_cpu_ms.append(turn.cost.turn_cpu * 1000)
    result.background_cpu_ms.append(turn.cost.background_cpu * 1000)
    result.turn_queries.append(turn.cost.turn_queries)
    result.framework_cpu_ms.append((turn.cost.turn_cpu - turn.cost.client_cpu) * 1000)
    result.round_cpu_ms.extend(seconds * 1000 for seconds in turn.rounds_cpu)
    result.background_queries.append(turn.cost.background_queries)
    result.model_ms.append(model * 1000)
    result.framework_ms.append((turn.wall - model) * 1000)
    result.round_ms.extend(seconds * 1000 for seconds in turn.rounds)
    usages = [frame for frame in turn.frames if frame["type"] == "usage"]  # one per turn (two when resumed)
    result.calls.append(sum(call.stage not in BACKGROUND_STAGES for call in turn.calls))
    result.background_calls.update(call.stage for call in turn.calls if call.stage in BACKGROUND_STAGES)
    result.prompt_tokens.append(sum(int(usage.get("prompt_tokens", 0)) for usage in usages))
    result.prompt_estimates.append(sum(call.prompt_estimate for call in turn.calls
                                       if call.stage not in BACKGROUND_STAGES))
    result.completion_tokens.append(sum(int(usage.get("completion_tokens", 0)) for usage in usages))
    result.events.append(len(turn.frames))


@contextmanager
def timed_llm_client() -> Iterator[TimedClient]:
    """Make the agent's LLM getter return a timing wrapper around the configured client."""
    from smartmate.llm import get_llm_client, reset_llm_client, set_llm_client_for_tests

    reset_llm_client()
    client = TimedClient(get_llm_client())
    set_llm_client_for_tests(client)
    try:
        yield client
    finally:
        reset_llm_client()


def measure(scenarios: Sequence[Scenario], *, fake: Any, turns: int, warmup: int = 0,
            probe: Probe | None = None) -> list[ScenarioResult]:
    """Run every scenario against ``fake`` (already configured as the LLM); Django and the database are ready."""
    probe = probe or Probe()
    fake.set_fallback(BACKGROUND_REPLY)
    fake.set_responder(background_responder)
    probe.queries.install()
    try:
        with timed_llm_client() as client, profiled_turns(probe.profile), probe.turn_done.watching():
            students = {"bench": bench_user()}
            if any(scenario.student == "demo" for scenario in scenarios):
                students["demo"] = demo_user()
            return [run_scenario(scenario, fake=fake, client=client, user=students[scenario.student], turns=turns,
                                 warmup=warmup, probe=probe)
                    for scenario in scenarios]
    finally:
        probe.queries.uninstall()
        fake.set_fallback(None)
        fake.set_responder(None)


def report_lines(results: Sequence[ScenarioResult]) -> list[str]:
    """Render the results: one line of counts and one of times per scenario, then all rounds together."""
    lines = []

    def mean(values: Sequence[float]) -> float:
        return statistics.fmean(values) if values else 0.0

    for result in results:
        ok = len(result.turn_ms)
        background = ", ".join(f"{stage} {count / max(1, ok):.1f}" for stage, count in
                               sorted(result.background_calls.items())) or "none"
        lines.append(f"{result.name}: turns {result.turns}, errors {len(result.errors)}, model calls/turn "
                     f"{mean(result.calls):.0f} (+ background/turn: {background}), prompt tokens/turn "
                     f"{mean(result.prompt_tokens):.0f} (estimated with tool schemas: "
                     f"{mean(result.prompt_estimates):.0f}), completion "
                     f"tokens/turn {mean(result.completion_tokens):.0f}, events/turn {mean(result.events):.0f}")
        if ok:
            turn, framework, rounds, model, cpu = (percentiles(values) for values in (
                result.turn_ms, result.framework_ms, result.round_ms, result.model_ms, result.cpu_ms))
            turn_cpu, background_cpu = percentiles(result.turn_cpu_ms), percentiles(result.background_cpu_ms)
            framework_cpu, round_cpu = percentiles(result.framework_cpu_ms), percentiles(result.round_cpu_ms)
            lines.append(f"  turn CPU p50 {turn_cpu[0]:6.2f}  p95 {turn_cpu[1]:6.2f} (framework CPU p50 "
                         f"{framework_cpu[0]:6.2f}, per round p50 {round_cpu[0]:6.2f}  p95 {round_cpu[1]:6.2f}) | "
                         f"background CPU/turn p50 {background_cpu[0]:6.2f}  p95 {background_cpu[1]:6.2f} | "
                         f"queries/turn {mean(result.turn_queries):.1f} (+ background "
                         f"{mean(result.background_queries):.1f})")
            lines.append(f"  turn p50 {turn[0]:6.2f}  p95 {turn[1]:6.2f} | process CPU/turn p50 {cpu[0]:6.2f} | "
                         f"model (in client) p50 {model[0]:6.2f}  "
                         f"p95 {model[1]:6.2f} | framework/turn p50 {framework[0]:6.2f}  p95 {framework[1]:6.2f} | "
                         f"framework/round p50 {rounds[0]:6.2f}  p95 {rounds[1]:6.2f}")
        for error in sorted(set(result.errors)):
            lines.append(f"  error x{result.errors.count(error)}: {error}")
    every_round = [value for result in results for value in result.round_ms]
    if every_round:
        p50, p95 = percentiles(every_round)
        cpu50, cpu95 = percentiles([value for result in results for value in result.round_cpu_ms])
        lines.append(f"all scenarios: framework per model round p50 {p50:.2f} ms, p95 {p95:.2f} ms "
                     f"({len(every_round)} rounds); its CPU p50 {cpu50:.2f} ms, p95 {cpu95:.2f} ms")
    return lines


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print its figures (milliseconds)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100, help="measured turns per scenario")
    parser.add_argument("--warmup", type=int, default=3, help="unmeasured turns per scenario first")
    parser.add_argument("--memory", choices=["on", "off"], default="on",
                        help="off: MEMORY_ENABLED=0, the turn without memory recall and extraction")
    parser.add_argument("--scenario", action="append", choices=[scenario.name for scenario in SCENARIOS],
                        help="run only this scenario (repeatable)")
    parser.add_argument("--background", choices=["drain", "overlap"], default="drain",
                        help="drain: wait for each turn's background calls before the next turn (default); "
                             "overlap: let them run on beside the next turn")
    parser.add_argument("--profile", metavar="FILE", help="write a cProfile of the turn threads to FILE")
    args = parser.parse_args(argv)
    scenarios = [scenario for scenario in SCENARIOS if not args.scenario or scenario.name in args.scenario]

    from bench.fake_model import FakeLLMServer

    with FakeLLMServer() as fake, tempfile.TemporaryDirectory(prefix="smartmate-bench-turns-") as folder:
        # A vector store of its own: the developer's var/milvus.db may be open in a running server.
        django_setup_for_bench(LLM_BASE_URL=fake.base_url, LLM_API_KEY="bench", LLM_MAX_RETRIES="0",
                               MEMORY_ENABLED="1" if args.memory == "on" else "0",
                               MILVUS_URI=str(Path(folder) / "milvus.db"))
        from django.conf import settings
        from django.db import connection

        from smartmate.platform.outbox.background import background_join

        probe = Probe(drain_background=args.background == "drain",
                      profile=cProfile.Profile(time.thread_time) if args.profile else None)
        with bench_database():
            print(f"{args.turns} turns per scenario after {args.warmup} warm-up turns, database "
                  f"{connection.vendor}, DEBUG={settings.DEBUG}, memory {args.memory}, background {args.background}, "
                  f"zero-latency fake model in this process; load average {load_average()}; milliseconds",
                  flush=True)
            try:
                results = measure(scenarios, fake=fake, turns=args.turns, warmup=args.warmup, probe=probe)
            finally:
                background_join(timeout=60)  # before the database goes away under the background threads
            for line in report_lines(results):
                print(line)
            print(f"load average at the end {load_average()}")
        if probe.profile is not None:
            probe.profile.dump_stats(args.profile)


if __name__ == "__main__":
    main()
