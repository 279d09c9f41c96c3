"""Token quota reservations: every model call holds its tokens in the student's window before it starts.

Invariant: usage never passes the limit by more than one reserved call. A call first *reserves*
what it may cost (its estimated prompt plus the stage's ``max_tokens``) with one conditional UPDATE
that succeeds only while usage is below the limit; afterwards the reservation is replaced by what
the call really used. Concurrent calls (a turn's rounds, the title, memory extraction) therefore
cannot all pass a check and overrun together: only a call admitted while something was left can
cross the limit, and then by at most its own cost.

The reservation is booked on ``token_usage`` itself (no second counter to keep in step). A process
killed mid-call leaves its reservation charged: an assistant turn's is given back by whoever takes
the turn over (``agent.services.reservations``); a background call's stays, at most one call's worth.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from django.db.models import F, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from accounts.models import User
from accounts.services import token_quota_exceeded, token_window_reset_if_due
from smartmate.llm import ChatMessage, Completion, LLMClient, OnDelta, StageConfig, ToolSpec, Usage
from smartmate.llm.usage import call_reservation


def token_quota_reserve(*, user: User, tokens: int, now: datetime | None = None) -> int:
    """Hold ``tokens`` for one model call while usage is below the limit; return what was held.

    Raises TokenQuotaExceededError (held nothing) when the window is used up.
    """
    token_window_reset_if_due(user=user, now=now or timezone.now())
    tokens = max(0, tokens)
    held = User.objects.filter(pk=user.pk, token_usage__lt=F("token_limit")).update(
        token_usage=F("token_usage") + tokens)
    if not held:
        user.refresh_from_db(fields=["token_usage", "token_limit", "token_window_started_at"])
        raise token_quota_exceeded(user)
    return tokens


def token_quota_release(*, user_id: int, tokens: int) -> None:
    """Give back ``tokens`` a call reserved and never settled (its process died mid-call)."""
    if tokens > 0:
        User.objects.filter(pk=user_id).update(token_usage=Greatest(F("token_usage") - tokens, Value(0)))


def token_quota_settle(*, user: User, reserved: int, used: int) -> None:
    """Replace a reservation by the tokens the call really used (never leaving usage below zero)."""
    delta = used - reserved
    if delta:
        User.objects.filter(pk=user.pk).update(token_usage=Greatest(F("token_usage") + delta, Value(0)))


@contextmanager
def token_reservation(*, user: User, tokens: int, now: datetime | None = None) -> Iterator[Callable[[Usage], None]]:
    """Reserve ``tokens`` around one call; yield the recorder the call reports its usage to.

    A call that fails before reporting usage releases its reservation entirely.
    """
    reserved = token_quota_reserve(user=user, tokens=tokens, now=now)
    used: list[int] = []
    try:
        yield lambda usage: used.append(usage.total_tokens)
    finally:
        token_quota_settle(user=user, reserved=reserved, used=sum(used))


def reserved_complete(client: LLMClient, user: User, stage: str, messages: Sequence[ChatMessage], *,
                      tools: Sequence[ToolSpec] | None = None, on_delta: OnDelta | None = None,
                      config: StageConfig | None = None,
                      record_usage: Callable[[Usage], None] | None = None,
                      poll: Callable[[], object] | None = None) -> Completion:
    """``client.complete`` inside a reservation for ``user`` (background calls: titles, memory).

    Raises TokenQuotaExceededError before any request when the window is used up.
    """
    tokens = call_reservation(client, stage, messages, tools, config)
    with token_reservation(user=user, tokens=tokens) as charge:
        def record(usage: Usage) -> None:
            charge(usage)
            if record_usage is not None:
                record_usage(usage)
        return client.complete(stage, messages, tools, on_delta, config=config, record_usage=record, poll=poll)


class ReservingClient:
    """An LLMClient whose every call reserves from ``user``'s quota first (for code handed a client)."""

    def __init__(self, client: LLMClient, user: User) -> None:
        self.client = client
        self.user = user

    def stage_config(self, stage: str) -> StageConfig:
        return self.client.stage_config(stage)

    def complete(self, stage: str, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] | None = None,
                 on_delta: OnDelta | None = None, *, config: StageConfig | None = None,
                 record_usage: Callable[[Usage], None] | None = None,
                 poll: Callable[[], object] | None = None) -> Completion:
        return reserved_complete(self.client, self.user, stage, messages, tools=tools, on_delta=on_delta,
                                 config=config, record_usage=record_usage, poll=poll)
