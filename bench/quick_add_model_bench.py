"""Benchmark quick add's two paths: the rules alone, and the model's refinement of uncertain lines.

    python -m bench.quick_add_model_bench [--lines 300] [--model-delay 0]

Over the committed phrase fixtures (bench/quick_add_bench.py's lines), in a fresh migrated database
with one student:

- rules: ``quick_note_parse`` (the parser plus the student's lessons and remembered readings, as the
  page's preview runs it), p50 / p95 per line;
- model: ``quick_note_refine`` for every line whose parse has doubts, end to end (the rules, the quota
  reservation, a real HTTP call through the OpenAI client to the scripted fake model, the strict
  reading of its JSON, the merge), p50 / p95 per line, with the outcomes. The fake answers at once
  (``--model-delay`` adds a pretend model latency), so the figure is what the path costs beyond the
  model itself; a real model's latency adds to it and is capped by the 2 s budget.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.harness import bench_database, django_setup_for_bench
from bench.quick_add_bench import load_lines, percentile

WARMUP = 5


def careful_model(delay: float) -> Callable[[Any], dict]:
    """A fake model that keeps the rules' title and quadrant and narrows their readings to the last one."""
    def answer(request: Any) -> dict:
        rules = json.loads(request.messages[-1]["content"])["rules"]
        readings = [{"date": day, "time": None} for day in rules["readings"][-1:]]
        reply = {"title": rules["title"], "quadrant": rules["quadrant"], "readings": readings}
        return {"text": json.dumps(reply, ensure_ascii=False), "delay": delay}
    return answer


def report(name: str, samples: list[float]) -> str:
    return (f"{name}: {len(samples)} lines, ms p50 {statistics.median(samples):.3f}  "
            f"p95 {percentile(samples, 0.95):.3f}  max {max(samples):.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=300, help="at most this many fixture lines")
    parser.add_argument("--model-delay", type=float, default=0.0, help="seconds the fake model waits")
    args = parser.parse_args()

    from bench.fake_model import FakeLLMServer

    with FakeLLMServer() as fake:
        django_setup_for_bench(LLM_BASE_URL=fake.base_url, LLM_API_KEY="bench", LLM_MAX_RETRIES="0")
        fake.set_responder(careful_model(args.model_delay))
        with bench_database():
            return run(args.lines)


def run(limit: int) -> int:
    from accounts.models import User
    from taskclasses.notes.refine import quick_note_refine
    from taskclasses.notes.services import quick_note_parse

    student = User.objects.create_user(username="bench", password="bench-password")
    User.objects.filter(pk=student.pk).update(token_limit=10**9)
    student.refresh_from_db()
    lines = load_lines()[:limit]
    for text, now, _tz, _start in lines[:WARMUP]:  # compile the rules, build the client, warm the connection
        quick_note_parse(user=student, text=text, now=now)
        quick_note_refine(user=student, text=text, now=now)

    rules_ms, uncertain = [], []
    for text, now, _tz, _start in lines:
        started = time.perf_counter()
        parsed = quick_note_parse(user=student, text=text, now=now)
        rules_ms.append((time.perf_counter() - started) * 1000)
        if parsed.doubts:
            uncertain.append((text, now))
    outcomes: collections.Counter[str] = collections.Counter()
    model_ms = []
    for text, now in uncertain:
        started = time.perf_counter()
        outcomes[quick_note_refine(user=student, text=text, now=now).outcome] += 1
        model_ms.append((time.perf_counter() - started) * 1000)

    print(report("rules (quick_note_parse)", rules_ms))
    print(f"uncertain lines: {len(uncertain)} of {len(lines)} ({100 * len(uncertain) / len(lines):.1f} %)")
    print(report("model path (quick_note_refine, fake model)", model_ms))
    print("outcomes: " + ", ".join(f"{name} {count}" for name, count in outcomes.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
