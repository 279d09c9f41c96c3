"""Accounts: the student and their token quota. (Their semester calendar lives in schedule.models.)"""

from __future__ import annotations

import secrets
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


def default_token_limit() -> int:
    return settings.TOKEN_LIMIT_DEFAULT


def new_login_device_key() -> str:
    return secrets.token_hex(16)


UNKNOWN_ZONE = _("%(zone)s is not a time zone we know: pick one from the list, or write a name such as "
                 "Asia/Shanghai or UTC+8.")


def validate_time_zone(value: str) -> None:
    """Accept only IANA zone names this machine knows (e.g. Asia/Shanghai); forms resolve everyday names first."""
    if value not in available_timezones():
        raise ValidationError(UNKNOWN_ZONE, params={"zone": value}, code="time_zone")
    try:
        ZoneInfo(value)
    except ZoneInfoNotFoundError as exc:
        raise ValidationError(UNKNOWN_ZONE, params={"zone": value}, code="time_zone") from exc


class User(AbstractUser):
    """A student. The token quota resets lazily, a week after its window opened."""

    time_zone = models.CharField(
        _("time zone"), max_length=64, default="Asia/Shanghai", validators=[validate_time_zone]
    )
    token_limit = models.PositiveIntegerField(_("weekly token limit"), default=default_token_limit)
    token_usage = models.PositiveIntegerField(_("tokens used this window"), default=0)
    token_window_started_at = models.DateTimeField(_("token window started at"), null=True, blank=True)
    # The first-run guide (smartmate/first_run.py) shows until every step is done or the student dismisses it.
    first_run_dismissed_at = models.DateTimeField(_("first-run guide dismissed at"), null=True, blank=True)
    # Trusted-device cookies carry a digest of it; a password change draws a new one, so every device
    # trusted before stops counting (accounts.login_gate).
    login_device_key = models.CharField(max_length=32, default=new_login_device_key, editable=False)
    # Not a column: what user_password_change leaves on the user for the page that asked (read with getattr).
    revocation_notices: list[str]

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)
