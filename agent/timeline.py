"""The emitter a turn writes its events through: number, store, then broadcast each one."""

from __future__ import annotations

from collections.abc import Callable

from django.db import IntegrityError, connection, transaction
from django.db.models import Max

from agent.broadcast import broadcast
from agent.flow.contracts import Envelope, Event, event_payload
from agent.models import TimelineEvent


class TimelineEmitter:
    """Give each event the conversation's next ``seq``, store it, and send it to the conversation's sockets.

    Only the turn holding the conversation's lease emits (a stray writer is stopped by ``guard``), so
    the next number is read once and then counted here; the unique (conversation, seq) constraint is
    the database's check of that count.
    """

    def __init__(self, *, conversation_id: int, turn_id: str,
                 send: Callable[[int, dict], None] = broadcast, guard: Callable[[], None] | None = None) -> None:
        self.conversation_id = conversation_id
        self.turn_id = turn_id
        self._send = send
        # Called before each event; raises when this attempt lost the turn's lease (agent.services.leases).
        self._guard = guard
        self.next_seq = self._last_stored() + 1

    def _last_stored(self) -> int:
        last = TimelineEvent.objects.filter(conversation_id=self.conversation_id).aggregate(last=Max("seq"))["last"]
        return last or 0

    def __call__(self, event: Event) -> Envelope:
        if self._guard is not None:
            self._guard()
        try:
            envelope = self._store(event)
        except IntegrityError:
            # A turn stopped between storing an event and counting it (a signal, the soft time limit)
            # left the count one behind; its closing error must still be stored: count from the table.
            self.next_seq = self._last_stored() + 1
            envelope = self._store(event)
        self.next_seq += 1
        self._send(self.conversation_id, envelope.to_json())
        return envelope

    def _store(self, event: Event) -> Envelope:
        envelope = Envelope(seq=self.next_seq, conversation_id=self.conversation_id, turn_id=self.turn_id,
                            event=event)
        row = TimelineEvent(conversation_id=self.conversation_id, seq=envelope.seq, type=event.type,
                            turn_id=self.turn_id, payload=event_payload(event))
        if connection.in_atomic_block:
            with transaction.atomic():  # a savepoint: a refused insert must not break the caller's transaction
                row.save(force_insert=True)
        else:
            # Autocommit: the insert is its own transaction already; a BEGIN around it would cost two more
            # statements for every event a turn writes.
            row.save(force_insert=True)
        return envelope
