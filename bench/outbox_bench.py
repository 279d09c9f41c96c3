"""Outbox throughput and lag on the configured broker.

    python -m bench.outbox_bench [--events 1000] [--aggregates 0] [--rate 0] [--work-ms 0]
                                 [--start-worker auto|yes|no] [--timeout 300] [--keep]

Publishes N ``outbox.probe`` events (one transaction each) and measures end-to-end throughput and
created→consumed lag. Needs ``REDIS_URL`` (and ``DATABASE_URL``); starts one solo worker unless one
already answers. Exits 1 with a message when there is no broker, the worker does not start or the
events do not drain within ``--timeout``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

# Django (settings, models, the outbox services, the Celery app) is imported inside functions: main() sets it up first.

REPO_ROOT = Path(__file__).resolve().parent.parent


class BenchError(Exception):
    """The run cannot go on: no broker, no worker, or events left unfinished."""


def main(argv: list[str] | None = None) -> int:
    """Set up Django, run the benchmark and print its figures; return 1 if it could not run."""
    args = _parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smartmate.settings")
    import django

    django.setup()
    try:
        run(args)
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def run(args: argparse.Namespace) -> None:
    """Start a worker if needed, publish, wait for every event, report; clean up the rows unless ``--keep``."""
    from django.conf import settings

    if settings.CELERY_TASK_ALWAYS_EAGER:
        raise BenchError("outbox_bench needs a broker and a worker: set REDIS_URL (and DATABASE_URL).")
    worker = _worker(args.start_worker)
    prefix = f"bench:{uuid.uuid4().hex[:8]}:"
    try:
        _run(args, prefix)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)
        if not args.keep:
            _clean(prefix)


def _run(args: argparse.Namespace, prefix: str) -> None:
    from django.db import transaction

    from smartmate.platform.models import OutboxEvent
    from smartmate.platform.outbox.probe import TOPIC
    from smartmate.platform.outbox.services import outbox_publish

    count, groups = args.events, args.aggregates
    started = time.perf_counter()
    for seq in range(count):
        if args.rate:
            time.sleep(max(0.0, started + seq / args.rate - time.perf_counter()))
        aggregate = f"{prefix}{seq % groups if groups else seq}"
        with transaction.atomic():
            outbox_publish(topic=TOPIC, aggregate=aggregate, payload={"seq": seq, "work_ms": args.work_ms})
    published = time.perf_counter() - started
    events = OutboxEvent.objects.filter(topic=TOPIC, aggregate__startswith=prefix)
    deadline = time.monotonic() + args.timeout
    while events.filter(status__in=OutboxEvent.UNFINISHED).exists():
        if time.monotonic() > deadline:
            raise BenchError(f"Timed out: {events.filter(status__in=OutboxEvent.UNFINISHED).count()} of "
                             f"{count} events unfinished after {args.timeout} s.")
        time.sleep(0.05)
    _report(events, count, published, prefix, paced=bool(args.rate))


def _report(events, count: int, published: float, prefix: str, *, paced: bool) -> None:
    from django.conf import settings

    from smartmate.platform.models import OutboxEvent, OutboxProbe

    rows = list(events.filter(status=OutboxEvent.Status.CONSUMED).values_list("created_at", "consumed_at"))
    lags = sorted((consumed - created).total_seconds() * 1000 for created, consumed in rows)
    span = (max(c for _, c in rows) - min(c for c, _ in rows)).total_seconds()
    cuts = statistics.quantiles(lags, n=100) if len(lags) > 1 else lags * 99
    effects = OutboxProbe.objects.filter(aggregate__startswith=prefix).count()
    print(
        f"events={count} consumed={len(rows)} effects={effects} dead={events.filter(status='dead').count()} "
        f"database={settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}\n"
        f"publish: {count / published:.0f} events/s ({published:.2f} s, one transaction each)"
        f"{' (paced)' if paced else ''}\n"
        f"end to end: {count / span:.0f} events/s ({span:.2f} s from first created to last consumed)\n"
        f"lag created→consumed: p50 {cuts[49]:.1f} ms, p95 {cuts[94]:.1f} ms, max {lags[-1]:.1f} ms")


def _worker(mode: str) -> subprocess.Popen | None:
    from smartmate.celery import app

    if mode == "no" or (mode == "auto" and app.control.ping(timeout=1.0)):
        return None
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "smartmate", "worker", "--pool=solo", "-Q", "default,agent,memory",
         "--without-gossip", "--without-mingle", "--loglevel=WARNING", "-n", f"bench-{uuid.uuid4().hex[:6]}@%h"],
        cwd=REPO_ROOT)
    deadline = time.monotonic() + 60
    while not app.control.ping(timeout=0.5):
        if process.poll() is not None or time.monotonic() > deadline:
            raise BenchError("The benchmark's worker did not start.")
    print("started one solo worker")
    return process


def _clean(prefix: str) -> None:
    from smartmate.platform.models import ConsumerReceipt, OutboxEvent, OutboxProbe
    from smartmate.platform.outbox.probe import TOPIC

    events = OutboxEvent.objects.filter(topic=TOPIC, aggregate__startswith=prefix)
    ConsumerReceipt.objects.filter(event_uuid__in=list(events.values_list("uuid", flat=True))).delete()
    OutboxProbe.objects.filter(aggregate__startswith=prefix).delete()
    events.delete()


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--aggregates", type=int, default=0,
                        help="spread events over this many ordered aggregates (0: one aggregate per event)")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="publish at most this many events per second (0: as fast as possible)")
    parser.add_argument("--work-ms", type=int, default=0, help="time each consumer spends in its transaction")
    parser.add_argument("--start-worker", choices=["auto", "yes", "no"], default="auto")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--keep", action="store_true", help="keep the benchmark's rows afterwards")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(main())
