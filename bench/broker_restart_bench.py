"""Celery workers through Redis restarts: none dies, no outbox event is lost or applied twice.

    DATABASE_URL=mysql://smartmate:smartmate@127.0.0.1:3306/smartmate \\
    python -m bench.broker_restart_bench [--restarts 10] [--workers 2] [--rate 40] [--down-seconds 2]

It starts a redis-server of its own (a free port, a temporary folder; nobody else's Redis is touched)
and points this process and its workers at it. Two prefork workers consume ``outbox.probe`` events
that this process publishes at ``--rate`` per second while Redis is stopped and started again and
again (``shutdown nosave``: the queues are lost with it, as after a crash of a Redis without
persistence). This process also plays beat, running the outbox sweep every second.

Per restart it prints whether every worker is still running and how long after Redis came back a
fresh event was consumed. At the end: events published / consumed once / applied twice / lost, and
how many the sweep had to send again. Exits 1 if a worker died or an event was lost or doubled.
Use a database whose outbox nobody else is using (its probe rows are deleted first).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from smartmate.tests.own_redis import OwnRedis

REPO_ROOT = Path(__file__).resolve().parent.parent
RECOVERY_LIMIT = 60.0  # a fresh event not consumed this long after Redis is back counts as a failure


def _wait(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def main(argv: list[str] | None = None) -> int:
    args = _parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="broker-restart-") as folder:
        redis = OwnRedis(Path(folder))
        redis.start()
        try:
            # Before Django is set up, so this process's Celery app publishes to the run's own Redis.
            os.environ.update({"REDIS_URL": redis.url, "CELERY_BROKER_URL": redis.url,
                               "CELERY_RESULT_BACKEND": redis.url, "OUTBOX_BACKGROUND_IN_PROCESS": "0"})
            os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smartmate.settings")
            import django

            django.setup()
            # Every outage logs a traceback per refused hand-off; the figures below are what matters.
            logging.disable(logging.CRITICAL)
            return run(args, redis, Path(folder))
        finally:
            redis.stop()


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--restarts", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rate", type=float, default=40.0, help="events published per second")
    parser.add_argument("--down-seconds", type=float, default=2.0, help="how long Redis stays stopped")
    parser.add_argument("--up-seconds", type=float, default=3.0, help="how long Redis runs between restarts")
    return parser.parse_args(argv)


def run(args: argparse.Namespace, redis: OwnRedis, logs: Path) -> int:
    from django.conf import settings

    from smartmate.platform.models import OutboxEvent, OutboxProbe
    from smartmate.tests.worker import worker_start, worker_stop

    # This process is beat's sweeper, with the production timeouts: a hand-off lost with Redis is sent
    # again by the worker that reconnects (smartmate.platform.broker), not minutes later by the sweep.
    OutboxProbe.objects.all().delete()
    OutboxEvent.objects.filter(topic="outbox.probe").delete()
    log = open(logs / "workers.log", "ab")  # the workers write to it for their whole life
    database = str(settings.DATABASES["default"]["NAME"])
    workers = [worker_start(log=log, database_name=database, pool="prefork", name=f"restart{n}-{os.getpid()}@%h")
               for n in range(args.workers)]
    publisher = Publisher(args.rate)
    sweeper = Sweeper()
    failures: list[str] = []
    try:
        first = publisher.canary()
        if not _wait(lambda: _consumed(first), 60):
            raise RuntimeError("the workers did not start consuming within a minute")
        publisher.start()
        sweeper.start()
        print("restart  workers running  fresh event consumed after Redis is back")
        for number in range(1, args.restarts + 1):
            time.sleep(args.up_seconds)
            redis.stop()
            time.sleep(args.down_seconds)
            redis.start()
            back = time.monotonic()
            recovered = _wait(partial(_consumed, publisher.canary()), RECOVERY_LIMIT)
            running = sum(worker.poll() is None for worker in workers)
            seconds = f"{time.monotonic() - back:.1f} s" if recovered else f"not within {RECOVERY_LIMIT:.0f} s"
            print(f"{number:>7}  {running}/{len(workers):<14} {seconds}")
            if running < len(workers):
                failures.append(f"restart {number}: {len(workers) - running} worker(s) exited")
            if not recovered:
                failures.append(f"restart {number}: no event consumed within {RECOVERY_LIMIT:.0f} s")
        publisher.stop()
        last_back = time.monotonic()
        drained = _wait(lambda: not OutboxEvent.objects.filter(topic="outbox.probe").exclude(
            status=OutboxEvent.Status.CONSUMED).exists(), 120)
        print(f"every event consumed {time.monotonic() - last_back:.1f} s after publishing stopped" if drained
              else "events left unconsumed two minutes after publishing stopped")
    finally:
        publisher.stop()
        sweeper.stop()
        for worker in workers:
            worker_stop(worker)
        log.close()
    return _report(publisher, sweeper, drained, failures)


def _consumed(event_uuid: str) -> bool:
    from smartmate.platform.models import OutboxProbe

    return OutboxProbe.objects.filter(event_uuid=event_uuid).exists()


def _report(publisher: Publisher, sweeper: Sweeper, drained: bool, failures: list[str]) -> int:
    from django.db.models import Count

    from smartmate.platform.models import OutboxEvent, OutboxProbe

    events = OutboxEvent.objects.filter(topic="outbox.probe")
    applied = dict(OutboxProbe.objects.values_list("event_uuid").annotate(n=Count("pk")).values_list("event_uuid", "n"))
    published = events.count()
    twice = sum(1 for n in applied.values() if n > 1)
    lost = published - len(applied)
    print(f"events published {published} (publish refused while Redis was down: {publisher.refused}); "
          f"consumed once {published - lost - twice}; applied twice {twice}; lost {lost}; "
          f"sent again by the sweep {sweeper.redispatched}")
    if not drained:
        failures.append("events were still unconsumed two minutes after the last restart")
    if twice or lost:
        failures.append(f"{twice} event(s) applied twice, {lost} lost")
    for failure in failures:
        print(f"FAIL {failure}")
    print("result:", "FAIL" if failures else "ok")
    return 1 if failures else 0


class Publisher(threading.Thread):
    """Publish ``outbox.probe`` events at a steady rate, as requests do, through every outage."""

    def __init__(self, rate: float) -> None:
        super().__init__(daemon=True)
        self.interval, self.refused, self.sequence = 1 / rate, 0, 0
        self._stop_event = threading.Event()

    def canary(self) -> str:
        """Publish one event now and return its uuid."""
        from django.db import close_old_connections, transaction

        from smartmate.platform.outbox.probe import TOPIC
        from smartmate.platform.outbox.services import outbox_publish

        self.sequence += 1
        # Each event its own aggregate: one lost with Redis must not hold the next back (the topic is ordered).
        with transaction.atomic():
            event = outbox_publish(topic=TOPIC, aggregate=f"restart:{self.sequence}", payload={"seq": self.sequence})
        close_old_connections()
        return str(event.uuid)

    def run(self) -> None:
        from django.db import connection

        while not self._stop_event.wait(self.interval):
            try:
                self.canary()
            except Exception:  # noqa: BLE001 - the request fails, the student retries; count it
                self.refused += 1
        connection.close()

    def stop(self) -> None:
        self._stop_event.set()


class Sweeper(threading.Thread):
    """Beat's outbox sweep, once a second."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.redispatched = 0
        self._stop_event = threading.Event()

    def run(self) -> None:
        from django.db import connection

        from smartmate.platform.outbox.services import outbox_sweep

        while not self._stop_event.wait(1.0):
            try:
                self.redispatched += outbox_sweep()["redispatched"]
            except Exception:  # noqa: BLE001 - beat logs and runs again
                pass
        connection.close()

    def stop(self) -> None:
        self._stop_event.set()


if __name__ == "__main__":
    sys.exit(main())
