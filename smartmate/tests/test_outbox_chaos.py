"""Chaos: a real worker killed with SIGKILL again and again loses no outbox event and applies none twice.

500 ``outbox.probe`` events (10 ordered aggregates) go through Redis to a solo worker on the test
database. The worker is killed at four points of the run and restarted; the sweeper (beat's job)
reclaims what the dead workers held. Every event must then have exactly one effect, in order per
aggregate. Runs in the MariaDB + Redis CI pass.
"""

from __future__ import annotations

import os
import signal
import time
from collections import defaultdict
from collections.abc import Callable

import pytest
from django.db import transaction

from smartmate.platform.models import ConsumerReceipt, OutboxEvent, OutboxProbe
from smartmate.platform.outbox.probe import TOPIC
from smartmate.platform.outbox.services import outbox_publish, outbox_sweep
from smartmate.tests.worker import worker_start, worker_stop

EVENTS = 500
AGGREGATES = 10
KILL_AT = (60, 160, 270, 380)  # consumed counts at which the worker gets SIGKILL
BUDGET_SECONDS = 85


def _wait_until(condition: Callable[[], bool], deadline: float) -> None:
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the chaos run went over its time budget")
        time.sleep(0.02)


def _publish_all() -> None:
    for batch in range(0, EVENTS, 50):
        with transaction.atomic():  # one business transaction per 50 events; dispatched on commit
            for i in range(batch, batch + 50):
                outbox_publish(topic=TOPIC, aggregate=f"chaos:{i % AGGREGATES}",
                               payload={"seq": i // AGGREGATES, "work_ms": 3})


def _consumed() -> int:
    return OutboxEvent.objects.filter(status=OutboxEvent.Status.CONSUMED).count()


def _drain_with_sweeps(deadline: float) -> int:
    """Let the worker finish; whenever progress stalls, run the sweeper as beat would. Return sweeps."""
    sweeps, last, last_change = 0, -1, time.monotonic()
    while (done := _consumed()) < EVENTS:
        if done != last:
            last, last_change = done, time.monotonic()
        elif time.monotonic() - last_change > 1.0:
            outbox_sweep()
            sweeps, last_change = sweeps + 1, time.monotonic()
        if time.monotonic() > deadline:
            raise AssertionError(f"only {done} of {EVENTS} events consumed within the budget")
        time.sleep(0.05)
    return sweeps


@pytest.mark.worker
def test_killing_the_worker_repeatedly_loses_no_event_and_repeats_none(transactional_db, settings, tmp_path):
    from django.db import connection

    from smartmate.celery import app

    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("no broker configured: the chaos test runs in the MariaDB + Redis CI pass")
    settings.OUTBOX_CLAIM_TIMEOUT = 2  # the sweeper here reclaims a dead worker's claim after 2 s
    settings.OUTBOX_DISPATCH_TIMEOUT = 3  # and re-sends a message lost with it after 3 s
    app.control.purge()
    started = time.monotonic()
    deadline = started + BUDGET_SECONDS
    _publish_all()
    with open(tmp_path / "worker.log", "wb") as log:
        worker = worker_start(log=log, database_name=str(connection.settings_dict["NAME"]))
        try:
            for threshold in KILL_AT:
                _wait_until(lambda threshold=threshold: _consumed() >= threshold, deadline)
                os.kill(worker.pid, signal.SIGKILL)
                worker.wait()
                worker = worker_start(log=log, database_name=str(connection.settings_dict["NAME"]))
            sweeps = _drain_with_sweeps(deadline)
        finally:
            worker_stop(worker)
    elapsed = time.monotonic() - started

    events = OutboxEvent.objects.all()
    effects = list(OutboxProbe.objects.order_by("pk").values_list("event_uuid", "aggregate", "seq"))
    assert events.filter(status=OutboxEvent.Status.CONSUMED).count() == EVENTS
    assert len(effects) == EVENTS  # nothing applied twice ...
    assert {uuid for uuid, _, _ in effects} == set(events.values_list("uuid", flat=True))  # ... nothing lost
    assert ConsumerReceipt.objects.count() == EVENTS
    order: dict[str, list[int]] = defaultdict(list)
    for _, aggregate, seq in effects:
        order[aggregate].append(seq)
    assert all(seqs == sorted(seqs) for seqs in order.values())
    assert elapsed < 90
    retried = events.filter(attempts__gt=1).count()
    print(f"chaos: {EVENTS} events, {len(KILL_AT)} SIGKILLs, {retried} events claimed more than once, "
          f"{sweeps} sweeps, {elapsed:.1f} s")
