"""The report of the load check through the topology: each run's figures, then p50/p95 side by side and their ratio."""

from __future__ import annotations

import math
from collections import Counter

from bench.loadcheck import LoadConfig
from bench.loadcheck.report import Report, StepFigures
from bench.loadcheck.scaling import ScalingRun, p50_ratio, scaling_lines
from bench.loadcheck.verify import DataCheck


def _report(users: int, steps: dict[str, tuple[float, float]], *, wall: float, failed: Counter | None = None) -> Report:
    figures = [StepFigures(name=name, ok=users, errors=Counter(), p50_ms=p50, p95_ms=p95)
               for name, (p50, p95) in steps.items()]
    if failed:
        figures.append(StepFigures(name="(between steps)", ok=0, errors=failed, p50_ms=0.0, p95_ms=0.0))
    return Report(config=LoadConfig(users=users), setup="setup", steps=figures, completed=users, wall_seconds=wall,
                  data=DataCheck())


def test_the_ratio_is_the_first_runs_p50_over_the_seconds_and_undefined_without_a_figure():
    assert p50_ratio(300.0, 150.0) == 2.0
    assert math.isnan(p50_ratio(0.0, 150.0)) and math.isnan(p50_ratio(300.0, 0.0))


def test_the_comparison_puts_each_step_of_both_runs_side_by_side_with_the_ratio():
    one = ScalingRun(processes=1, url="http://127.0.0.1:1", report=_report(
        4, {"login": (2000.0, 2600.0), "chat_turn": (900.0, 1200.0)}, wall=8.0))
    two = ScalingRun(processes=2, url="http://127.0.0.1:2", report=_report(
        4, {"login": (1000.0, 1300.0), "chat_turn": (1800.0, 2000.0)}, wall=4.0, failed=Counter(timeout=1)))

    lines = scaling_lines([one, two])

    assert lines[0] == "=== 1 web process (through http://127.0.0.1:1) ==="
    assert "=== 2 web processes (through http://127.0.0.1:2) ===" in lines
    table = lines[lines.index("=== p50 / p95 in ms: 1 web process vs 2 web processes ===") + 2:]
    assert [line.split() for line in table[:5]] == [
        ["login", "2000.0", "2600.0", "1000.0", "1300.0", "2.00"],
        ["chat_turn", "900.0", "1200.0", "1800.0", "2000.0", "0.50"],
        ["(between", "steps)", "0.0", "0.0", "0.0", "0.0", "nan"],
        ["wall", "8000", "4000", "2.00"],
        ["completed", "every", "step:", "4/4", "vs", "4/4;", "errors", "0", "vs", "1"],
    ]
