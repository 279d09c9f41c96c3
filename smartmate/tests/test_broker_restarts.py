"""Workers survive Redis restarts, and what a restart lost is handed over again as soon as they reconnect.

The end-to-end check runs ``bench.broker_restart_bench`` (its own redis-server, restarted three times
while prefork workers consume outbox events) on the test database, in the MariaDB + Redis CI pass.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Count
from django.utils import timezone
from kombu import Connection

from smartmate.platform import broker
from smartmate.platform.models import OutboxEvent, OutboxProbe
from smartmate.platform.outbox.probe import TOPIC
from smartmate.tests.worker import REPO_ROOT


def test_the_transport_keeps_its_connection_details_when_kombu_clears_them():
    # kombu sets client = None as the connection closes; the restore of unacknowledged messages that
    # follows needs the host and port, and raised AttributeError (fatal to the worker) without them.
    client = Connection("redis://127.0.0.1:1/0", transport=broker.TRANSPORT_PATH)
    transport = client.transport
    assert isinstance(transport, broker.Transport)
    transport.client = None
    assert transport.client is client
    assert transport.client.hostname == "127.0.0.1"


@pytest.mark.worker
def test_the_worker_uses_the_kept_transport_for_a_redis_broker(settings):
    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("no broker configured")
    from smartmate.celery import app

    assert type(app.connection_for_read().transport) is broker.Transport


def _lost_hand_off() -> OutboxEvent:
    """An event handed to Celery a minute ago whose message never reached a worker (Redis lost it)."""
    a_minute_ago = timezone.now() - timedelta(minutes=1)
    return OutboxEvent.objects.create(topic=TOPIC, aggregate="restart:lost", payload={"seq": 1},
                                      status=OutboxEvent.Status.DISPATCHED, next_attempt_at=a_minute_ago,
                                      dispatched_at=a_minute_ago)


@pytest.mark.django_db(transaction=True)
def test_a_worker_connecting_hands_over_again_what_waits_once_per_outage(settings):
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("runs the resend in process (eager Celery); the worker pass runs the restart bench below")
    from django.core.cache import cache

    cache.delete("broker:resend-after-connect")
    event = _lost_hand_off()

    counts = broker.resend_after_broker_loss()

    assert counts["outbox_events"] == 1
    assert counts["memory_jobs"] == counts["agent_turns"] == 0
    event.refresh_from_db()
    assert event.status == OutboxEvent.Status.CONSUMED
    assert OutboxProbe.objects.filter(event_uuid=event.uuid).count() == 1
    # The other workers reconnecting in the same moment leave it to the first.
    assert broker.resend_after_broker_loss() == {}


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_three_redis_restarts_kill_no_worker_and_lose_no_event(settings):
    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("no broker configured: the restart test runs in the MariaDB + Redis CI pass")
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    env = {**os.environ, "DATABASE_NAME_OVERRIDE": str(connection.settings_dict["NAME"])}
    run = subprocess.run([sys.executable, "-m", "bench.broker_restart_bench", "--restarts", "3", "--workers", "2",
                          "--rate", "20"], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=400)
    print(run.stdout)
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    assert "result: ok" in run.stdout
    events = OutboxEvent.objects.filter(topic=TOPIC)
    assert events.count() > 60
    assert not events.exclude(status=OutboxEvent.Status.CONSUMED).exists()
    applied = OutboxProbe.objects.values("event_uuid").annotate(n=Count("pk"))
    assert applied.count() == events.count()
    assert not applied.filter(n__gt=1).exists()
