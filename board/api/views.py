"""Planning API: feasibility, previews (create, read, adjust, discard), apply, change sets and undo,
and direct edits of placed blocks (move, remove, done, missed, where it could go)."""

from __future__ import annotations

from dataclasses import asdict

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthedRequest
from board import direct_edits, planning, previews
from board.api.serializers import (
    BlockMoveInputSerializer,
    BlockSuggestionsSerializer,
    BoardBlockSerializer,
    ChangeSetOutputSerializer,
    DirectEditInputSerializer,
    DirectEditOutputSerializer,
    DirectMoveInputSerializer,
    FeasibilitySerializer,
    MoveCheckSerializer,
    PreviewCreateInputSerializer,
    PreviewOutputSerializer,
    SuggestionsQuerySerializer,
)
from board.preview_presenter import changeset_view, preview_view
from schedule.models import ChangeSet
from smartmate.platform.idempotency import idempotent
from smartmate.platform.ratelimit import rate_limit_hit, user_key
from taskclasses.models import TaskItem


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


# --- Direct edits of the board -------------------------------------------------------------------------

def _edit_body(result: direct_edits.EditResult) -> dict:
    view = changeset_view(result.changeset)
    return DirectEditOutputSerializer({"changeset_id": view["id"], "summary": view["summary"],
                                       "block": asdict(result.block) if result.block else None}).data


def _block_id(ids: dict[str, int]) -> int:
    """The block's id from the path: ``item_id`` (a study block) or ``task_id`` (a quick note)."""
    return ids["item_id"] if "item_id" in ids else ids["task_id"]


class BlockAPIView(APIView):
    """A view of one placed block; its route says which kind (``item`` or ``note``)."""

    kind = direct_edits.ITEM


def _edit_input(request: AuthedRequest, kind: str, ids: dict[str, int]) -> dict:
    rate_limit_hit("board_edits", user_key(request.user))
    direct_edits.block_ensure(user=request.user, kind=kind, block_id=_block_id(ids))
    data = DirectEditInputSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


class BoardBlockView(BlockAPIView):
    """A placed study block (``item``) or quick note (``note``) with its version, for a later edit."""

    @extend_schema(responses=BoardBlockSerializer)
    def get(self, request: AuthedRequest, **ids: int) -> Response:
        block = direct_edits.block_get(user=request.user, kind=self.kind, block_id=_block_id(ids))
        return Response(BoardBlockSerializer(asdict(block)).data)


class BoardBlockMoveView(BlockAPIView):
    """Move a placed block; refused with the editing core's reason (409 naming the occupant) and places that work."""

    @idempotent
    @extend_schema(request=DirectMoveInputSerializer, responses=PolymorphicProxySerializer(
        component_name="DirectMoveOutput", serializers=[DirectEditOutputSerializer, MoveCheckSerializer],
        resource_type_field_name=None))
    def post(self, request: AuthedRequest, **ids: int) -> Response:
        rate_limit_hit("board_edits", user_key(request.user))
        direct_edits.block_ensure(user=request.user, kind=self.kind, block_id=_block_id(ids))
        data = DirectMoveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        move = dict(data.validated_data)
        if move.pop("dry_run"):  # the picker asks first: refused as the move would be, nothing written
            place = direct_edits.block_move_check(user=request.user, kind=self.kind, block_id=_block_id(ids), **move)
            return Response(MoveCheckSerializer({"dry_run": True, "place": asdict(place)}).data)
        result = direct_edits.block_move(user=request.user, kind=self.kind, block_id=_block_id(ids), **move)
        return Response(_edit_body(result))


class BoardBlockRemoveView(BlockAPIView):
    """Take a placed block off the board (its study item waits again; its quick note is unscheduled)."""

    @idempotent
    @extend_schema(request=DirectEditInputSerializer, responses=DirectEditOutputSerializer)
    def post(self, request: AuthedRequest, **ids: int) -> Response:
        result = direct_edits.block_remove(user=request.user, kind=self.kind, block_id=_block_id(ids),
                                           **_edit_input(request, self.kind, ids))
        return Response(_edit_body(result))


class BoardBlockDoneView(BlockAPIView):
    """Mark a placed study block done."""

    status_to = TaskItem.Status.DONE

    @idempotent
    @extend_schema(request=DirectEditInputSerializer, responses=DirectEditOutputSerializer)
    def post(self, request: AuthedRequest, **ids: int) -> Response:
        result = direct_edits.block_mark(user=request.user, kind=self.kind, block_id=_block_id(ids), status=self.status_to,
                                         **_edit_input(request, self.kind, ids))
        return Response(_edit_body(result))


class BoardBlockMissedView(BoardBlockDoneView):
    """Mark a placed study block missed (it can be planned again later)."""

    status_to = TaskItem.Status.MISSED


class BoardBlockSuggestionsView(BlockAPIView):
    """Where a placed block could move (the "move to…" picker): the first places from now on."""

    @extend_schema(parameters=[SuggestionsQuerySerializer], responses=BlockSuggestionsSerializer)
    def get(self, request: AuthedRequest, **ids: int) -> Response:
        direct_edits.block_ensure(user=request.user, kind=self.kind, block_id=_block_id(ids))
        query = SuggestionsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        block, slots = direct_edits.block_suggestions(user=request.user, kind=self.kind, block_id=_block_id(ids),
                                                      limit=query.validated_data["limit"])
        return Response(BlockSuggestionsSerializer({"block": asdict(block),
                                                    "suggestions": [asdict(s) for s in slots]}).data)


class BoardBlockPinView(BlockAPIView):
    """Pin a placed block (POST: nothing moves or removes it) or unpin it (DELETE)."""

    @idempotent
    @extend_schema(request=None, responses=BoardBlockSerializer)
    def post(self, request: AuthedRequest, **ids: int) -> Response:
        return self._pin(request, ids, pinned=True)

    @idempotent
    @extend_schema(request=None, responses=BoardBlockSerializer)
    def delete(self, request: AuthedRequest, **ids: int) -> Response:
        return self._pin(request, ids, pinned=False)

    def _pin(self, request: AuthedRequest, ids: dict[str, int], *, pinned: bool) -> Response:
        rate_limit_hit("board_edits", user_key(request.user))
        block = direct_edits.block_pin(user=request.user, kind=self.kind, block_id=_block_id(ids), pinned=pinned)
        return Response(BoardBlockSerializer(asdict(block)).data)
