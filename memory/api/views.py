"""Memory API: list and search, add by hand, edit (a new version), delete, restore, forget one memory for good,
"why do you know this?", the on/off switch, and "forget everything"."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthedRequest
from memory import selectors
from memory.api.serializers import (
    MemoryAddInputSerializer,
    MemoryEditInputSerializer,
    MemoryForgetInputSerializer,
    MemoryForgetOneOutputSerializer,
    MemoryForgetOutputSerializer,
    MemoryListQuerySerializer,
    MemoryOutputSerializer,
    MemorySettingsSerializer,
    MemorySourceOutputSerializer,
)
from memory.services import items as services
from smartmate.platform.idempotency import idempotent
from smartmate.platform.serializers import query_validate


class MemoryListView(APIView):
    """List the student's memories (``status`` active by default, ``type``, ``q`` to search)."""

    @extend_schema(parameters=[MemoryListQuerySerializer], responses=MemoryOutputSerializer(many=True))
    def get(self, request: AuthedRequest) -> Response:
        values = query_validate(MemoryListQuerySerializer, request)
        rows = selectors.memory_list(user=request.user, status=values.get("status"),
                                     memory_type=values.get("type"), query=values.get("q", ""))
        return Response(MemoryOutputSerializer(rows[:500], many=True).data)

    @idempotent
    @extend_schema(request=MemoryAddInputSerializer, responses={201: MemoryOutputSerializer})
    def post(self, request: AuthedRequest) -> Response:
        """Add a memory by hand (type and content), checked like every other memory write."""
        data = MemoryAddInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        item = services.memory_add_by_hand(user=request.user, memory_type=data.validated_data["type"],
                                           content=data.validated_data["content"])
        return Response(MemoryOutputSerializer(item).data, status=status.HTTP_201_CREATED)


class MemoryDetailView(APIView):
    @extend_schema(responses=MemoryOutputSerializer)
    def get(self, request: AuthedRequest, memory_id: int) -> Response:
        return Response(MemoryOutputSerializer(selectors.memory_get(user=request.user, memory_id=memory_id)).data)

    @idempotent
    @extend_schema(request=MemoryEditInputSerializer, responses=MemoryOutputSerializer)
    def patch(self, request: AuthedRequest, memory_id: int) -> Response:
        """Edit a memory: the answer is the new version; the old one stays as history."""
        selectors.memory_get(user=request.user, memory_id=memory_id)
        data = MemoryEditInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        item = services.memory_edit(user=request.user, memory_id=memory_id, content=data.validated_data["content"],
                                    memory_type=data.validated_data.get("type"))
        return Response(MemoryOutputSerializer(item).data)

    @idempotent
    @extend_schema(responses={204: None})
    def delete(self, request: AuthedRequest, memory_id: int) -> Response:
        services.memory_delete(user=request.user, memory_id=memory_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MemoryRestoreView(APIView):
    @idempotent
    @extend_schema(request=None, responses=MemoryOutputSerializer)
    def post(self, request: AuthedRequest, memory_id: int) -> Response:
        return Response(MemoryOutputSerializer(services.memory_restore(user=request.user, memory_id=memory_id)).data)


class MemoryForgetOneView(APIView):
    """Forget a memory for good: it and all its versions, their vectors, cached blocks and audit text."""

    @idempotent
    @extend_schema(operation_id="memories_forget_one", request=None, responses=MemoryForgetOneOutputSerializer)
    def post(self, request: AuthedRequest, memory_id: int) -> Response:
        ids = services.memory_forget(user=request.user, memory_id=memory_id)
        return Response(MemoryForgetOneOutputSerializer({"forgotten": ids}).data)


class MemorySourceView(APIView):
    """Why the assistant knows this: the message it was learned from, and when."""

    @extend_schema(responses=MemorySourceOutputSerializer)
    def get(self, request: AuthedRequest, memory_id: int) -> Response:
        source = selectors.memory_source_get(user=request.user, memory_id=memory_id)
        return Response(MemorySourceOutputSerializer(source).data)


class MemorySettingsView(APIView):
    """Whether the assistant learns and uses memories for this student."""

    @extend_schema(responses=MemorySettingsSerializer)
    def get(self, request: AuthedRequest) -> Response:
        return Response(MemorySettingsSerializer(selectors.memory_settings_get(user=request.user)).data)

    @idempotent
    @extend_schema(request=MemorySettingsSerializer, responses=MemorySettingsSerializer)
    def put(self, request: AuthedRequest) -> Response:
        data = MemorySettingsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = services.memory_settings_update(
            user=request.user, enabled=data.validated_data["enabled"],
            sensitive_memory_enabled=data.validated_data.get("sensitive_memory_enabled"))
        return Response(MemorySettingsSerializer(row).data)


class MemoryForgetView(APIView):
    """Forget everything: rows, jobs, audit text, vectors and cached blocks (``confirm`` must be true)."""

    @idempotent
    @extend_schema(request=MemoryForgetInputSerializer, responses=MemoryForgetOutputSerializer)
    def post(self, request: AuthedRequest) -> Response:
        data = MemoryForgetInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        counts = services.memory_forget_all(user=request.user, confirm=data.validated_data["confirm"])
        return Response(MemoryForgetOutputSerializer(counts).data)
