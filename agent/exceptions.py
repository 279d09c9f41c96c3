"""Errors the assistant's services raise, in the project's ``{code, message, detail}`` shape."""

from __future__ import annotations

from django.utils.translation import gettext as _

from smartmate.platform.exceptions import AppError, ConflictError, QuotaExceededError


class TurnBusyError(ConflictError):
    """A turn is already running in this conversation."""

    code = "busy"

    @classmethod
    def in_conversation(cls, conversation_id: int) -> TurnBusyError:
        """Return the refusal of anything that must wait for the running turn of ``conversation_id``."""
        return cls(_("The assistant is still answering in this conversation. Wait for it to finish, "
                     "or stop it first."), detail={"conversation_id": conversation_id})


class QuotaExceeded(QuotaExceededError):
    """The student has used this week's tokens; no model call is made."""

    code = "quota_exceeded"


class StaleInteraction(ConflictError):
    """The confirmation or question answered is not the one open (or none is)."""

    code = "stale_interaction"


class InvalidText(AppError):
    """The message is empty or too long."""

    code = "invalid_text"


class TicketInvalid(AppError):
    """The websocket ticket is unknown, used or expired."""

    code = "ticket_invalid"
    status = 401


class NothingToRegenerate(ConflictError):
    """The conversation has no message to answer again."""

    code = "nothing_to_regenerate"
