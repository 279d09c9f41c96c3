"""API authentication that also switches the request to the student's time zone."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request
from rest_framework_simplejwt.authentication import JWTAuthentication


class _ActivatesUserZone:
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        result: tuple[Any, Any] | None = super().authenticate(request)  # type: ignore[misc]
        if result is not None:
            # Serializers render datetimes in the active zone: show the student their own clock.
            timezone.activate(result[0].zone)
        return result


class JWTAuthenticationInUserZone(_ActivatesUserZone, JWTAuthentication):
    """Bearer-token authentication; datetimes come back in the student's zone."""


class SessionAuthenticationInUserZone(_ActivatesUserZone, SessionAuthentication):
    """Session-cookie authentication (browser, browsable API); datetimes in the student's zone."""
