"""The quota a running turn holds for model calls in flight, kept on its conversation row.

Every call reserves its possible cost before it starts (``accounts.quota``) and settles it when it
ends. A worker killed mid-call never settles: its reservation would stay charged, and the call the
next attempt makes again would be paid for twice. So a turn's open reservations are also counted on
``Conversation.turn_reserved_tokens``; whoever takes the turn over (the next attempt's lease claim, or
the sweeper ending it) gives back what is still open there.
"""

from __future__ import annotations

from django.db.models import F, Value
from django.db.models.functions import Greatest

from accounts.quota import token_quota_release
from agent.models import Conversation


def turn_reservation_open(*, conversation_id: int, turn_id: str, tokens: int) -> None:
    """Count ``tokens`` just reserved by one of the turn's calls."""
    Conversation.objects.filter(pk=conversation_id, running_turn_id=turn_id).update(
        turn_reserved_tokens=F("turn_reserved_tokens") + tokens)


def turn_reservation_close(*, conversation_id: int, turn_id: str, tokens: int) -> None:
    """The call that reserved ``tokens`` has settled: it is no longer open."""
    Conversation.objects.filter(pk=conversation_id, running_turn_id=turn_id).update(
        turn_reserved_tokens=Greatest(F("turn_reserved_tokens") - tokens, Value(0)))


def turn_reservations_refund(*, conversation_id: int) -> int:
    """Give the student back what a dead attempt left reserved; return the tokens given back.

    The conditional UPDATE makes it once-only when two takers race (the sweeper and a reconnect).
    """
    row = Conversation.objects.filter(pk=conversation_id).values("user_id", "turn_reserved_tokens").first()
    if row is None or not row["turn_reserved_tokens"]:
        return 0
    tokens = row["turn_reserved_tokens"]
    if not Conversation.objects.filter(pk=conversation_id, turn_reserved_tokens=tokens).update(turn_reserved_tokens=0):
        return 0
    token_quota_release(user_id=row["user_id"], tokens=tokens)
    return tokens
