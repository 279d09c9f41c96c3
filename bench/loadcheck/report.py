"""The load check's figures: errors and p50/p95 per step, the wall time, and the data check."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.harness import percentiles
from bench.loadcheck import LoadConfig
from bench.loadcheck.client import STEPS, StudentResult
from bench.loadcheck.verify import DataCheck


@dataclass(frozen=True)
class StepFigures:
    name: str
    ok: int
    errors: Counter
    p50_ms: float
    p95_ms: float
    failed_after: dict[str, float] = field(default_factory=dict)  # error kind → median seconds into the step


@dataclass(frozen=True)
class Report:
    """Everything the run found; ``error_count`` is what must be zero."""

    config: LoadConfig
    setup: str
    steps: list[StepFigures]
    completed: int
    wall_seconds: float
    data: DataCheck

    @property
    def error_count(self) -> int:
        return sum(sum(step.errors.values()) for step in self.steps) + len(self.data.problems)

    def lines(self) -> list[str]:
        """Render the report as printed."""
        lines = [self.setup,
                 f"students {self.config.users}, completed every step {self.completed}, errors {self.error_count}, "
                 f"wall {self.wall_seconds:.1f} s",
                 f"{'step':<17}{'ok':>6}{'errors':>8}{'p50 ms':>10}{'p95 ms':>10}"]
        for step in self.steps:
            lines.append(f"{step.name:<17}{step.ok:>6}{sum(step.errors.values()):>8}"
                         f"{step.p50_ms:>10.1f}{step.p95_ms:>10.1f}")
            lines.extend(f"    {kind} x{count}" + (f", after {step.failed_after[kind]:.1f} s (median)"
                                                     if kind in step.failed_after else "")
                         for kind, count in step.errors.most_common())
        totals = ", ".join(f"{name} {count}" for name, count in self.data.totals.items())
        lines.append(f"data check: {len(self.data.problems)} mismatches; totals: {totals}")
        for kind, statuses in self.data.background.items():
            lines.append(f"  {kind}: " + (", ".join(f"{status} {count}" for status, count in sorted(statuses.items()))
                                          or "none"))
        lines.extend(f"  {problem}" for problem in self.data.problems[:20])
        if len(self.data.problems) > 20:
            lines.append(f"  … and {len(self.data.problems) - 20} more")
        return lines


def report_build(config: LoadConfig, results: Sequence[StudentResult], *, wall: float, data: DataCheck,
                 setup: str) -> Report:
    """Gather the students' results into per-step figures."""
    steps = []
    for name in STEPS:
        seconds = [result.seconds[name] * 1000 for result in results if name in result.seconds]
        failed = [result for result in results if result.failed_step == name]
        errors = Counter(result.failure for result in failed)
        after = {kind: statistics.median(times) for kind in errors
                 if (times := [r.failed_after for r in failed if r.failure == kind and r.failed_after is not None])}
        p50, p95 = percentiles(seconds)
        steps.append(StepFigures(name=name, ok=len(seconds), errors=errors, p50_ms=p50, p95_ms=p95,
                                 failed_after=after))
    stray = Counter(result.failure for result in results if result.failed_step not in (None, *STEPS))
    if stray:
        steps.append(StepFigures(name="(between steps)", ok=0, errors=stray, p50_ms=0.0, p95_ms=0.0))
    return Report(config=config, setup=setup, steps=steps, completed=sum(result.ok for result in results),
                  wall_seconds=wall, data=data)
