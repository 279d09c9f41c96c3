"""A running turn is a lease, not a lock: its worker renews it, and a lease nobody renews runs out.

The conversation row is the truth about a turn (``agent.models.Conversation``): ``running_turn_id``
says a turn is under way, ``turn_sent_at`` when it was last handed to a worker, ``lease_expires_at``
until when the worker running it is known to be alive (NULL: handed off, not started yet).

- ``lease_claim``: a worker starting (or resuming) the turn takes the lease if nobody holds a live
  one; a duplicate Celery delivery finds it held (or the turn over) and is skipped.
- ``LeaseHeartbeat``: a thread renews the lease every ``AGENT_TURN_HEARTBEAT`` seconds. When the
  renewal finds the lease taken over (the sweeper decided this worker was dead), the lease is lost:
  the turn's next event or checkpoint raises ``LeaseLost`` and this attempt stops without writing more.
- ``lease_release``: the turn is over; the conversation is free. Retried through a short database
  blip; if it still fails the lease runs out and the sweeper (``agent.services.recovery``) finishes.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Q
from django.utils import timezone

from agent.models import Conversation
from agent.services.reservations import turn_reservations_refund

log = logging.getLogger("agent.leases")

# Pauses between attempts to write a turn's end through a database blip (about 7.5 s in all).
SETTLE_RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0)


class LeaseLost(BaseException):
    """Another attempt holds this turn now: stop at once and write nothing more.

    A BaseException, so the graph's per-node ``except Exception`` does not turn it into a failed node.
    """


@dataclass
class TurnLease:
    """The lease one attempt holds on a turn."""

    conversation_id: int
    turn_id: str
    owner: str
    lost: threading.Event = field(default_factory=threading.Event)

    def check(self) -> None:
        """Raise LeaseLost if the heartbeat found the turn taken over."""
        if self.lost.is_set():
            raise LeaseLost(self.turn_id)

    def mine(self) -> Q:
        """The condition of every write this attempt makes to its conversation's turn columns."""
        return Q(pk=self.conversation_id, running_turn_id=self.turn_id, lease_owner=self.owner)


def lease_length() -> timedelta:
    return timedelta(seconds=settings.AGENT_TURN_LEASE)


def lease_claim(*, conversation_id: int, turn_id: str, now: datetime | None = None) -> TurnLease | None:
    """Take the lease on the running turn ``turn_id``; None if it is over or another worker holds it alive."""
    now = now or timezone.now()
    owner = uuid.uuid4().hex
    free = Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now)
    taken = Conversation.objects.filter(free, pk=conversation_id, running_turn_id=turn_id).update(
        lease_owner=owner, lease_expires_at=now + lease_length())
    if not taken:
        return None
    turn_reservations_refund(conversation_id=conversation_id)  # what a dead earlier attempt left open
    return TurnLease(conversation_id=conversation_id, turn_id=turn_id, owner=owner)


def lease_renew(lease: TurnLease, *, now: datetime | None = None) -> bool:
    """Push the lease's end out by one lease length; False if it is no longer this attempt's."""
    now = now or timezone.now()
    return bool(Conversation.objects.filter(lease.mine()).update(lease_expires_at=now + lease_length()))


def lease_release(lease: TurnLease) -> bool:
    """Free the conversation (the turn is over); False if this attempt no longer held it.

    Quota still reserved for the turn (a dead attempt's call, when the sweeper ends the turn) goes back.
    """
    turn_reservations_refund(conversation_id=lease.conversation_id)
    return bool(Conversation.objects.filter(lease.mine()).update(
        running_turn_id=None, turn_started_at=None, cancel_requested=False, turn_sent_at=None,
        lease_expires_at=None, lease_owner=""))


def with_database_retries(write, *, what: str, delays: tuple[float, ...] = SETTLE_RETRY_DELAYS):
    """Run ``write()``, retrying through a database blip; return its result, or None if it never got through.

    Between attempts the broken connection is dropped so the next one reconnects (outside a
    transaction only: inside one, dropping it would lose the caller's work).
    """
    for delay in (*delays, None):
        try:
            return write()
        except DatabaseError:
            if delay is None:
                log.exception("Could not %s; the turn sweeper will finish it", what)
                return None
            log.warning("Could not %s; retrying in %.1f s", what, delay, exc_info=True)
            if not connection.in_atomic_block:
                connection.close()
            time.sleep(delay)
    return None


class LeaseHeartbeat:
    """A thread that renews a lease until stopped, and marks it lost when it was taken over."""

    def __init__(self, lease: TurnLease, *, every: float | None = None) -> None:
        self.lease = lease
        self.every = settings.AGENT_TURN_HEARTBEAT if every is None else every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"turn-lease-{lease.turn_id[:8]}", daemon=True)

    def __enter__(self) -> LeaseHeartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.every):
                if not self._beat():
                    return
        finally:
            connection.close()  # this thread's own connection; nothing else would close it

    def _beat(self) -> bool:
        """Renew once; return whether to go on."""
        try:
            if lease_renew(self.lease):
                return True
        except DatabaseError:  # a blip: the lease has a few beats of slack; try again next beat
            log.warning("Could not renew the lease of turn %s", self.lease.turn_id, exc_info=True)
            connection.close()
            return True
        if not self._stop.is_set():
            log.warning("Turn %s was taken over by another attempt; this one stops", self.lease.turn_id)
            self.lease.lost.set()
        return False
