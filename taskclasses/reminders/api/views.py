"""Reminders API: list (due reminders produced first), mark one or all read, read and change settings."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthedRequest
from smartmate.platform.idempotency import idempotent
from taskclasses.reminders import selectors, services
from taskclasses.reminders.api.serializers import (
    ReminderListOutputSerializer,
    ReminderOutputSerializer,
    ReminderSettingsSerializer,
)
from taskclasses.reminders.presenters import reminder_json


class ReminderListView(APIView):
    """The student's latest reminders and how many are unread."""

    @extend_schema(responses=ReminderListOutputSerializer)
    def get(self, request: AuthedRequest) -> Response:
        services.reminders_produce(user=request.user)  # embedded defaults have no beat: reading catches up
        return Response(_listing(request))


class ReminderReadView(APIView):
    @idempotent
    @extend_schema(request=None, responses=ReminderOutputSerializer)
    def post(self, request: AuthedRequest, reminder_id: int) -> Response:
        reminder = services.reminder_mark_read(user=request.user, reminder_id=reminder_id)
        return Response(reminder_json(reminder, request.user.zone))


class ReminderReadAllView(APIView):
    @idempotent
    @extend_schema(request=None, responses=ReminderListOutputSerializer)
    def post(self, request: AuthedRequest) -> Response:
        services.reminders_mark_all_read(user=request.user)
        return Response(_listing(request))


class ReminderSettingsView(APIView):
    @extend_schema(responses=ReminderSettingsSerializer)
    def get(self, request: AuthedRequest) -> Response:
        return Response(ReminderSettingsSerializer(services.reminder_settings_get(user=request.user)).data)

    @idempotent
    @extend_schema(request=ReminderSettingsSerializer, responses=ReminderSettingsSerializer)
    def patch(self, request: AuthedRequest) -> Response:
        data = ReminderSettingsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        changed = services.reminder_settings_update(user=request.user, **data.validated_data)
        return Response(ReminderSettingsSerializer(changed).data)


def _listing(request: AuthedRequest) -> dict:
    reminders = selectors.reminder_list(user=request.user)
    return {"unread_count": selectors.reminder_unread_count(user=request.user),
            "reminders": [reminder_json(r, request.user.zone) for r in reminders]}
