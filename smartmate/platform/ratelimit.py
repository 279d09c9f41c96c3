"""Abuse limits: atomic fixed-window counters on Django's cache, and a per-socket frame budget.

``rate_limit_hit(scope, key)`` counts one action of ``key`` (a user, an address, a username) in the
current window of ``scope`` and raises ``RateLimited`` (HTTP 429, ``rate_limited``, with
``retry_after`` seconds) once the scope's limit is passed. Rates come from ``settings.RATE_LIMITS``
(``"10/min"``, ``"30/5min"``, ``"5/s"``), env-overridable, read on every call so tests can change them.

Why a fixed window with ``cache.add`` + ``cache.incr``: both are single atomic operations on Redis
(``SET NX`` and ``INCR``) and under the lock of the local-memory cache, so concurrent requests in
any number of processes never lose a count (DRF's throttles read, append and write back a list,
which races). A fixed window lets a client spend up to twice the limit around a boundary; for abuse
limits that is fine and costs one round trip. The window start is part of the key, so a new window
starts a new counter: expiry never has to be observed, and an injected clock (``now=``) moves
tests between windows without waiting (or replace the module's ``clock``).

When the counters' store (Redis) cannot be reached, a counted action is refused with ``CountersUnavailable``
(HTTP 503 ``service_unavailable``, ``retry_after`` seconds), never let through uncounted (an abuse limit
that fails open is no limit) and never a 500.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext as _
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from smartmate.platform.exceptions import AppError

log = logging.getLogger(__name__)

KEY_PREFIX = "ratelimit"
_PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600,
            "d": 86400, "day": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([a-z]+)\s*$")

Clock = Callable[[], float]

# The wall clock of every counter; tests replace it to step between windows without waiting.
clock: Clock = time.time
# What the cache raises when its Redis is down, restarting or out of reach (the local-memory cache never does).
STORE_DOWN_ERRORS = (RedisConnectionError, RedisTimeoutError)
# How long a client should wait before trying again while the counters' store is unreachable.
STORE_RETRY_AFTER = 5


class RateLimited(AppError):
    """Too many actions in a window; ``detail`` says which limit and when to retry."""

    code = "rate_limited"
    status = 429

    @property
    def retry_after(self) -> int:
        return int((self.detail or {}).get("retry_after", 1))


class CountersUnavailable(AppError):
    """The counters' store cannot be reached: the action is refused for now (503), to be tried again shortly."""

    code = "service_unavailable"
    status = 503

    @property
    def retry_after(self) -> int:
        return STORE_RETRY_AFTER


@dataclass(frozen=True)
class Rate:
    """At most ``limit`` actions per ``window`` seconds."""

    limit: int
    window: int

    def __str__(self) -> str:
        return f"{self.limit}/{self.window}s"


def rate_parse(text: str) -> Rate:
    """Parse ``"10/min"``, ``"30/5min"``, ``"2/s"`` or ``"100/hour"``; raise ValueError otherwise."""
    match = _RATE.match(text.lower())
    if not match or match.group(3) not in _PERIODS:
        raise ValueError(f"{text!r} is not a rate like 10/min, 30/5min or 2/s.")
    limit, multiple, unit = int(match.group(1)), int(match.group(2) or 1), match.group(3)
    if multiple < 1:
        raise ValueError(f"{text!r} has an empty window.")
    return Rate(limit=limit, window=multiple * _PERIODS[unit])


def rate_get(scope: str) -> Rate | None:
    """Return the configured rate of ``scope``; None (no limit) when unset or empty."""
    text = settings.RATE_LIMITS.get(scope) or ""
    return rate_parse(text) if text.strip() else None


def rate_limit_hit(scope: str, key: str, *, now: float | None = None) -> int:
    """Count one action of ``key`` under ``scope``; return the count so far in this window.

    Raises RateLimited when the count passes the scope's limit (the refused action counts too, so a
    client hammering through the refusal stays refused until the window ends).
    """
    counted = counter_add(scope, key, now=now)
    if counted is None:
        return 0
    count, rate = counted
    if count > rate.limit:
        raise rate_limited_error(scope, rate, now=now,
                                 message=_("Too many requests. Try again in %(seconds)s seconds."))
    return count


def counter_add(scope: str, key: str, *, now: float | None = None) -> tuple[int, Rate] | None:
    """Count one event of ``key`` under ``scope`` without refusing; return (count, rate) or None if unlimited.

    For policies that decide themselves what a count means (the login gate counts an attempt as a
    failure first and refunds it on success, so concurrent guesses can never overtake the limit).
    """
    rate = rate_get(scope)
    if rate is None:
        return None
    return _increment(_window_key(scope, key, rate, now), timeout=rate.window + 5), rate


def counter_refund(scope: str, key: str, *, now: float | None = None, clear: bool = False) -> None:
    """Take back one counted event of ``key`` (or, with ``clear``, every event of this window)."""
    rate = rate_get(scope)
    if rate is None:
        return
    cache_key = _window_key(scope, key, rate, now)
    try:
        if clear:
            cache.delete(cache_key)
        else:
            cache.decr(cache_key)
    except ValueError:
        pass  # the window ended meanwhile: nothing left to refund
    except STORE_DOWN_ERRORS:
        # The action itself is done (a sign-in succeeded); an unrefunded count ends with its window.
        log.warning("Could not refund a %s count: the counters' store is unreachable", scope, exc_info=True)


def rate_limited_error(scope: str, rate: Rate, *, message: str, now: float | None = None) -> RateLimited:
    """Build the 429 of ``scope``; ``message`` may name the wait as ``%(seconds)s`` (the window's rest)."""
    seconds = seconds_left(rate, now)
    return RateLimited(message % {"seconds": seconds},
                       detail={"scope": scope, "limit": rate.limit, "window": rate.window, "retry_after": seconds})


def seconds_left(rate: Rate, now: float | None = None) -> int:
    """Seconds until the current window of ``rate`` ends (at least 1)."""
    moment = clock() if now is None else now
    window_start = int(moment // rate.window) * rate.window
    return max(1, math.ceil(window_start + rate.window - moment))


def _window_key(scope: str, key: str, rate: Rate, now: float | None) -> str:
    moment = clock() if now is None else now
    return f"{KEY_PREFIX}:{scope}:{key}:{int(moment // rate.window) * rate.window}"


def _increment(cache_key: str, *, timeout: int) -> int:
    try:
        return _add_or_incr(cache_key, timeout=timeout)
    except STORE_DOWN_ERRORS as exc:
        log.warning("Rate limit %s not counted: the counters' store is unreachable (%s)", cache_key, exc)
        raise CountersUnavailable(_("The service is briefly unavailable. Please try again in a few seconds."),
                                  detail={"retry_after": STORE_RETRY_AFTER}) from exc


def _add_or_incr(cache_key: str, *, timeout: int) -> int:
    # add() creates the counter atomically; incr() bumps it atomically. The counter can vanish
    # between the two only if it expired (its window long over) or the cache was cleared: start again.
    for _attempt in range(3):
        if cache.add(cache_key, 1, timeout=timeout):
            return 1
        try:
            return int(cache.incr(cache_key))
        except ValueError:
            continue
    return 1


# --- Who is counted ------------------------------------------------------------------------------

def client_ip(request: HttpRequest) -> str:
    """Return the client's address; behind ``RATE_LIMIT_TRUSTED_PROXIES`` proxies, the one they saw.

    X-Forwarded-For is only read when proxies are declared: otherwise any client could forge it and
    spread its attempts over invented addresses.
    """
    proxies = settings.RATE_LIMIT_TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        hops = [hop.strip() for hop in str(forwarded).split(",") if hop.strip()]
        if hops:
            return hops[max(0, len(hops) - proxies)]
    return str(request.META.get("REMOTE_ADDR", "") or "unknown")


def client_network(request: HttpRequest) -> str:
    """Return what counts as one client: its IPv4 address, or the /64 around an IPv6 address.

    One IPv6 subscriber usually holds a whole /64 (SLAAC, privacy addresses), so counting per /128
    would give one attacker 2**64 fresh addresses.
    """
    return address_network(client_ip(request))


def address_network(address: str) -> str:
    """Return the counted network of ``address`` (unchanged when it is not an IP address)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def user_key(user: Any) -> str:
    """Return the counter key of a signed-in student."""
    return f"user:{user.pk}"


def request_key(request: Any) -> str:
    """Count signed-in students by id and everyone else by address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return user_key(user)
    return f"ip:{client_network(request)}"


# --- Websocket frames ------------------------------------------------------------------------------

class FrameBudget:
    """A per-connection fixed window of frames (in memory: a socket lives in one process)."""

    def __init__(self, scope: str = "ws_frames", *, clock: Clock = time.monotonic) -> None:
        self.scope = scope
        self.clock = clock
        self.window_start: float | None = None
        self.count = 0

    def take(self) -> None:
        """Count one frame; raise RateLimited past the scope's limit in the current window."""
        rate = rate_get(self.scope)
        if rate is None:
            return
        moment = self.clock()
        if self.window_start is None or moment >= self.window_start + rate.window:
            self.window_start, self.count = moment, 0
        self.count += 1
        if self.count > rate.limit:
            retry_after = max(1, math.ceil(self.window_start + rate.window - moment))
            raise RateLimited(
                _("Too many messages on this connection. Slow down."),
                detail={"scope": self.scope, "limit": rate.limit, "window": rate.window,
                        "retry_after": retry_after})
