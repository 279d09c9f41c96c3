"""``manage.py bench_outbox --events 1000``: outbox throughput and lag on the configured broker."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from smartmate.celery import app
from smartmate.platform.models import ConsumerReceipt, OutboxEvent, OutboxProbe
from smartmate.platform.outbox.probe import TOPIC
from smartmate.platform.outbox.services import outbox_publish

REPO_ROOT = Path(__file__).resolve().parents[3]


class Command(BaseCommand):
    help = ("Publish N outbox.probe events (one transaction each) and measure end-to-end throughput and "
            "created→consumed lag. Needs REDIS_URL; starts one solo worker unless one already answers.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--events", type=int, default=1000)
        parser.add_argument("--aggregates", type=int, default=0,
                            help="spread events over this many ordered aggregates (0: one aggregate per event)")
        parser.add_argument("--rate", type=float, default=0.0,
                            help="publish at most this many events per second (0: as fast as possible)")
        parser.add_argument("--work-ms", type=int, default=0, help="time each consumer spends in its transaction")
        parser.add_argument("--start-worker", choices=["auto", "yes", "no"], default="auto")
        parser.add_argument("--timeout", type=float, default=300.0)
        parser.add_argument("--keep", action="store_true", help="keep the benchmark's rows afterwards")

    def handle(self, *args, **options) -> None:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            raise CommandError("bench_outbox needs a broker and a worker: set REDIS_URL (and DATABASE_URL).")
        worker = self._worker(options["start_worker"])
        prefix = f"bench:{uuid.uuid4().hex[:8]}:"
        try:
            self._run(options, prefix)
        finally:
            if worker is not None:
                worker.terminate()
                worker.wait(timeout=30)
            if not options["keep"]:
                self._clean(prefix)

    def _run(self, options: dict, prefix: str) -> None:
        count, groups = options["events"], options["aggregates"]
        self.paced = bool(options["rate"])
        started = time.perf_counter()
        for seq in range(count):
            if options["rate"]:
                time.sleep(max(0.0, started + seq / options["rate"] - time.perf_counter()))
            aggregate = f"{prefix}{seq % groups if groups else seq}"
            with transaction.atomic():
                outbox_publish(topic=TOPIC, aggregate=aggregate, payload={"seq": seq, "work_ms": options["work_ms"]})
        published = time.perf_counter() - started
        events = OutboxEvent.objects.filter(topic=TOPIC, aggregate__startswith=prefix)
        deadline = time.monotonic() + options["timeout"]
        while events.filter(status__in=OutboxEvent.UNFINISHED).exists():
            if time.monotonic() > deadline:
                raise CommandError(f"Timed out: {events.filter(status__in=OutboxEvent.UNFINISHED).count()} of "
                                   f"{count} events unfinished after {options['timeout']} s.")
            time.sleep(0.05)
        self._report(events, count, published, prefix)

    def _report(self, events, count: int, published: float, prefix: str) -> None:
        rows = list(events.filter(status=OutboxEvent.Status.CONSUMED).values_list("created_at", "consumed_at"))
        lags = sorted((consumed - created).total_seconds() * 1000 for created, consumed in rows)
        span = (max(c for _, c in rows) - min(c for c, _ in rows)).total_seconds()
        cuts = statistics.quantiles(lags, n=100) if len(lags) > 1 else lags * 99
        effects = OutboxProbe.objects.filter(aggregate__startswith=prefix).count()
        self.stdout.write(
            f"events={count} consumed={len(rows)} effects={effects} dead={events.filter(status='dead').count()} "
            f"database={settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}\n"
            f"publish: {count / published:.0f} events/s ({published:.2f} s, one transaction each)"
            f"{' (paced)' if self.paced else ''}\n"
            f"end to end: {count / span:.0f} events/s ({span:.2f} s from first created to last consumed)\n"
            f"lag created→consumed: p50 {cuts[49]:.1f} ms, p95 {cuts[94]:.1f} ms, max {lags[-1]:.1f} ms")

    def _worker(self, mode: str) -> subprocess.Popen | None:
        if mode == "no" or (mode == "auto" and app.control.ping(timeout=1.0)):
            return None
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "smartmate", "worker", "--pool=solo", "-Q", "default,agent,memory",
             "--without-gossip", "--without-mingle", "--loglevel=WARNING", "-n", f"bench-{uuid.uuid4().hex[:6]}@%h"],
            cwd=REPO_ROOT)
        deadline = time.monotonic() + 60
        while not app.control.ping(timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                raise CommandError("The benchmark's worker did not start.")
        self.stdout.write("started one solo worker")
        return process

    def _clean(self, prefix: str) -> None:
        events = OutboxEvent.objects.filter(topic=TOPIC, aggregate__startswith=prefix)
        ConsumerReceipt.objects.filter(event_uuid__in=list(events.values_list("uuid", flat=True))).delete()
        OutboxProbe.objects.filter(aggregate__startswith=prefix).delete()
        events.delete()
