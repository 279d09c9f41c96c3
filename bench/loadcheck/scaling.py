"""The load check through the topology's proxy, once with one web process and once with all of them.

Both runs go through nginx to the same workers, database and model: the first through the door of
nginx pinned to ``web-0`` (``topology_running(pinned=True)``), the second through the students' own,
unpinned door. Only the number of daphne processes serving the students differs. Each run seeds
students of its own; the report is each run's figures and, per step, p50/p95 side by side with the
ratio of the p50s (above 1: the second run was faster).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.loadcheck import LoadConfig
from bench.loadcheck.report import Report, StepFigures
from bench.loadcheck.run import loadcheck_run
from bench.topology import Topology


@dataclass(frozen=True)
class ScalingRun:
    """One load check: how many web processes served it, through which door, and what it found."""

    processes: int
    url: str
    report: Report

    @property
    def label(self) -> str:
        return f"{self.processes} web process" + ("" if self.processes == 1 else "es")


def scaling_run(config: LoadConfig, *, topology: Topology, database_name: str, folder: Path,
                redis_url: str) -> list[ScalingRun]:
    """Run the load check through ``topology``'s door to one process, then through its door to all of them."""
    if not topology.pinned_urls:
        raise ValueError("the topology has no door per process: start it with topology_running(pinned=True)")
    doors = [(1, topology.pinned_urls[0]), (len(topology.web_urls), topology.url)]
    runs = []
    for processes, url in doors:
        run_folder = folder / f"web-{processes}"
        run_folder.mkdir(parents=True, exist_ok=True)
        report = loadcheck_run(config, database_name=database_name, folder=run_folder, redis_url=redis_url,
                               urls=[url])
        runs.append(ScalingRun(processes=processes, url=url, report=report))
    return runs


def p50_ratio(slower: float, faster: float) -> float:
    """``slower / faster``, or NaN when a step has no figure in either run (every student failed before it)."""
    return slower / faster if slower and faster else math.nan


def _step(report: Report, name: str) -> StepFigures:
    """A step's figures in ``report``; an empty one when the report has no such line."""
    return next((step for step in report.steps if step.name == name),
                StepFigures(name=name, ok=0, errors=Counter(), p50_ms=0.0, p95_ms=0.0))


def scaling_lines(runs: Sequence[ScalingRun]) -> list[str]:
    """Each run's report, then per step p50/p95 of the first and last run and the ratio of their p50s."""
    lines = []
    for run in runs:
        lines += [f"=== {run.label} (through {run.url}) ===", *run.report.lines()]
    first, last = runs[0], runs[-1]
    lines += [f"=== p50 / p95 in ms: {first.label} vs {last.label} ===",
              f"{'step':<17}{'p50':>10}{'p95':>10}{'p50':>10}{'p95':>10}{'p50 ratio':>11}"]
    for name in dict.fromkeys([step.name for step in first.report.steps + last.report.steps]):
        one, many = _step(first.report, name), _step(last.report, name)
        lines.append(f"{name:<17}{one.p50_ms:>10.1f}{one.p95_ms:>10.1f}{many.p50_ms:>10.1f}{many.p95_ms:>10.1f}"
                     f"{p50_ratio(one.p50_ms, many.p50_ms):>11.2f}")
    lines.append(f"{'wall':<17}{first.report.wall_seconds * 1000:>10.0f}{'':>10}"
                 f"{last.report.wall_seconds * 1000:>10.0f}{'':>10}"
                 f"{p50_ratio(first.report.wall_seconds, last.report.wall_seconds):>11.2f}")
    lines.append(f"completed every step: {first.report.completed}/{first.report.config.users} vs "
                 f"{last.report.completed}/{last.report.config.users}; errors {first.report.error_count} vs "
                 f"{last.report.error_count}")
    return lines
