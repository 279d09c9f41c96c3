"""Writes about a student: registration, sign-out and password, the profile and the token quota."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.exceptions import (
    USERNAME_TAKEN_MESSAGE,
    TokenInvalidError,
    TokenQuotaExceededError,
    UsernameTakenError,
)
from accounts.login_gate import LoginAttempt, login_gate_enter, login_gate_passed
from accounts.models import User, new_login_device_key
from accounts.signals import PASSWORD_CHANGED, SIGNED_OUT, credentials_revoked, user_registered
from accounts.sockets import user_sockets_close

TOKEN_WINDOW = timedelta(days=7)


@transaction.atomic
def user_register(*, username: str, password: str, email: str = "", time_zone: str = "Asia/Shanghai") -> User:
    """Create a student; apps above hear ``user_registered`` (schedule gives them default calendar settings).

    Raises ValidationError for a weak password and UsernameTakenError for a taken name.
    """
    if User.objects.filter(username__iexact=username).exists():
        raise UsernameTakenError(str(USERNAME_TAKEN_MESSAGE), detail={"username": [str(USERNAME_TAKEN_MESSAGE)]})
    user = User(username=username, email=email, time_zone=time_zone)
    validate_password(password, user=user)
    user.set_password(password)
    user.full_clean(exclude=["password"])
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as exc:
        # Lost a race with another registration of the same name.
        raise UsernameTakenError(str(USERNAME_TAKEN_MESSAGE),
                                 detail={"username": [str(USERNAME_TAKEN_MESSAGE)]}) from exc
    user_registered.send(sender=User, user=user)
    return user


def user_profile_update(*, user: User, email: str | None = None, time_zone: str | None = None) -> User:
    """Change the editable profile fields of a student."""
    if email is not None:
        user.email = email
    if time_zone is not None:
        user.time_zone = time_zone
    user.full_clean(exclude=["password"])
    user.save(update_fields=["email", "time_zone"])
    return user


def user_first_run_dismiss(*, user: User) -> User:
    """Hide the first-run guide for good (a second dismissal keeps the first time)."""
    if user.first_run_dismissed_at is None:
        user.first_run_dismissed_at = timezone.now()
        user.save(update_fields=["first_run_dismissed_at"])
    return user


def token_quota_check(*, user: User, now: datetime | None = None) -> int:
    """Return the tokens left this window; raise TokenQuotaExceededError when none are left."""
    _reset_window_if_due(user=user, now=now or timezone.now())
    user.refresh_from_db(fields=["token_usage", "token_limit", "token_window_started_at"])
    left = user.token_limit - user.token_usage
    if left <= 0:
        raise token_quota_exceeded(user)
    return left


def token_quota_exceeded(user: User) -> TokenQuotaExceededError:
    """The error for a used-up window, with the limit, the usage and when it resets (``user`` freshly read)."""
    resets_at = (user.token_window_started_at or timezone.now()) + TOKEN_WINDOW
    return TokenQuotaExceededError(
        _("You have used this week's assistant quota."),
        detail={"limit": user.token_limit, "used": user.token_usage, "resets_at": resets_at.isoformat()},
    )


def token_window_reset_if_due(*, user: User, now: datetime) -> None:
    """Open a fresh weekly window when the last one is over (or none was opened yet)."""
    _reset_window_if_due(user=user, now=now)


def token_usage_record(*, user: User, tokens: int, now: datetime | None = None) -> None:
    """Add real token usage to the student's window (atomically, safe under concurrency)."""
    if tokens <= 0:
        return
    _reset_window_if_due(user=user, now=now or timezone.now())
    User.objects.filter(pk=user.pk).update(token_usage=F("token_usage") + tokens)


def token_quota_reset(*, user: User, now: datetime | None = None) -> User:
    """Give the student a fresh weekly window now (an operator's decision: the admin, the shell)."""
    User.objects.filter(pk=user.pk).update(token_window_started_at=now or timezone.now(), token_usage=0)
    user.refresh_from_db(fields=["token_usage", "token_window_started_at"])
    return user


def _reset_window_if_due(*, user: User, now: datetime) -> None:
    stale_before = now - TOKEN_WINDOW
    # A window only ever moves forward, so if the copy in hand is still open, so is the stored one: no
    # query (a turn checks before every model call).
    if user.token_window_started_at is not None and user.token_window_started_at > stale_before:
        return
    # One conditional UPDATE, so two concurrent turns reset the window once, not twice. The first window
    # keeps what was counted before it opened; an expired one starts from zero. The usage is assigned
    # first: MySQL evaluates SET from left to right, so a CASE after the new start would see it.
    opened = User.objects.filter(Q(token_window_started_at__isnull=True) | Q(token_window_started_at__lte=stale_before),
                                 pk=user.pk).update(
        token_usage=Case(When(token_window_started_at__isnull=True, then=F("token_usage")), default=Value(0)),
        token_window_started_at=now)
    if opened:
        user.token_window_started_at = now  # the calls after this one skip the query


def refresh_tokens_revoke(*, user: User) -> int:
    """Blacklist every refresh token of the student still outstanding; return how many were revoked."""
    from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken, OutstandingToken

    pending = OutstandingToken.objects.filter(user=user, blacklistedtoken__isnull=True)
    revoked = BlacklistedToken.objects.bulk_create(
        [BlacklistedToken(token=token) for token in pending], ignore_conflicts=True)
    return len(revoked)


def refresh_token_revoke(*, user: User, refresh: str) -> None:
    """Blacklist one refresh token of the student.

    Raises TokenInvalidError when it is malformed, expired, already revoked or someone else's.
    """
    from rest_framework_simplejwt.exceptions import TokenError
    from rest_framework_simplejwt.tokens import RefreshToken

    try:
        token = RefreshToken(refresh)  # type: ignore[arg-type]  # simplejwt annotates the encoded str as Token
    except TokenError as exc:
        raise TokenInvalidError(_("The refresh token is invalid or expired."), detail=str(exc)) from None
    if str(token.get("user_id")) != str(user.pk):
        raise TokenInvalidError(_("The refresh token is invalid or expired."))
    token.blacklist()


def user_logout(*, user: User, refresh: str | None = None) -> None:
    """Sign the student out: revoke the given refresh token and unused websocket tickets, close their sockets."""
    with transaction.atomic():
        if refresh is not None:
            refresh_token_revoke(user=user, refresh=refresh)
        credentials_revoked.send(sender=User, user=user, reason=SIGNED_OUT)
    user_sockets_close(user_id=user.pk)


@transaction.atomic
def user_password_change(*, user: User, old_password: str, new_password: str,
                         attempt: LoginAttempt | None = None) -> User:
    """Change the password and end every other way in: refresh tokens, sessions, open sockets.

    Access tokens carry a hash of the password (SIMPLE_JWT CHECK_REVOKE_TOKEN) and sessions a hash
    of it too, so both stop working by themselves; refresh tokens are blacklisted here. The caller
    keeps its own session with ``update_session_auth_hash`` or issues a new token pair. Trusted-device
    cookies stop counting (a new ``login_device_key``).
    With ``attempt`` (pages and the API pass one) the old password goes through the login gate: a
    wrong one counts as a failed sign-in, so a borrowed session cannot guess its way to the account.
    Raises ValidationError for a wrong old password or a weak new one, RateLimited past the gate.
    """
    _old_password_check(user=user, password=old_password, attempt=attempt)
    try:
        validate_password(new_password, user=user)
    except ValidationError as exc:
        raise ValidationError({"new_password": exc.messages}) from None
    user.set_password(new_password)
    user.login_device_key = new_login_device_key()
    user.save(update_fields=["password", "login_device_key"])
    refresh_tokens_revoke(user=user)
    answers = credentials_revoked.send(sender=User, user=user, reason=PASSWORD_CHANGED)
    # What the other apps want the student told (e.g. "your calendar link changed"); pages show it.
    user.revocation_notices = [str(notice) for _receiver, notice in answers if notice]
    transaction.on_commit(lambda: user_sockets_close(user_id=user.pk, reason=PASSWORD_CHANGED))
    return user


def _old_password_check(*, user: User, password: str, attempt: LoginAttempt | None) -> None:
    if attempt is not None:
        login_gate_enter(attempt)  # counted as a failure until the password proves right
    if not user.check_password(password):
        raise ValidationError({"old_password": [_("Your old password was entered incorrectly.")]})
    if attempt is not None:
        login_gate_passed(attempt)
