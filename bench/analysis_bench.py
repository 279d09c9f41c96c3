"""Benchmark the assistant's analysis tools on the demo student's 20-week board (target < 20 ms each).

    python -m bench.analysis_bench [--repeat 50]

On a fresh migrated database (SQLite in a temporary folder, or ``<name>_bench`` when
``DATABASE_URL`` names MySQL; dropped afterwards) with the demo student of ``make run`` (week 13 of
a 20-week term) and both demo study plans applied, it loads the whole semester as one board
(``board_load``, weeks 1-20; the analysis itself covers today onwards) and times, as the median,
p95 and best of ``--repeat`` calls, the pure core behind each tool:

* ``analyze`` (``analyze_health`` and ``analyze_rhythm``: load, capacity, rhythm, and the decision
  with its candidates checked by the core),
* ``spread_even`` and ``min_context_switch`` over the study blocks still to come,

then the same on the synthetic 20-week board of ``bench.board_bench`` (every day still ahead), and
the workload view's selectors for the demo student (``week_strip``, ``study_chart``, reads included).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from bench.harness import bench_database, django_setup_for_bench, percentile, timed_ms


def timed(call: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """Median, p95 and best milliseconds of ``repeat`` calls."""
    samples = timed_ms(call, repeat)
    return statistics.median(samples), percentile(samples, 0.95), samples[0]


def core_scenarios(board: Any) -> list[tuple[str, Callable[[], object]]]:
    """The pure calls behind the four tools, on one board."""
    from schedule.core.analysis import analysis_window, analyze
    from schedule.core.board import Kind
    from schedule.core.rearrange import min_context_switch, spread_even

    window = analysis_window(board, None, None)
    ahead = [e.id for day in window.days() for e in board.on_day(day)
             if e.kind is Kind.STUDY and not board.is_locked(e)]
    week = [e.id for day in window.days()[:7] for e in board.on_day(day)
            if e.kind is Kind.STUDY and not board.is_locked(e)]
    return [
        ("analyze (analyze_health / analyze_rhythm)", lambda: analyze(board)),
        (f"spread_even, {len(ahead)} blocks still to come", lambda: _tolerant(lambda: spread_even(board, ahead))),
        (f"min_context_switch, the next 7 days' {len(week)} blocks",
         lambda: _tolerant(lambda: min_context_switch(board, week))),
    ]


def _tolerant(call: Callable[[], object]) -> object:
    """A refusal (too few blocks, no room, class order) is an answer too; time it as one."""
    from schedule.core.board_errors import BoardError
    from schedule.core.rearrange import NoRoomError, TooFewBlocksError

    try:
        return call()
    except (BoardError, NoRoomError, TooFewBlocksError) as refusal:
        return refusal


def view_scenarios() -> list[tuple[str, Callable[[], object]]]:
    """The workload view's selectors for the demo student (database reads included)."""
    from django.utils import timezone

    from accounts.models import User
    from board.boards import calendar_get
    from board.workload import study_chart, week_strip

    user = User.objects.get(username="demo")
    now = timezone.now()
    semester = calendar_get(user=user).semester
    week = semester.current_week(now, clamp=True) or 1
    dates = [semester.date_of(week, day) for day in range(1, 8)]
    return [("week_strip (the week board's load strip)", lambda: week_strip(user=user, dates=dates, now=now)),
            ("study_chart (the dashboard's chart, 20 weeks)", lambda: study_chart(user=user, now=now))]


def demo_board() -> Any:
    """The demo student's whole semester as one board, with both demo plans applied."""
    from django.utils import timezone

    from board.boards import board_load, calendar_get
    from board.planning import preview_create
    from board.previews import preview_apply
    from smartmate.demo import seed_demo
    from taskclasses.models import TaskClass

    user, _summary = seed_demo()
    now = timezone.now()
    for class_id in TaskClass.objects.filter(user=user).order_by("pk").values_list("pk", flat=True):
        preview = preview_create(user=user, task_class_ids=[class_id], now=now)
        if preview.placements:
            preview_apply(user=user, preview_id=preview.pk, now=now)
    semester = calendar_get(user=user).semester
    first = semester.date_of(1, 1)
    return board_load(user=user, now=now, first=first, last=first + timedelta(days=7 * semester.weeks - 1))


def _outcome(result: object) -> str:
    """What a call answered: the analysis's score, a rearrangement's figures, or the refusal."""
    if hasattr(result, "score"):
        return f"score {result.score}"
    if hasattr(result, "moves"):
        return f"{len(result.moves)} moves, {result.before} -> {result.after}"  # type: ignore[attr-defined]
    return f"refused: {getattr(result, 'code', type(result).__name__)}"


def synthetic_board() -> Any:
    from bench.board_bench import START, WEEKS, build_board

    return build_board(START, START + timedelta(days=7 * WEEKS - 1), seed=7)


def report(label: str, board: Any, repeat: int) -> list[str]:
    from schedule.core.analysis import analyze

    found = analyze(board)
    lines = [f"{label}: {len(board.entries)} entries, {len(found.days)} days analysed; "
             f"decision {found.decision.primary_problem} -> {found.decision.recommended_operation} "
             f"({len(found.decision.candidates)} candidates)"]
    for name, call in core_scenarios(board):
        median, p95, best = timed(call, repeat)
        lines.append(f"  {name:<52} median {median:6.2f} ms   p95 {p95:6.2f} ms   best {best:6.2f} ms"
                     f"   ({_outcome(call())})")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the figures; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args(argv)

    django_setup_for_bench()
    from django.db import connection

    with bench_database():
        board = demo_board()
        print(f"database {connection.vendor}; {args.repeat} calls each; target < 20 ms each")
        for line in report("demo student, weeks 1-20 (today: week 13)", board, args.repeat):
            print(line)
        print("workload view, demo student (with its database reads):")
        for name, call in view_scenarios():
            median, p95, best = timed(call, args.repeat)
            print(f"  {name:<52} median {median:6.2f} ms   p95 {p95:6.2f} ms   best {best:6.2f} ms")
    for line in report("synthetic 20-week board (bench.board_bench), all ahead", synthetic_board(), args.repeat):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
