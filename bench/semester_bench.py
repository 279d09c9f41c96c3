"""Benchmark starting the next semester and undoing it, on the demo student's full 20-week term.

    python -m bench.semester_bench [--repeat 5]

On a fresh migrated database (as ``bench.analysis_bench``: SQLite in a temporary folder, or
``<name>_bench`` for MySQL) with the demo student and both demo study plans applied, it times, as the
median and best of ``--repeat`` rounds, ``semester_next_start`` (freeze, clear, carry, in one
transaction) and ``semester_next_start_undo`` (every row back), and prints the size of the frozen
document and how long reading a past week (document parse + board layout) and the workload take.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from bench.analysis_bench import demo_board, timed
from bench.harness import bench_database, django_setup_for_bench


def main(argv: list[str] | None = None) -> int:
    """Print the figures; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    django_setup_for_bench()
    from django.db import connection

    with bench_database():
        demo_board()
        _report(args.repeat, connection.vendor)
    return 0


def _report(repeat: int, vendor: str) -> None:
    from accounts.models import User
    from schedule.core.semester_archive import SemesterArchive, workload_of
    from schedule.core.semester_board import week_board
    from schedule.models import ScheduleEvent
    from schedule.semesters.models import Semester
    from taskclasses.models import Task
    from taskclasses.semesters.services import Carry, semester_next_guess, semester_next_start, semester_next_start_undo

    user = User.objects.get(username="demo")
    events = ScheduleEvent.objects.filter(user=user).count()
    guess = semester_next_guess(user=user)
    notes = tuple(Task.objects.filter(user=user, completed=False).values_list("pk", flat=True)[:2])
    starts, undos = [], []
    for _round in range(repeat):
        began = time.perf_counter()
        past = semester_next_start(user=user, first_monday=guess.first_monday, weeks=guess.weeks,
                                   carry=Carry(note_ids=notes, protected=("午饭",)))
        starts.append((time.perf_counter() - began) * 1000)
        document = Semester.objects.get(pk=past.pk).document
        began = time.perf_counter()
        semester_next_start_undo(user=user)
        undos.append((time.perf_counter() - began) * 1000)
    archive = SemesterArchive.from_json(document)
    size = len(json.dumps(document, ensure_ascii=False).encode())
    print(f"database {vendor}; demo student: {events} events on the board, {len(archive.restore)} rows frozen; "
          f"{repeat} rounds")
    print(f"  start the next semester   median {statistics.median(starts):8.1f} ms   best {min(starts):8.1f} ms")
    print(f"  undo the start            median {statistics.median(undos):8.1f} ms   best {min(undos):8.1f} ms")
    print(f"  frozen document           {size / 1024:8.1f} KiB ({len(archive.events)} blocks readable)")
    for name, call in (("read the document", lambda: SemesterArchive.from_json(document)),
                       ("lay out week 13", lambda: week_board(archive, 13)),
                       ("workload of the semester", lambda: workload_of(archive))):
        median, p95, best = timed(call, 50)
        print(f"  {name:<25} median {median:8.2f} ms   p95 {p95:6.2f} ms   best {best:6.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
