"""Refresh tokens in families: a reused (already rotated) refresh token revokes its whole family.

A family is one sign-in and every refresh token rotated from it (the ``fam`` claim is copied by each
rotation). Rotation blacklists the old token; if that old token ever comes back, either the student
or a thief holds a stolen copy, and nobody can tell which: so every live token of the family is
revoked and both must sign in again (OAuth 2.0 Security BCP, refresh token rotation). Other
devices, being other families, stay signed in.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from rest_framework_simplejwt.exceptions import InvalidToken, TokenBackendError, TokenError
from rest_framework_simplejwt.serializers import TokenObtainPairSerializer, TokenRefreshSerializer
from rest_framework_simplejwt.state import token_backend
from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken, OutstandingToken
from rest_framework_simplejwt.tokens import RefreshToken

FAMILY_CLAIM = "fam"


class FamilyRefreshToken(RefreshToken):
    """A refresh token that names its family: a new token starts one, a rotation keeps it."""

    def __init__(self, token: Any = None, verify: bool = True) -> None:
        super().__init__(token, verify)
        if token is None:  # a new sign-in (rotation reuses the token object and keeps the claim)
            self[FAMILY_CLAIM] = uuid.uuid4().hex


class FamilyTokenObtainPairSerializer(TokenObtainPairSerializer):
    token_class = FamilyRefreshToken


class FamilyTokenRefreshSerializer(TokenRefreshSerializer):
    token_class = FamilyRefreshToken

    def validate(self, attrs: dict[str, Any]) -> dict[str, str]:
        try:
            return super().validate(attrs)
        except get_user_model().DoesNotExist:
            # simplejwt looks the user up with .get(): a deleted account's token must be refused, not a 500.
            raise InvalidToken(_("The account of this token no longer exists.")) from None
        except TokenError:
            refresh_family_revoke_if_reused(str(attrs.get("refresh", "")))
            raise


def refresh_family_revoke_if_reused(raw: str) -> int:
    """If ``raw`` is a genuine refresh token already blacklisted, revoke its family; return how many."""
    payload = _genuine_payload(raw)
    if payload is None or not BlacklistedToken.objects.filter(token__jti=payload.get("jti")).exists():
        return 0
    family, user_id = payload.get(FAMILY_CLAIM), payload.get("user_id")
    if not family or user_id is None:
        return 0
    live = OutstandingToken.objects.filter(user_id=user_id, blacklistedtoken__isnull=True)
    members = [token for token in live if _family_of(token.token) == family]
    BlacklistedToken.objects.bulk_create([BlacklistedToken(token=token) for token in members], ignore_conflicts=True)
    return len(members)


def _genuine_payload(raw: str) -> dict[str, Any] | None:
    # Signature and expiry checked: a forged token must not revoke anyone's sessions.
    try:
        payload = token_backend.decode(raw, verify=True)  # type: ignore[arg-type]  # simplejwt: str, not Token
    except TokenBackendError:
        return None
    return payload if payload.get("token_type") == "refresh" else None


def _family_of(raw: str) -> str | None:
    try:
        return token_backend.decode(raw, verify=False).get(FAMILY_CLAIM)  # type: ignore[arg-type]  # as above
    except TokenBackendError:
        return None
