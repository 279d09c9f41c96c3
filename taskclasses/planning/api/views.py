"""Planning API: feasibility, previews (create, read, adjust, discard), apply, change sets and undo."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthedRequest
from schedule.models import ChangeSet
from smartmate.platform.idempotency import idempotent
from smartmate.platform.ratelimit import rate_limit_hit, user_key
from taskclasses.planning import planning, previews
from taskclasses.planning.api.serializers import (
    BlockMoveInputSerializer,
    ChangeSetOutputSerializer,
    FeasibilitySerializer,
    PreviewCreateInputSerializer,
    PreviewOutputSerializer,
)
from taskclasses.planning.preview_presenter import changeset_view, preview_view


def _preview_body(preview) -> dict:
    return PreviewOutputSerializer(preview_view(preview)).data


class FeasibilityView(APIView):
    """Blocks requested against usable slots in the class's window, before planning."""

    @extend_schema(responses=FeasibilitySerializer)
    def get(self, request: AuthedRequest, task_class_id: int) -> Response:
        figures = planning.task_class_feasibility(user=request.user, task_class_id=task_class_id)
        return Response(FeasibilitySerializer(figures.as_dict()).data)


class PreviewListView(APIView):
    """Plan one or several classes together into a preview (nothing is written to the board)."""

    @idempotent
    @extend_schema(request=PreviewCreateInputSerializer, responses={201: PreviewOutputSerializer})
    def post(self, request: AuthedRequest) -> Response:
        rate_limit_hit("planning", user_key(request.user))
        data = PreviewCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        preview = planning.preview_create(user=request.user, task_class_ids=data.validated_data["task_class_ids"])
        return Response(_preview_body(preview), status=status.HTTP_201_CREATED)


class PreviewDetailView(APIView):
    @extend_schema(responses=PreviewOutputSerializer)
    def get(self, request: AuthedRequest, preview_id: int) -> Response:
        return Response(_preview_body(planning.preview_get(user=request.user, preview_id=preview_id)))

    @idempotent
    @extend_schema(responses={204: None})
    def delete(self, request: AuthedRequest, preview_id: int) -> Response:
        planning.preview_discard(user=request.user, preview_id=preview_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PreviewBlockView(APIView):
    """Move a suggested block (checked: window, exclusions, conflicts, filler rules) or remove it."""

    @idempotent
    @extend_schema(request=BlockMoveInputSerializer, responses=PreviewOutputSerializer)
    def patch(self, request: AuthedRequest, preview_id: int, item_id: int) -> Response:
        planning.preview_get(user=request.user, preview_id=preview_id)
        data = BlockMoveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        preview = previews.preview_block_move(user=request.user, preview_id=preview_id, item_id=item_id,
                                              **data.validated_data)
        return Response(_preview_body(preview))

    @idempotent
    @extend_schema(responses=PreviewOutputSerializer)
    def delete(self, request: AuthedRequest, preview_id: int, item_id: int) -> Response:
        preview = previews.preview_block_remove(user=request.user, preview_id=preview_id, item_id=item_id)
        return Response(_preview_body(preview))


class PreviewApplyView(APIView):
    """Write the preview to the board in one transaction; 409 naming a slot taken meanwhile."""

    @idempotent
    @extend_schema(request=None, responses={201: ChangeSetOutputSerializer})
    def post(self, request: AuthedRequest, preview_id: int) -> Response:
        changeset = previews.preview_apply(user=request.user, preview_id=preview_id)
        return Response(ChangeSetOutputSerializer(changeset_view(changeset)).data, status=status.HTTP_201_CREATED)


class ChangeSetListView(APIView):
    @extend_schema(responses=ChangeSetOutputSerializer(many=True))
    def get(self, request: AuthedRequest) -> Response:
        changesets = ChangeSet.objects.filter(user=request.user).order_by("-applied_at")[:50]
        return Response(ChangeSetOutputSerializer([changeset_view(c) for c in changesets], many=True).data)


class ChangeSetUndoView(APIView):
    """Revert an apply exactly; refused when its blocks changed since."""

    @idempotent
    @extend_schema(request=None, responses=ChangeSetOutputSerializer)
    def post(self, request: AuthedRequest, changeset_id: int) -> Response:
        changeset = previews.changeset_undo(user=request.user, changeset_id=changeset_id)
        return Response(ChangeSetOutputSerializer(changeset_view(changeset)).data)
