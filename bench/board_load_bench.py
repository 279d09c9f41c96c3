"""Benchmark building the editing core's board from the database, for the demo student.

    python -m bench.board_load_bench [--repeat 200]

On a fresh migrated database (SQLite in a temporary folder, or ``<name>_bench`` when
``DATABASE_URL`` names MySQL; dropped afterwards) with the demo student of ``make run`` (week 13 of
a 20-week term, the demo timetable with filler courses, quick notes, two study plans, one of them
applied), it times, each as the median and best of ``--repeat`` calls, with the queries each makes:

* ``board_load`` for the demo student's current week (7 days, Monday to Sunday): the issue's
  "under 5 ms for the demo student's week";
* the same week with both study plans being planned (their waiting blocks on the board);
* the assistant's window (today through the plans' ends) and the preview drag's board
  (``preview_board``: the plans' windows with an open preview laid over them).

Building the board in memory (no database) is measured by ``bench.board_bench``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from bench.harness import bench_database, django_setup_for_bench, timed_ms

# Django (models, services, the connection) is imported inside functions: main() sets it up first.


def timed(call: Callable[[], object], repeat: int) -> tuple[float, float, int]:
    """Median and best milliseconds of ``repeat`` calls, and the queries one call makes."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        call()
    samples = timed_ms(call, repeat)
    return statistics.median(samples), samples[0], len(queries.captured_queries)


def scenarios(user) -> list[tuple[str, Callable[[], Any]]]:
    """What to time, for a student with the demo data (one of their plans applied, one previewed)."""
    from django.utils import timezone

    from agent.tools.support.working_schedule import working_load
    from board.boards import board_load, calendar_get
    from board.planning import preview_create
    from board.preview_boards import preview_board
    from board.previews import preview_apply
    from taskclasses.models import TaskClass

    now = timezone.now()
    classes = list(TaskClass.objects.filter(user=user).order_by("pk").values_list("pk", flat=True))
    if not user.changesets.exists():
        preview_apply(user=user, preview_id=preview_create(user=user, task_class_ids=classes[:1], now=now).pk,
                      now=now)
    preview = preview_create(user=user, task_class_ids=classes[1:], now=now)
    today = calendar_get(user=user).semester.local_date(now)
    monday = today - timedelta(days=today.weekday())
    week = {"user": user, "now": now, "first": monday, "last": monday + timedelta(days=6)}
    return [
        ("board_load, the demo student's week (7 days)", lambda: board_load(**week)),
        ("board_load, the week with both plans planned", lambda: board_load(**week, class_ids=classes)),
        ("working_load, the assistant's window (both plans)",
         lambda: working_load(user=user, now=now, task_class_ids=classes)),
        ("preview_board, the drag's board of an open preview", lambda: preview_board(user=user, preview=preview,
                                                                                      now=now)),
    ]


def report(user, repeat: int) -> list[str]:
    """One line per scenario: median and best milliseconds, queries, entries on the board."""
    lines = []
    for label, call in scenarios(user):
        median, best, queries = timed(call, repeat)
        board = call()
        entries = len(getattr(board, "board", board).entries)
        lines.append(f"{label:<54} median {median:6.2f} ms   best {best:6.2f} ms   "
                     f"{queries} queries, {entries} entries")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the figures; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args(argv)

    django_setup_for_bench()
    from django.db import connection

    from smartmate.demo import seed_demo

    with bench_database():
        user, _summary = seed_demo()
        print(f"database {connection.vendor}; demo student in week 13; {args.repeat} calls each")
        for line in report(user, args.repeat):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
