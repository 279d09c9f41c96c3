"""Accounts API: registration, JWT login/refresh/logout, password and profile. (The calendar: schedule.api.)"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import StreamingHttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework_simplejwt.views import TokenObtainPairView, TokenRefreshView

from accounts import services
from accounts.api.serializers import (
    AccountCountsOutputSerializer,
    AccountDeletedOutputSerializer,
    AccountDeleteInputSerializer,
    LogoutInputSerializer,
    PasswordChangeInputSerializer,
    PasswordChangeOutputSerializer,
    ProfileInputSerializer,
    RegisterInputSerializer,
    RegisterOutputSerializer,
    UserOutputSerializer,
)
from accounts.data_erase import account_delete
from accounts.data_export import user_data_download
from accounts.data_ports import user_data_counts
from accounts.data_views import archive_response
from accounts.login_gate import device_trust, login_attempt_of
from accounts.requests import AuthedRequest
from accounts.tokens import FamilyRefreshToken, FamilyTokenObtainPairSerializer, FamilyTokenRefreshSerializer
from smartmate.platform.idempotency import idempotent
from smartmate.platform.ratelimit import client_network, rate_limit_hit, user_key


def _as_drf_validation_error(exc: DjangoValidationError) -> serializers.ValidationError:
    if hasattr(exc, "message_dict"):
        return serializers.ValidationError(exc.message_dict)
    return serializers.ValidationError({"non_field_errors": exc.messages})


class RegisterView(APIView):
    """Create an account and return it with a token pair."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(request=RegisterInputSerializer, responses={201: RegisterOutputSerializer})
    def post(self, request: Request) -> Response:
        rate_limit_hit("register", f"ip:{client_network(request)}")
        data = RegisterInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            user = services.user_register(**data.validated_data)
        except DjangoValidationError as exc:
            if hasattr(exc, "message_dict"):
                raise _as_drf_validation_error(exc) from exc
            raise serializers.ValidationError({"password": exc.messages}) from exc
        refresh = FamilyRefreshToken.for_user(user)
        body = {"user": UserOutputSerializer(user).data, "refresh": str(refresh), "access": str(refresh.access_token)}
        return Response(body, status=status.HTTP_201_CREATED)


class LoginView(TokenObtainPairView):
    """Exchange a username and password for an access and a refresh token (behind the login gate)."""

    serializer_class = FamilyTokenObtainPairSerializer


class RefreshView(TokenRefreshView):
    """Exchange a refresh token for a new pair; the old one is blacklisted, and reusing it revokes its family."""

    serializer_class = FamilyTokenRefreshSerializer


class LogoutView(APIView):
    """Blacklist the given refresh token and close the student's open websockets."""

    @extend_schema(request=LogoutInputSerializer, responses={204: None})
    def post(self, request: AuthedRequest) -> Response:
        data = LogoutInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.user_logout(user=request.user, refresh=data.validated_data["refresh"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordChangeView(APIView):
    """Change the password; every refresh token, session and socket of the student ends, a new pair is returned."""

    @extend_schema(request=PasswordChangeInputSerializer, responses=PasswordChangeOutputSerializer)
    def post(self, request: AuthedRequest) -> Response:
        data = PasswordChangeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            user = services.user_password_change(
                user=request.user, attempt=login_attempt_of(request, request.user.get_username()),
                **data.validated_data)
        except DjangoValidationError as exc:
            raise _as_drf_validation_error(exc) from exc
        device_trust(request, user)
        refresh = FamilyRefreshToken.for_user(user)
        return Response({"refresh": str(refresh), "access": str(refresh.access_token),
                         "notices": getattr(user, "revocation_notices", [])})


class MeView(APIView):
    """Read or change the signed-in student's profile, or delete the account (password required)."""

    @extend_schema(responses=UserOutputSerializer)
    def get(self, request: Request) -> Response:
        return Response(UserOutputSerializer(request.user).data)

    @idempotent
    @extend_schema(request=ProfileInputSerializer, responses=UserOutputSerializer)
    def patch(self, request: AuthedRequest) -> Response:
        data = ProfileInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            user = services.user_profile_update(user=request.user, **data.validated_data)
        except DjangoValidationError as exc:
            raise _as_drf_validation_error(exc) from exc
        return Response(UserOutputSerializer(user).data)

    @extend_schema(request=AccountDeleteInputSerializer, responses={200: AccountDeletedOutputSerializer})
    def delete(self, request: AuthedRequest) -> Response:
        """Delete the account and everything in it; the password is asked again. Cannot be undone."""
        data = AccountDeleteInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rate_limit_hit("account_delete", user_key(request.user))
        counts = account_delete(user=request.user, password=data.validated_data["password"])
        return Response({"deleted": counts})


class MyDataExportView(APIView):
    """Download everything the student keeps here: a ZIP archive (format: docs/own-data.md), streamed."""

    @extend_schema(responses={(200, "application/zip"): bytes})
    def get(self, request: AuthedRequest) -> StreamingHttpResponse:
        return archive_response(user_data_download(user=request.user), request.user.username)


class MyDataCountsView(APIView):
    """How many rows of each kind the student owns ("area.table": count)."""

    @extend_schema(responses=AccountCountsOutputSerializer)
    def get(self, request: AuthedRequest) -> Response:
        return Response({"counts": user_data_counts(user=request.user)})
