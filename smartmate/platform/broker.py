"""The Redis broker transport the Celery workers use: kombu's, made to survive a Redis restart.

When Redis goes away, the worker closes its connection and kombu tries to put the messages it holds
unacknowledged back on their queues. By then kombu has already let go of the transport's connection
details (``Transport.client = None``, to break a reference cycle), so building the Redis client for
the restore raised ``AttributeError: 'NoneType' object has no attribute 'hostname'``. That is not a
connection error, so Celery treated it as unrecoverable and the worker process exited: 4 of 8 Redis
restarts left no worker running (kombu 5.7).

Here the transport keeps the last connection it was given. The restore then fails the way it should
while Redis is down, with a connection error that Celery ignores, and the worker reconnects. The
messages it could not put back are not lost for good: every task here is redone from its database
row (the outbox sweep re-dispatches events, the turn and memory sweepers redo their jobs).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import bootsteps
from django.core.cache import cache
from django.dispatch import Signal
from kombu.transport import redis

logger = logging.getLogger(__name__)

# Celery's ``broker_transport`` setting names this class for redis:// and rediss:// broker URLs.
TRANSPORT_PATH = "smartmate.platform.broker:Transport"


class Transport(redis.Transport):
    """kombu's Redis transport whose ``client`` outlives the close that clears it."""

    _kept_client: Any = None

    @property
    def client(self) -> Any:
        return self._kept_client

    @client.setter
    def client(self, value: Any) -> None:
        # Clearing is ignored: a channel closing after its connection still needs the host and port.
        if value is not None:
            self._kept_client = value


# --- After a (re)connection ------------------------------------------------------------------------

#: Sent in a worker when one of them (re)connected to the broker: apps hand over again what waits in
#: their tables for a worker, since a restarted Redis may have come back without those messages.
broker_connected = Signal()

RESEND_TASK = "smartmate.resend_after_broker_loss"
# Several workers reconnect at once after an outage; one resend is enough.
RESEND_LOCK_SECONDS = 10


class ResendAfterConnect(bootsteps.StartStopStep):  # type: ignore[misc]  # celery ships no types
    """A worker consumer step: each time the consumer starts (boot, and after every lost connection),
    queue one resend task. Queued rather than run here, so the consumer's event loop is not held up."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, parent: Any) -> None:
        try:
            parent.app.send_task(RESEND_TASK, queue="default")
        except Exception:  # the periodic sweeps remain; never stop the consumer for this
            logger.warning("broker: could not queue the resend after connecting", exc_info=True)


def resend_after_broker_loss() -> dict[str, int]:
    """Let every app hand over again what waits for a worker (once per RESEND_LOCK_SECONDS)."""
    if not cache.add("broker:resend-after-connect", 1, timeout=RESEND_LOCK_SECONDS):
        return {}
    counts: dict[str, int] = {}
    for receiver, sent in broker_connected.send_robust(sender=None):
        if isinstance(sent, Exception):
            logger.error("broker: %s failed to resend: %s", getattr(receiver, "__qualname__", receiver), sent)
        elif sent:
            counts.update(sent)
    if any(counts.values()):
        logger.info("broker: resent after connecting %s", counts)
    return counts
