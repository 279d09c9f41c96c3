"""Benchmark re-importing the demo timetable with three courses changed: the diff, the sync and its undo.

    python -m bench.reimport_bench [--repeat 15]

On a fresh migrated database (SQLite in a temporary folder, or ``<name>_bench`` when
``DATABASE_URL`` names MySQL; dropped afterwards) with the demo student of ``make run`` (week 13 of
a 20-week term, the demo timetable with filler courses, quick notes, two study plans, one applied),
it re-imports the demo CSV (schedule/demo_data) with three courses changed: one dropped
(离散数学, two weekly rows), one moved (Monday's 大学英语(二) from sections 3-4 to 11-12) and one
with other weeks and another room (线性代数, weeks 1-16 to 1-12). It prints what the diff holds
(courses, meetings, displaced blocks) and, as the median (p50) and best of ``--repeat`` runs with
the queries one run makes:

* the diff: ``timetable_sync(dry_run=True)`` (parse, compare, find displaced blocks);
* the sync: ``timetable_sync`` with the diff's digest (lift blocks, write the rows, the change set);
* its undo: ``changeset_undo`` (restore every row with its id, put the blocks back), which also
  returns the database to the demo timetable for the next run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from bench.harness import bench_database, django_setup_for_bench

# Django (models, services, the connection) is imported inside functions: main() sets it up first.

T = TypeVar("T")

DROPPED = "离散数学,"
MOVED = ("大学英语(二),1,3,4,李雪梅,三教3210,1-16", "大学英语(二),1,11,12,李雪梅,三教3210,1-16")
REWEEKED = ("线性代数,2,1,2,陈志强,二教2412,1-16", "线性代数,2,1,2,陈志强,二教2420,1-12")


def changed_timetable() -> bytes:
    """The demo CSV with three courses changed (one dropped, one moved, one with other weeks and room)."""
    from schedule.demo import DEMO_TIMETABLE

    lines = DEMO_TIMETABLE.read_text("utf-8").strip().splitlines()
    kept = [line for line in lines if not line.startswith(DROPPED)]
    changed = [line.replace(*MOVED).replace(*REWEEKED) for line in kept]
    return ("\n".join(changed) + "\n").encode("utf-8")


def measured(call: Callable[[], T]) -> tuple[float, T, int]:
    """Milliseconds of one call, its result, and the queries it made."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        result = call()
        elapsed = (time.perf_counter() - started) * 1000
    return elapsed, result, len(queries.captured_queries)


def run(user, data: bytes, repeat: int) -> list[str]:
    """Time the diff, the sync and its undo ``repeat`` times each; return the report's lines."""
    from board.previews import changeset_undo
    from board.timetable_edits import timetable_sync

    samples: dict[str, list[float]] = {"diff": [], "sync": [], "undo": []}
    queries: dict[str, int] = {}
    plan = None
    for _ in range(repeat):
        elapsed, diff, queries["diff"] = measured(partial(timetable_sync, user=user, data=data, fmt="csv",
                                                          dry_run=True))
        samples["diff"].append(elapsed)
        plan = diff.plan
        assert plan is not None
        elapsed, synced, queries["sync"] = measured(partial(timetable_sync, user=user, data=data, fmt="csv",
                                                            expected=plan.digest))
        samples["sync"].append(elapsed)
        assert synced.changeset_id is not None
        elapsed, _undone, queries["undo"] = measured(partial(changeset_undo, user=user,
                                                             changeset_id=synced.changeset_id))
        samples["undo"].append(elapsed)
    assert plan is not None
    lines = [f"diff: {len(plan.courses)} courses ({plan.added} added, {plan.changed} changed, {plan.removed} "
             f"removed, {plan.unchanged} unchanged), {plan.meetings_added} meetings added, "
             f"{plan.meetings_removed} removed, {len(plan.displaced)} blocks displaced, "
             f"{len(plan.conflicts)} conflicts"]
    for name, label in (("diff", "diff (dry run)"), ("sync", "sync (confirm)"), ("undo", "undo of the sync")):
        values = samples[name]
        lines.append(f"{label:<18} p50 {statistics.median(values):7.2f} ms   best {min(values):7.2f} ms   "
                     f"{queries[name]} queries")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the figures; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args(argv)

    django_setup_for_bench()
    from django.db import connection

    from smartmate.demo import seed_demo

    with bench_database():
        user, _summary = seed_demo()
        print(f"database {connection.vendor}; demo student in week 13; {args.repeat} runs each")
        for line in run(user, changed_timetable(), args.repeat):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
