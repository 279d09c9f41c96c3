"""Benchmark the week board page for the demo student: server time, queries and HTML size.

    python -m bench.week_page_bench [--loads 50]

On a fresh migrated database (SQLite in a temporary folder, or ``<name>_bench`` when ``DATABASE_URL``
names MySQL; dropped afterwards) with the demo student of ``manage.py seed_demo`` (week 13 of a
20-week term, the demo timetable with filler courses, quick notes, two study plans) and one of the
plans applied (so the week holds placed study blocks, some inside filler courses), it loads the
student's week board (``board:week``, Chinese) ``--loads`` times through Django's test client,
logged in, and prints the p50 / p95 / best server time (the whole request: middleware, view,
template), the queries one load makes and the HTML's size (raw and gzipped).

The file only uses what every version of the page has, so the same file measures an older tree
too (extract it with ``git archive`` and run it there with that tree on PYTHONPATH).
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.harness import bench_database, django_setup_for_bench, percentile

# Django (models, services, the client) is imported inside functions: main() sets it up first.


def apply_one_plan(user) -> None:
    """Place the demo student's first study plan, as the demo's "apply" does (blocks in free time and fillers)."""
    from django.utils import timezone

    from board.planning import preview_create
    from board.previews import preview_apply
    from taskclasses.models import TaskClass

    now = timezone.now()
    first = TaskClass.objects.filter(user=user).order_by("pk").values_list("pk", flat=True)[:1]
    preview_apply(user=user, preview_id=preview_create(user=user, task_class_ids=list(first), now=now).pk, now=now)


@contextmanager
def counting_queries() -> Iterator[list[int]]:
    """Count the queries of every connection, whichever thread runs the view (async middleware hands the
    view to a worker thread, so a capture on this thread's connection would see none)."""
    from django.db import connections
    from django.db.backends.signals import connection_created

    count = [0]
    active = [True]

    def counter(execute, sql, params, many, context):
        count[0] += active[0]  # a wrapper left on a worker's connection counts no more after the block
        return execute(sql, params, many, context)

    def hook(sender, connection, **kwargs) -> None:
        connection.execute_wrappers.append(counter)

    connection_created.connect(hook)
    for connection in connections.all(initialized_only=True):  # this thread's, already open
        connection.execute_wrappers.append(counter)
    try:
        yield count
    finally:
        active[0] = False
        connection_created.disconnect(hook)


def measure(user, loads: int) -> dict:
    """Load the page ``loads`` times (after one warm-up); return times, queries and sizes."""
    from django.test import Client
    from django.urls import reverse

    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(user)
    path = reverse("board:week")
    with counting_queries() as queries:
        response = client.get(path, secure=True)
    assert response.status_code == 200, response.status_code
    html = response.content
    samples = []
    for _ in range(loads):
        started = time.perf_counter()
        response = client.get(path, secure=True)
        samples.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    return {"html": html, "p50": statistics.median(samples), "p95": percentile(samples, 0.95), "best": min(samples),
            "queries": queries[0], "bytes": len(html), "gzip": len(gzip.compress(html)),
            "blocks": html.count(b'data-block-kind="item"'), "embedded": html.count(b'class="embedded')}


def main(argv: list[str] | None = None) -> int:
    """Print the figures; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=50)
    parser.add_argument("--dump", help="also write the page's HTML to this file")
    args = parser.parse_args(argv)

    django_setup_for_bench(DJANGO_ALLOWED_HOSTS="testserver,127.0.0.1,localhost")
    from django.db import connection
    from django.test.utils import override_settings

    from smartmate.demo import seed_demo

    # The page's {% static %} without a collectstatic manifest (DEBUG is off, as in production).
    plain_static = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    with bench_database(), override_settings(STORAGES=plain_static):
        user, _summary = seed_demo()
        apply_one_plan(user)
        found = measure(user, args.loads)
        if args.dump:
            Path(args.dump).write_bytes(found["html"])
        print(f"database {connection.vendor}; demo student in week 13, one plan applied; {args.loads} loads")
        print(f"week board page   p50 {found['p50']:6.2f} ms   p95 {found['p95']:6.2f} ms   "
              f"best {found['best']:6.2f} ms   {found['queries']} queries")
        print(f"HTML              {found['bytes']:,} bytes ({found['gzip']:,} gzipped); "
              f"{found['blocks']} block handles, {found['embedded']} embedded blocks shown")
    return 0


if __name__ == "__main__":
    sys.exit(main())
