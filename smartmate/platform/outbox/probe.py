"""``outbox.probe``: a real, ordered consumer that writes one row per event.

It exists to prove the pipeline end to end (the chaos test, ``bench.outbox_bench``, a manual smoke test).
The payload may ask it to sleep inside its transaction (``work_ms``) or to fail (``fail``) so tests
can place a crash or an error exactly where they want.
"""

from __future__ import annotations

import os
import time

from smartmate.platform.models import OutboxEvent, OutboxProbe
from smartmate.platform.outbox.registry import PermanentError, consumes, topic_register

TOPIC = "outbox.probe"

topic_register(TOPIC, queue="default", ordered=True)


@consumes(TOPIC, name="probe.record")
def record(event: OutboxEvent) -> None:
    """Record that this event took effect, in this worker process."""
    payload = event.payload
    if payload.get("fail") == "permanent":
        raise PermanentError("the probe was asked to fail for good")
    if payload.get("fail") == "transient":
        raise RuntimeError("the probe was asked to fail this time")
    OutboxProbe.objects.create(event_uuid=event.uuid, aggregate=event.aggregate, seq=payload.get("seq", 0),
                               worker_pid=os.getpid())
    if payload.get("work_ms"):
        time.sleep(payload["work_ms"] / 1000)
