"""Rescue turns whose worker died or whose hand-off was lost: resume them, or end them with an error.

The conversation row is the truth about a turn, not its Celery message (``agent.services.leases``).
A running turn needs rescue when

- it started and its lease ran out: its worker died or hangs (a live one renews every
  ``AGENT_TURN_HEARTBEAT`` seconds), or
- it was handed off ``AGENT_TURN_RESEND_AFTER`` seconds ago and no worker started it: the message was
  lost (Redis restarted empty) or sits with a worker that was killed.

It is handed off again, to resume from its checkpoint, until it was handed off
``AGENT_TURN_MAX_ATTEMPTS`` times; then it ends with an ``error`` (code ``turn_lost``) and ``turn.done``,
unless the agent queue still holds messages: then the workers are behind and the turn is waiting its
turn, not lost (under load a queue can take minutes), and it ends only after ``AGENT_TURN_MAX_WAIT``.
This runs on beat (``agent.sweep_turns``), and for one conversation when its student sends the next
message or a page asks for its state (a reload, a reconnect), so no turn stays stuck for minutes.
Each step is a conditional UPDATE on what was read, so two sweepers, or a sweeper and a worker
starting the turn at that moment, never both act.
"""

from __future__ import annotations

import logging
import uuid
from collections import Counter
from datetime import datetime, timedelta
from typing import Any, Literal

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy

from agent import embedded_turns
from agent.flow.contracts import ErrorEvent
from agent.models import Conversation
from agent.services.dispatch import turn_redispatch
from agent.services.leases import TurnLease, lease_length, lease_release
from agent.services.running import turn_close_with_error
from smartmate.platform.task_queue import queue_backlog

log = logging.getLogger("agent.recovery")

Recovery = Literal["idle", "running", "resent", "ended"]
LOST = gettext_lazy("The assistant stopped before it could answer. Please send your message again.")
SWEEP_BATCH = 200
AGENT_QUEUE = "agent"
_ROW = ("pk", "user_id", "running_turn_id", "lease_owner", "turn_attempts", "turn_language", "turn_started_at")


def waiting_turns(handed_off_before: datetime) -> Q:
    """Conversations whose running turn was handed off before that moment and no worker has started."""
    handed_off = Q(turn_sent_at__lt=handed_off_before) | Q(turn_sent_at__isnull=True,
                                                            turn_started_at__lt=handed_off_before)
    return Q(running_turn_id__isnull=False, lease_expires_at__isnull=True) & handed_off


def stalled_turns(now: datetime) -> Q:
    """Conversations whose running turn needs rescue at ``now`` (see the module's docstring)."""
    never_started = waiting_turns(now - timedelta(seconds=settings.AGENT_TURN_RESEND_AFTER))
    return Q(running_turn_id__isnull=False) & (Q(lease_expires_at__lt=now) | never_started)


def turns_resend_waiting() -> int:
    """Hand off again every turn waiting for a worker, however recent; return how many were sent.

    Called when a worker connects to the broker (smartmate.platform.broker): a Redis that restarted
    empty lost those hand-offs, and the sweep would wait AGENT_TURN_RESEND_AFTER to send them again
    while the student watches "queued". A hand-off that did survive is harmless twice: the first
    worker takes the turn's lease and the second message finds it held.
    """
    now = timezone.now()
    rows = Conversation.objects.filter(waiting_turns(now)).order_by("turn_started_at").values(*_ROW)[:SWEEP_BATCH]
    return sum(_resend(row, now, still=waiting_turns(now)) for row in rows
               if row["turn_attempts"] < settings.AGENT_TURN_MAX_ATTEMPTS)


def turns_resend_on_connect(**_signal) -> dict[str, int]:
    """Receiver of smartmate.platform.broker.broker_connected."""
    return {"agent_turns": turns_resend_waiting()}


def turns_sweep(*, now: datetime | None = None, limit: int = SWEEP_BATCH) -> dict[str, int]:
    """Rescue every stalled turn (oldest first, at most ``limit``); return how many ended which way."""
    now = now or timezone.now()
    stalled = (Conversation.objects.filter(stalled_turns(now)).order_by("turn_started_at")
               .values_list("pk", flat=True)[:limit])
    done: Counter[str] = Counter()
    for conversation_id in stalled:
        try:
            done[turn_recover(conversation_id=conversation_id, now=now)] += 1
        except Exception:  # one broken conversation must not keep the others stuck
            log.exception("Could not rescue the turn of conversation %s", conversation_id)
            done["failed"] += 1
    return dict(done)


def turn_recover(*, conversation_id: int, now: datetime | None = None) -> Recovery:
    """Rescue the conversation's running turn if it is stalled; return what happened.

    ``idle``: no turn runs; ``running``: it runs (or waits for a worker) as it should; ``resent``: it
    was handed off again; ``ended``: it was ended with an error the student sees.
    """
    now = now or timezone.now()
    row = Conversation.objects.filter(stalled_turns(now), pk=conversation_id).values(*_ROW).first()
    if row is None:
        running = Conversation.objects.filter(pk=conversation_id, running_turn_id__isnull=False).exists()
        return "running" if running else "idle"
    if settings.CELERY_TASK_ALWAYS_EAGER and embedded_turns.pending(str(row["running_turn_id"])):
        return "running"  # this process runs it, or has it waiting for a thread: it is not lost
    if row["turn_attempts"] < settings.AGENT_TURN_MAX_ATTEMPTS:
        return "resent" if _resend(row, now) else "running"
    if _waits_in_a_busy_queue(row, now):
        return "running"
    return "ended" if _end(row, now) else "running"


def _waits_in_a_busy_queue(row: dict[str, Any], now: datetime) -> bool:
    """Whether the turn's messages may still be in a queue the workers have not reached yet."""
    started = row["turn_started_at"]
    if row["lease_owner"] or started is None or now - started > timedelta(seconds=settings.AGENT_TURN_MAX_WAIT):
        return False  # a worker held it (and died), or it waited longer than anyone should
    backlog = queue_backlog(AGENT_QUEUE)
    return bool(backlog)


def _as_read(row: dict[str, Any], now: datetime, still: Q | None = None) -> Q:
    """The row still as it was read (and still stalled, or ``still``): nobody acted on it meanwhile."""
    return (stalled_turns(now) if still is None else still) & Q(
        pk=row["pk"], running_turn_id=row["running_turn_id"], lease_owner=row["lease_owner"],
        turn_attempts=row["turn_attempts"])


def _resend(row: dict[str, Any], now: datetime, still: Q | None = None) -> bool:
    handed = Conversation.objects.filter(_as_read(row, now, still)).update(
        turn_sent_at=now, turn_attempts=F("turn_attempts") + 1, lease_expires_at=None, lease_owner="")
    if not handed:
        return False
    turn_id = str(row["running_turn_id"])
    log.warning("Turn %s of conversation %s stalled; handed off again (attempt %s)", turn_id, row["pk"],
                row["turn_attempts"] + 1)
    turn_redispatch(student_id=row["user_id"], conversation_id=row["pk"], turn_id=turn_id,
                    language=row["turn_language"] or settings.LANGUAGE_CODE)
    return True


def _end(row: dict[str, Any], now: datetime) -> bool:
    # Take the turn's lease first, so a worker starting it this very moment finds it held.
    lease = TurnLease(conversation_id=row["pk"], turn_id=str(row["running_turn_id"]), owner=uuid.uuid4().hex)
    if not Conversation.objects.filter(_as_read(row, now)).update(lease_owner=lease.owner,
                                                                   lease_expires_at=now + lease_length()):
        return False
    log.warning("Turn %s of conversation %s stalled %s times; ended with an error", lease.turn_id, row["pk"],
                row["turn_attempts"])
    language = row["turn_language"] or settings.LANGUAGE_CODE
    with translation.override(language):
        error = ErrorEvent(code="turn_lost", message=str(LOST))
    _close(lease, error)
    return True


def _close(lease: TurnLease, error: ErrorEvent) -> None:
    turn_close_with_error(lease, error)
    lease_release(lease)
