"""Measure how long Stop takes in each phase of a turn, and whether anything of the model's shows after it.

    python -m bench.stop_bench [--repeat 5]

Whole turns run in this process as the embedded mode runs them (``services.turn_start``, the turn
thread, checkpoints, timeline rows), on a fresh migrated database, against the scripted fake model
over real HTTP. In each phase the benchmark waits until the turn is there (the model asked and silent,
or part of its text shown), then calls ``turn_cancel`` as the websocket consumer does and times until
the turn's ``turn.done`` is stored (what frees the student's page). "late" counts the model's words
stored after the ``cancelled`` status (the finishing node's own summary of what was done is not the
model's); it must be 0.

Phases: queued (behind the student's turn in another conversation), routing (a plain call, silent),
first byte (a streamed answer, silent), streaming (between two pieces of text), tool arguments
(silent mid-call), closing words after an accepted quick note (silent; the note must be saved and named).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from bench.harness import bench_database, django_setup_for_bench

SILENT = 8.0


@dataclass(frozen=True)
class Phase:
    name: str
    script: list[dict[str, Any]]  # the fake model's replies for the stopped turn
    due: Callable[[Any, str, int], bool]  # (fake, turn id, requests before) -> the turn is in the phase now


def _asked(calls: int) -> Callable[[Any, str, int], bool]:
    return lambda fake, turn_id, before: len(fake.requests) - before >= calls


def _shown(calls: int) -> Callable[[Any, str, int], bool]:
    def due(fake: Any, turn_id: str, before: int) -> bool:
        from agent.models import TimelineEvent

        return _asked(calls)(fake, turn_id, before) and TimelineEvent.objects.filter(
            turn_id=turn_id, type="assistant.delta").exists()
    return due


ROUTE_REPLY = {"text": '{"route": "reply"}'}
PHASES = [
    Phase("routing (plain call, silent)", [{**ROUTE_REPLY, "delay": SILENT}], _asked(1)),
    Phase("first byte (streamed, silent)", [ROUTE_REPLY, {"text": "明天上午有高数。", "delay": SILENT}], _asked(2)),
    Phase("streaming (between pieces)", [ROUTE_REPLY, {"text": "明天上午有高数，下午有英语。" * 4, "stall_after": 2,
                                                        "delay": SILENT}], _shown(2)),
    Phase("tool arguments (silent mid-call)", [{"text": '{"route": "execute"}'}, {
        "tool_calls": [{"name": "query_tasks", "arguments": {"status": "open"}}], "stall_after": 1, "delay": SILENT}],
        _asked(2)),
]


def _wait(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the turn never reached the phase")
        time.sleep(0.005)


def _stop(user: Any, conversation: Any, turn_id: str) -> tuple[float, int]:
    """Press Stop; return (seconds until turn.done is stored, model words stored after the cancelled status)."""
    from agent.models import TimelineEvent
    from agent.services.turns import turn_cancel

    pressed = time.monotonic()
    turn_cancel(user=user, conversation_id=conversation.pk)
    _wait(lambda: TimelineEvent.objects.filter(turn_id=turn_id, type="turn.done").exists())
    took = time.monotonic() - pressed
    return took, _late_words(turn_id)


def _late_words(turn_id: str) -> int:
    from agent.models import TimelineEvent

    events = list(TimelineEvent.objects.filter(turn_id=turn_id).order_by("seq").values_list("type", "payload"))
    stopped = next((index for index, (kind, payload) in enumerate(events)
                    if kind == "status" and payload.get("code") == "cancelled"), None)
    if stopped is None:
        raise AssertionError(f"turn {turn_id} ended without the cancelled status")
    # The finishing node's own lines (what was done) start with a blank line; the model's words never here.
    return sum(1 for kind, payload in events[stopped:] if kind == "assistant.delta"
               and not payload.get("text", "").startswith("\n\n"))


def measure_phase(phase: Phase, fake: Any, user: Any) -> tuple[float, int]:
    from agent import embedded_turns
    from agent.models import Conversation
    from agent.services.turns import turn_start

    conversation = Conversation.objects.create(user=user)
    before = len(fake.requests)
    fake.script(*phase.script)
    started = turn_start(user=user, conversation_id=conversation.pk, text="明天有什么课？")
    _wait(lambda: phase.due(fake, started.turn_id, before))
    time.sleep(0.3)  # well inside the silence
    result = _stop(user, conversation, started.turn_id)
    embedded_turns.join(timeout=30)
    fake.reset()
    return result


def measure_queued(fake: Any, user: Any) -> tuple[float, int]:
    """Stop a turn waiting behind the student's turn in another conversation (one turn at a time each)."""
    from agent import embedded_turns
    from agent.models import Conversation
    from agent.services.turns import turn_start

    busy, waiting = Conversation.objects.create(user=user), Conversation.objects.create(user=user)
    fake.script({**ROUTE_REPLY, "delay": 1.0}, {"text": "在的。"})
    turn_start(user=user, conversation_id=busy.pk, text="你好")
    started = turn_start(user=user, conversation_id=waiting.pk, text="明天有什么课？")
    time.sleep(0.2)
    result = _stop(user, waiting, started.turn_id)
    embedded_turns.join(timeout=30)
    fake.reset()
    return result


def measure_accepted(fake: Any, user: Any) -> tuple[float, int]:
    """Accept a quick note's card, then Stop while the model is silent before its closing words: the
    note must be saved and named in the answer (raises otherwise)."""
    from agent import embedded_turns
    from agent.models import Conversation, Message, TimelineEvent
    from agent.services.turns import turn_resume, turn_start
    from taskclasses.models import Task

    conversation = Conversation.objects.create(user=user)
    note = f"周五交实验报告 {conversation.pk}"
    fake.script({"text": '{"route": "quick_note"}'}, {"tool_calls": [{"name": "quick_note_create",
                                                                      "arguments": {"text": note}}]},
                {"text": "记下了。", "delay": SILENT})
    turn_start(user=user, conversation_id=conversation.pk, text=f"记一下{note}")
    embedded_turns.join(timeout=30)
    card = TimelineEvent.objects.filter(conversation=conversation, type="confirm.request").latest("seq").payload
    started = turn_resume(user=user, conversation_id=conversation.pk, interaction_id=card["interaction_id"],
                          action="accept")
    _wait(lambda: len(fake.requests) >= 3)
    time.sleep(0.3)
    result = _stop(user, conversation, started.turn_id)
    embedded_turns.join(timeout=30)
    fake.reset()
    answer = Message.objects.get(turn_id=started.turn_id, role="assistant").content
    saved = Task.objects.filter(user=user).latest("pk").title  # the quick-add parser keeps 周五 apart
    if saved not in answer:
        raise AssertionError(f"the saved note is not named after Stop: {answer!r}")
    return result


def main(argv: list[str] | None = None) -> None:
    """Run every phase ``--repeat`` times and print Stop's latency (ms) and the late words."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", default="", help="run only the phases whose name contains this")
    args = parser.parse_args(argv)

    from bench.fake_model import FakeLLMServer

    with FakeLLMServer() as fake:
        django_setup_for_bench(LLM_BASE_URL=fake.base_url, LLM_API_KEY="bench", LLM_MAX_RETRIES="0",
                               MEMORY_ENABLED="0", AGENT_AUTO_TITLES="false", REDIS_URL="", CELERY_BROKER_URL="")
        from accounts.models import User
        from smartmate.platform.outbox.background import background_join

        with bench_database():
            user = User.objects.create_user(username="stopper", password="x")
            runs: list[tuple[str, Callable[[], tuple[float, int]]]] = [("queued (behind her other turn)",
                                                                          lambda: measure_queued(fake, user))]
            runs += [(phase.name, partial(measure_phase, phase, fake, user)) for phase in PHASES]
            runs.append(("closing words after an accepted note", lambda: measure_accepted(fake, user)))
            print(f"Stop latency, {args.repeat} runs per phase, model silent {SILENT:g} s; milliseconds", flush=True)
            try:
                for name, run in runs:
                    if args.only in name:
                        _report(name, [run() for _ in range(args.repeat)])
            finally:
                background_join(timeout=30)  # before the database goes away under the background threads


def _report(name: str, results: list[tuple[float, int]]) -> None:
    took = [seconds * 1000 for seconds, _late in results]
    print(f"{name:36s} median {statistics.median(took):6.0f}  max {max(took):6.0f}  "
          f"late model words {sum(late for _took, late in results)}", flush=True)


if __name__ == "__main__":
    main()
