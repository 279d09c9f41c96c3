"""Plans that heal: catch-up (blocks gone by and not done, placed again) and minimum-churn repair
(blocks a course, an event or a re-import displaced), each answered as an ordinary preview."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthedRequest
from board import catch_up, repair
from board.api.serializers import PreviewOutputSerializer
from board.changeset_summaries import changeset_summary
from board.preview_presenter import preview_view
from schedule.api.serializers import SpanInputSerializer
from smartmate.platform.idempotency import idempotent
from smartmate.platform.ratelimit import rate_limit_hit, user_key

MAX_ID = 2**63 - 1


class CatchUpInputSerializer(serializers.Serializer):
    task_class_id = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False,
                                             help_text="One plan only; default: every plan still running.")
    item_id = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False,
                                       help_text="One block only (a missed one, or one gone by and not done).")


class CatchUpCountSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Blocks gone by and not marked done, in plans still running.")


class RepairInputSerializer(serializers.Serializer):
    changeset_id = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False,
                                            help_text="The change that displaced the blocks; default: the newest.")


class EventOverBlocksInputSerializer(SpanInputSerializer):
    title = serializers.CharField(max_length=100)
    location = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class EventOverBlocksOutputSerializer(serializers.Serializer):
    changeset_id = serializers.IntegerField()
    summary = serializers.CharField()
    preview = PreviewOutputSerializer(allow_null=True)
    repair_problem = serializers.CharField(allow_blank=True)


def _preview_body(preview) -> dict:
    return PreviewOutputSerializer(preview_view(preview)).data


class CatchUpView(APIView):
    """Blocks gone by and not done: how many (GET), and a preview placing them again (POST)."""

    @extend_schema(responses=CatchUpCountSerializer)
    def get(self, request: AuthedRequest) -> Response:
        return Response({"count": catch_up.catch_up_count(user=request.user)})

    @idempotent
    @extend_schema(request=CatchUpInputSerializer, responses={201: PreviewOutputSerializer})
    def post(self, request: AuthedRequest) -> Response:
        rate_limit_hit("planning", user_key(request.user))
        data = CatchUpInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        preview = catch_up.catch_up_preview(user=request.user, task_class_id=data.validated_data.get("task_class_id"),
                                            item_id=data.validated_data.get("item_id"))
        return Response(_preview_body(preview), status=status.HTTP_201_CREATED)


class RepairView(APIView):
    """A preview placing again the blocks a change displaced, moving as few others as possible."""

    @idempotent
    @extend_schema(request=RepairInputSerializer, responses={201: PreviewOutputSerializer})
    def post(self, request: AuthedRequest) -> Response:
        rate_limit_hit("planning", user_key(request.user))
        data = RepairInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        preview = repair.repair_preview(user=request.user, changeset_id=data.validated_data.get("changeset_id"))
        return Response(_preview_body(preview), status=status.HTTP_201_CREATED)


class EventOverBlocksView(APIView):
    """Add an event where planned blocks sit: they make way (one undoable change), then a repair preview."""

    @idempotent
    @extend_schema(request=EventOverBlocksInputSerializer, responses={201: EventOverBlocksOutputSerializer})
    def post(self, request: AuthedRequest) -> Response:
        rate_limit_hit("board_edits", user_key(request.user))
        data = EventOverBlocksInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        changeset = repair.event_create_displacing(
            user=request.user, title=values["title"], span=SpanInputSerializer.to_span(values),
            location=values["location"], note=values["note"])
        preview, problem = None, ""
        try:
            preview = repair.repair_preview(user=request.user, changeset_id=changeset.pk)
        except repair.NothingToRepairError as refused:
            problem = refused.message
        body = {"changeset_id": changeset.pk, "summary": changeset_summary(changeset),
                "preview": preview_view(preview) if preview is not None else None, "repair_problem": problem}
        return Response(EventOverBlocksOutputSerializer(body).data, status=status.HTTP_201_CREATED)
