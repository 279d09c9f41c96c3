"""The login gate: one policy for every way to sign in (pages, API tokens, admin, browsable API).

It runs inside the authentication backend (``accounts.backends.GatedModelBackend``), so no sign-in
path can skip it. The policy stops password guessing without letting a stranger lock a student out:

* ``login_pair`` - failed sign-ins of one account from one address (or one trusted device). Past the
  limit that pair is refused until its window ends; a success clears it.
* ``login_address`` - failed sign-ins from one address, over all accounts. Past the limit the address
  is refused, except from a device that signed into the account before.
* ``login_account`` - failed sign-ins of one account from anywhere. Past the limit the account is
  *slowed*: every source it does not know shares ``login_slow`` (one attempt per 30 s by default),
  new addresses included, so spreading guesses over many addresses buys nothing. A *known* source -
  a trusted device, or an address (an IPv6 /64) that signed into the account before - still gets in
  at once with the right password, held back only by its own pair limit.

A *trusted device* carries a signed cookie set by a successful sign-in (OWASP's "device cookies"),
bound to the student's ``login_device_key``, which a password change draws anew: the student's own
laptop is never held back by someone guessing from elsewhere or by a noisy neighbour behind the same
campus NAT, and a stolen cookie stops counting once the password changes.

Account names are counted as the database compares them: MySQL's accent- and case-insensitive
collations sign ``Bób`` in as ``bob``, so the gate folds both to one counter (``normalise_account``).
The same gate guards the current password at a password change (``accounts.services``).

Every attempt is counted as a failure *before* the password is checked and refunded on success, so
a burst of concurrent guesses cannot overtake a limit while the password hashes are computed.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from smartmate.platform.ratelimit import (
    client_network,
    counter_add,
    counter_refund,
    rate_limited_error,
)

DEVICE_COOKIE = "sm_device"
DEVICE_COOKIE_SALT = "smartmate.login-device"
DEVICE_COOKIE_MAX_AGE = 180 * 24 * 3600
# How long an address that signed into an account stays known to it (a term and a summer).
KNOWN_ADDRESS_TTL = 180 * 24 * 3600
# Where the backend leaves the device cookie to set; the middleware writes it onto the response.
_PENDING_COOKIE_ATTR = "_login_device_cookie"


@dataclass(frozen=True)
class LoginAttempt:
    """Who is trying to sign in as whom, as the gate counts it."""

    account: str  # the normalised account name, as typed (it need not exist)
    address: str  # the client's network: an IPv4 address or an IPv6 /64
    device: str | None  # the id of a device that signed into this account before
    known_address: bool = False  # this address signed into this account before

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

    @property
    def known(self) -> bool:
        """A source that signed into the account before: a slowed account does not hold it back."""
        return bool(self.device) or self.known_address


def login_attempt_of(request: Any, username: str) -> LoginAttempt:
    """Describe the attempt carried by ``request`` (an HttpRequest or a DRF Request)."""
    account = normalise_account(username)
    address = client_network(request)
    return LoginAttempt(account=account, address=address, device=_trusted_device(request, account, username),
                        known_address=_address_known(account, address))


def normalise_account(username: str) -> str:
    """Fold a typed name the way the database compares names, so look-alikes share one counter.

    MySQL/MariaDB's ``*_ai_ci`` collations ignore accents, case, width and trailing spaces (``Bób``,
    ``ｂｏｂ`` and ``bob `` all sign in as ``bob``): NFKD splits off accents and widths, the combining
    marks are dropped, casefold() goes past lower() (``ß`` -> ``ss``).
    """
    decomposed = unicodedata.normalize("NFKD", (username or "").strip())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return unicodedata.normalize("NFKC", bare.casefold()).strip()[:150]


def login_gate_enter(attempt: LoginAttempt) -> None:
    """Count the attempt as a failure up front; raise RateLimited when the policy refuses it."""
    pair = counter_add("login_pair", attempt.pair_key)
    account = counter_add("login_account", attempt.account_key)
    address = None if attempt.device else counter_add("login_address", f"ip:{attempt.address}")
    if pair and pair[0] > pair[1].limit:
        raise _refusal("login_pair", pair[1])
    if address and address[0] > address[1].limit:
        raise _refusal("login_address", address[1])
    if _is_slowed(account) and not attempt.known:
        # Every unknown source shares one slow lane, fresh addresses too (else 80 addresses = 80 guesses).
        slow = counter_add("login_slow", attempt.account_key)
        if slow and slow[0] > slow[1].limit:
            raise _refusal("login_slow", slow[1])


def login_gate_passed(attempt: LoginAttempt) -> None:
    """Refund the attempt of a right password, clear the pair's failures and remember the address."""
    counter_refund("login_pair", attempt.pair_key, clear=True)
    counter_refund("login_account", attempt.account_key)
    if not attempt.device:
        counter_refund("login_address", f"ip:{attempt.address}")
    cache.set(_known_address_key(attempt.account, attempt.address), 1, timeout=KNOWN_ADDRESS_TTL)


def login_gate_succeeded(request: Any, attempt: LoginAttempt, user: Any) -> None:
    """A sign-in passed: refund it (``login_gate_passed``) and mark this device as trusted for ``user``."""
    login_gate_passed(attempt)
    device_trust(request, user, device=attempt.device)


def device_trust(request: Any, user: Any, *, device: str | None = None) -> None:
    """Ask the middleware to set a trusted-device cookie for ``user`` on this response.

    Called after a sign-in and after a password change (which voids every older cookie, this
    browser's too, so the browser that changed it is trusted again).
    """
    cookie = signing.dumps({"a": _digest(normalise_account(user.get_username())), "d": device or secrets.token_hex(8),
                            "k": _digest(user.login_device_key)}, salt=DEVICE_COOKIE_SALT)
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


def _trusted_device(request: Any, account: str, username: str) -> str | None:
    value = getattr(request, "COOKIES", {}).get(DEVICE_COOKIE)
    if not value or not account:
        return None
    try:
        data = signing.loads(value, salt=DEVICE_COOKIE_SALT, max_age=DEVICE_COOKIE_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("a") != _digest(account) or not isinstance(data.get("d"), str):
        return None
    key = _device_key_of(username)
    if key is None or data.get("k") != _digest(key):
        return None  # signed before the last password change (or the account is gone)
    return data["d"][:32]


def _device_key_of(username: str) -> str | None:
    # Looked up the way the backend finds the account, so the database's collation decides here too.
    model = get_user_model()
    try:
        user = model._default_manager.get_by_natural_key(username)
    except model.DoesNotExist:
        return None
    return getattr(user, "login_device_key", None)


def _address_known(account: str, address: str) -> bool:
    return bool(account) and cache.get(_known_address_key(account, address)) is not None


def _known_address_key(account: str, address: str) -> str:
    return f"login_known:{_digest(account)}:{_digest(address)}"


def _refusal(scope: str, rate: Any) -> Exception:
    return rate_limited_error(scope, rate, message=_(
        "Too many failed sign-ins. Try again in %(seconds)s seconds, or sign in from a device you have used before."))


def _digest(account: str) -> str:
    # Counters and cookies never hold account names in the clear.
    return hashlib.sha256(account.encode("utf-8")).hexdigest()[:24]
