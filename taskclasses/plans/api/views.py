"""Task-class API: list and create classes, read, change and delete one, and manage its blocks."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthedRequest
from smartmate.platform.idempotency import idempotent
from taskclasses.plans import selectors, services
from taskclasses.plans.api.serializers import (
    TaskClassCreateInputSerializer,
    TaskClassDetailOutputSerializer,
    TaskClassOutputSerializer,
    TaskClassUpdateInputSerializer,
    TaskItemAddInputSerializer,
    TaskItemOutputSerializer,
    TaskItemsReorderInputSerializer,
    TaskItemUpdateInputSerializer,
)


def _detail(request: AuthedRequest, task_class_id: int) -> dict:
    detail = selectors.task_class_detail_get(user=request.user, task_class_id=task_class_id)
    return TaskClassDetailOutputSerializer(detail).data


def _item(request: AuthedRequest, task_class_id: int, item_id: int) -> dict:
    view = selectors.task_item_detail_get(user=request.user, item_id=item_id, task_class_id=task_class_id)
    return TaskItemOutputSerializer(view).data


class TaskClassListView(APIView):
    """List the student's task classes (with placed/total counts) or create one with its blocks."""

    @extend_schema(responses=TaskClassOutputSerializer(many=True))
    def get(self, request: AuthedRequest) -> Response:
        return Response(TaskClassOutputSerializer(selectors.task_class_list(user=request.user), many=True).data)

    @idempotent
    @extend_schema(request=TaskClassCreateInputSerializer, responses={201: TaskClassDetailOutputSerializer})
    def post(self, request: AuthedRequest) -> Response:
        data = TaskClassCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        task_class = services.task_class_create(user=request.user, **data.validated_data)
        return Response(_detail(request, task_class.pk), status=status.HTTP_201_CREATED)


class TaskClassDetailView(APIView):
    """Read a class with its blocks and their placements, change its fields, or delete it."""

    @extend_schema(responses=TaskClassDetailOutputSerializer)
    def get(self, request: AuthedRequest, task_class_id: int) -> Response:
        return Response(_detail(request, task_class_id))

    @idempotent
    @extend_schema(request=TaskClassUpdateInputSerializer, responses=TaskClassDetailOutputSerializer)
    def patch(self, request: AuthedRequest, task_class_id: int) -> Response:
        selectors.task_class_get(user=request.user, task_class_id=task_class_id)  # 404 before validating
        data = TaskClassUpdateInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        services.task_class_update(user=request.user, task_class_id=task_class_id, **data.validated_data)
        return Response(_detail(request, task_class_id))

    @idempotent
    @extend_schema(responses={204: None})
    def delete(self, request: AuthedRequest, task_class_id: int) -> Response:
        services.task_class_delete(user=request.user, task_class_id=task_class_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TaskItemListView(APIView):
    """Add a block to a class (at the end, or at a position)."""

    @idempotent
    @extend_schema(request=TaskItemAddInputSerializer, responses={201: TaskItemOutputSerializer})
    def post(self, request: AuthedRequest, task_class_id: int) -> Response:
        selectors.task_class_get(user=request.user, task_class_id=task_class_id)
        data = TaskItemAddInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        item = services.task_item_add(user=request.user, task_class_id=task_class_id, **data.validated_data)
        return Response(_item(request, task_class_id, item.pk), status=status.HTTP_201_CREATED)


class TaskItemDetailView(APIView):
    """Rename a block or remove it (the others are numbered 1..n again)."""

    @idempotent
    @extend_schema(request=TaskItemUpdateInputSerializer, responses=TaskItemOutputSerializer)
    def patch(self, request: AuthedRequest, task_class_id: int, item_id: int) -> Response:
        selectors.task_item_detail_get(user=request.user, item_id=item_id, task_class_id=task_class_id)
        data = TaskItemUpdateInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        services.task_item_update(user=request.user, item_id=item_id, task_class_id=task_class_id,
                                  **data.validated_data)
        return Response(_item(request, task_class_id, item_id))

    @idempotent
    @extend_schema(responses={204: None})
    def delete(self, request: AuthedRequest, task_class_id: int, item_id: int) -> Response:
        services.task_item_remove(user=request.user, item_id=item_id, task_class_id=task_class_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TaskItemsReorderView(APIView):
    """Put a class's blocks in a new order; every block id must be sent exactly once."""

    @idempotent
    @extend_schema(request=TaskItemsReorderInputSerializer, responses=TaskClassDetailOutputSerializer)
    def post(self, request: AuthedRequest, task_class_id: int) -> Response:
        selectors.task_class_get(user=request.user, task_class_id=task_class_id)
        data = TaskItemsReorderInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.task_items_reorder(user=request.user, task_class_id=task_class_id,
                                    item_ids=data.validated_data["item_ids"])
        return Response(_detail(request, task_class_id))
