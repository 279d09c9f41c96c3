"""What the assistant does when other apps announce something."""

from __future__ import annotations

from typing import Any

from agent.models import WebsocketTicket


def tickets_revoke_on_credentials_revoked(sender: Any, *, user: Any, reason: str, **kwargs: Any) -> None:
    """A ticket minted before a sign-out or a password change must not open a socket after it."""
    WebsocketTicket.objects.filter(user=user, used_at__isnull=True).delete()
