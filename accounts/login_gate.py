"""The login gate: one policy for every way to sign in (pages, API tokens, admin, browsable API).

It runs inside the authentication backend (``accounts.backends.GatedModelBackend``), so no sign-in
path can skip it. The policy stops password guessing without letting a stranger lock a student out:

* ``login_pair`` - failed sign-ins of one account from one address (or one trusted device). Past the
  limit that pair is refused until its window ends; a success clears it.
* ``login_address`` - failed sign-ins from one address, over all accounts. Past the limit the address
  is refused, except from a device that signed into the account before.
* ``login_account`` - failed sign-ins of one account from anywhere. Past the limit the account is
  *slowed*, never locked: sources that already failed on it share ``login_slow`` (one attempt per
  30 s by default), while a trusted device or an address with no failures on the account gets in at
  once with the right password.

A *trusted device* carries a signed cookie set by a successful sign-in (OWASP's "device cookies"):
the student's own laptop is never held back by someone guessing from elsewhere or by a noisy
neighbour behind the same campus NAT.

Every attempt is counted as a failure *before* the password is checked and refunded on success, so
a burst of concurrent guesses cannot overtake a limit while the password hashes are computed.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from smartmate.platform.ratelimit import (
    client_ip,
    counter_add,
    counter_refund,
    rate_limit_hit,
    rate_limited_error,
)

DEVICE_COOKIE = "sm_device"
DEVICE_COOKIE_SALT = "smartmate.login-device"
DEVICE_COOKIE_MAX_AGE = 180 * 24 * 3600
# Where the backend leaves the device cookie to set; the middleware writes it onto the response.
_PENDING_COOKIE_ATTR = "_login_device_cookie"


@dataclass(frozen=True)
class LoginAttempt:
    """Who is trying to sign in as whom, as the gate counts it."""

    account: str  # the normalised account name, as typed (it need not exist)
    address: str
    device: str | None  # the id of a device that signed into this account before

    @property
    def source(self) -> str:
        # A trusted device is its own source: it is counted apart from its address.
        return f"device:{self.device}" if self.device else f"ip:{self.address}"

    @property
    def pair_key(self) -> str:
        return f"{_digest(self.account)}:{self.source}"

    @property
    def account_key(self) -> str:
        return f"acct:{_digest(self.account)}"


def login_attempt_of(request: Any, username: str) -> LoginAttempt:
    """Describe the attempt carried by ``request`` (an HttpRequest or a DRF Request)."""
    account = normalise_account(username)
    return LoginAttempt(account=account, address=client_ip(request), device=_trusted_device(request, account))


def normalise_account(username: str) -> str:
    return (username or "").strip().lower()[:150]


def login_gate_enter(attempt: LoginAttempt) -> None:
    """Count the attempt as a failure up front; raise RateLimited when the policy refuses it."""
    pair = counter_add("login_pair", attempt.pair_key)
    account = counter_add("login_account", attempt.account_key)
    address = None if attempt.device else counter_add("login_address", f"ip:{attempt.address}")
    if pair and pair[0] > pair[1].limit:
        raise _refusal("login_pair", pair[1])
    if address and address[0] > address[1].limit:
        raise _refusal("login_address", address[1])
    if _is_slowed(account) and not attempt.device and pair and pair[0] > 1:
        rate_limit_hit("login_slow", attempt.account_key)


def login_gate_succeeded(request: Any, attempt: LoginAttempt) -> None:
    """Refund the attempt, clear the pair's failures and mark this device as trusted for the account."""
    counter_refund("login_pair", attempt.pair_key, clear=True)
    counter_refund("login_account", attempt.account_key)
    if not attempt.device:
        counter_refund("login_address", f"ip:{attempt.address}")
    device = attempt.device or secrets.token_hex(8)
    cookie = signing.dumps({"a": _digest(attempt.account), "d": device}, salt=DEVICE_COOKIE_SALT)
    setattr(getattr(request, "_request", request), _PENDING_COOKIE_ATTR, cookie)


def device_cookie_write(request: HttpRequest, response: HttpResponse) -> None:
    """Set the trusted-device cookie a successful sign-in asked for (called by the middleware)."""
    cookie = getattr(request, _PENDING_COOKIE_ATTR, None)
    if cookie:
        response.set_cookie(DEVICE_COOKIE, cookie, max_age=DEVICE_COOKIE_MAX_AGE, httponly=True,
                            samesite="Lax", secure=not settings.DEBUG)


def _is_slowed(account: tuple[int, Any] | None) -> bool:
    # Past the account's limit *before* this attempt: the attempt that crosses it still runs.
    return bool(account) and account[0] - 1 >= account[1].limit  # type: ignore[index]


def _trusted_device(request: Any, account: str) -> str | None:
    value = getattr(request, "COOKIES", {}).get(DEVICE_COOKIE)
    if not value or not account:
        return None
    try:
        data = signing.loads(value, salt=DEVICE_COOKIE_SALT, max_age=DEVICE_COOKIE_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("a") != _digest(account) or not isinstance(data.get("d"), str):
        return None
    return data["d"][:32]


def _refusal(scope: str, rate: Any) -> Exception:
    return rate_limited_error(scope, rate, message=_(
        "Too many failed sign-ins. Try again in %(seconds)s seconds, or sign in from a device you have used before."))


def _digest(account: str) -> str:
    # Counters and cookies never hold account names in the clear.
    return hashlib.sha256(account.encode("utf-8")).hexdigest()[:24]

