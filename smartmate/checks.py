"""Deployment checks of our own, shown by ``manage.py check --deploy`` beside Django's.

One function per check; ``DEPLOY_CHECKS`` lists them and ``SmartmateConfig.ready`` registers each
with the ``security`` tag and ``deploy=True`` (so a plain ``manage.py check`` stays quiet in debug).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks


def check_metrics_token(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """Warn when production serves /metrics without a token (then it answers loopback only)."""
    if settings.DEBUG or settings.METRICS_TOKEN:
        return []
    return [checks.Warning(
        "METRICS_TOKEN is not set: /metrics answers only direct loopback requests, so a Prometheus "
        "scraping from another host is refused.",
        hint="Set METRICS_TOKEN and scrape with 'Authorization: Bearer <token>'.",
        id="smartmate.W001",
    )]


def check_trusted_proxies(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """Warn when production sits behind a proxy but the rate limits still count the socket's address.

    Then every student shares the proxy's address: one student's failed sign-ins refuse the whole
    campus (the probe saw ten bad logins for one student answer another's correct login with 429).
    """
    behind_proxy = bool(getattr(settings, "SECURE_PROXY_SSL_HEADER", None)) or settings.USE_X_FORWARDED_HOST
    if settings.DEBUG or not behind_proxy or settings.RATE_LIMIT_TRUSTED_PROXIES:
        return []
    return [checks.Warning(
        "The app runs behind a proxy (DJANGO_BEHIND_TLS_PROXY) but RATE_LIMIT_TRUSTED_PROXIES is 0: every "
        "request counts against the proxy's address, so one student's failed sign-ins can refuse everyone.",
        hint="Set RATE_LIMIT_TRUSTED_PROXIES to the number of proxies that append to X-Forwarded-For (1 for "
             "one nginx).",
        id="smartmate.W002",
    )]


DEPLOY_CHECKS = [check_metrics_token, check_trusted_proxies]
