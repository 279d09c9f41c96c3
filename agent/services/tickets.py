"""Websocket tickets: how an API client (JWT or session) opens ``/ws/agent/`` without a token in the URL."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from agent.exceptions import TicketInvalid
from agent.models import WebsocketTicket
from smartmate.platform.caps import cap_check

TICKET_LIFETIME = timedelta(seconds=60)


@dataclass(frozen=True)
class IssuedTicket:
    """A ticket as handed to the client (only its hash is stored)."""

    ticket: str
    expires_at: datetime


def ticket_create(*, user: User) -> IssuedTicket:
    """Issue a single-use ticket that opens ``/ws/agent/`` within 60 seconds."""
    now = timezone.now()
    WebsocketTicket.objects.filter(expires_at__lt=now - timedelta(hours=1)).delete()  # keep the table small
    cap_check("ws_tickets", WebsocketTicket.objects.filter(user=user, used_at__isnull=True, expires_at__gt=now))
    ticket = secrets.token_urlsafe(32)
    expires_at = now + TICKET_LIFETIME
    WebsocketTicket.objects.create(user=user, digest=_digest(ticket), expires_at=expires_at)
    return IssuedTicket(ticket=ticket, expires_at=expires_at)


def ticket_redeem(*, ticket: str) -> User:
    """Use a ticket up and return its student; raise TicketInvalid when unknown, used or expired."""
    digest = _digest(ticket)
    now = timezone.now()
    used = WebsocketTicket.objects.filter(digest=digest, used_at__isnull=True, expires_at__gt=now).update(used_at=now)
    user = WebsocketTicket.objects.select_related("user").get(digest=digest).user if used else None
    if user is None or not user.is_active:
        raise TicketInvalid(_("This ticket is unknown, already used or expired. Ask for a new one."))
    return user


def _digest(ticket: str) -> str:
    return hashlib.sha256(ticket.encode("utf-8")).hexdigest()
