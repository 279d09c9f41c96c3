"""Delete my account: everything the student owns goes, in every app and every store.

The user's rows go by the database's cascade (every app's rows point at the user or at a row that
does). What a cascade cannot reach is each app's eraser (``accounts.data_ports``): outbox payloads
that name the student, their vectors and cached prompt blocks. Here: their refresh tokens (the
blacklist app keeps them with the user set to NULL) and their sessions. Stores outside the database
are cleared only after the deletion committed, so a failed deletion never leaves a student with rows
but without their vectors.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.data_ports import data_areas, user_data_counts
from accounts.exceptions import PasswordRequiredError
from accounts.models import User
from accounts.sockets import user_sockets_close
from smartmate.platform.ratelimit import counter_refund, user_key

log = logging.getLogger(__name__)

ACCOUNT_DELETED = "account_deleted"


def account_delete(*, user: User, password: str | None = None, by_operator: bool = False) -> dict[str, int]:
    """Delete the student and everything they own; return what was deleted, by kind.

    A student must give their password; an operator (admin action, management command) need not.
    Raises PasswordRequiredError for a missing or wrong password (nothing is deleted).
    """
    if not by_operator and not (password and user.check_password(password)):
        raise PasswordRequiredError(_("Enter your password to delete your account."))
    user_id = user.pk
    with transaction.atomic():
        counts = user_data_counts(user=user)
        for area in data_areas():
            if area.erase_rows is not None:
                area.erase_rows(user)
        counts["accounts.refresh_tokens"] = _refresh_tokens_delete(user)
        counts["accounts.sessions"] = _sessions_delete(user_id)
        user.delete()
        transaction.on_commit(lambda: _erase_outside(user_id))
    log.info("account %s deleted%s", user_id, " by an operator" if by_operator else "")
    return counts


def _refresh_tokens_delete(user: User) -> int:
    """Remove the student's refresh tokens (their text names the student); an old one is refused anyway,
    as it names a user who no longer exists."""
    from rest_framework_simplejwt.token_blacklist.models import OutstandingToken

    deleted, _by_model = OutstandingToken.objects.filter(user=user).delete()
    return deleted


def _sessions_delete(user_id: int) -> int:
    """Remove the student's browser sessions. Sessions are stored encoded, so each live one is read;
    this runs once per deleted account."""
    mine = [session.pk for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
            if str(session.get_decoded().get("_auth_user_id")) == str(user_id)]
    Session.objects.filter(pk__in=mine).delete()
    return len(mine)


def _erase_outside(user_id: int) -> None:
    user_sockets_close(user_id=user_id, reason=ACCOUNT_DELETED)
    for scope in settings.RATE_LIMITS:  # this window's counters name the student's id
        counter_refund(scope, user_key(User(pk=user_id)), clear=True)
    for area in data_areas():
        if area.erase_outside is None:
            continue
        try:
            area.erase_outside(user_id)
        except Exception:  # one store down must not stop the others; the log says which
            log.exception("account %s: erasing %s outside the database failed", user_id, area.name)
