"""Quick-note API: parse, create, list with filters, change, complete, restore, delete, schedule,
and the quadrants quick add learned from the student's corrections (list, forget one, forget all)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthedRequest
from schedule.api.serializers import EventOutputSerializer
from smartmate.platform.idempotency import idempotent
from smartmate.platform.ratelimit import rate_limit_hit, user_key
from smartmate.platform.serializers import query_validate
from taskclasses.notes import lessons, refine, selectors, services
from taskclasses.notes.api.serializers import (
    LessonOutputSerializer,
    QuickNoteParseInputSerializer,
    QuickNoteParseOutputSerializer,
    QuickNoteRefineOutputSerializer,
    TaskCreateInputSerializer,
    TaskListQuerySerializer,
    TaskOutputSerializer,
    TaskScheduleInputSerializer,
    TaskUpdateInputSerializer,
)


class QuickNoteParseView(APIView):
    """Show how a quick note would be read (title, deadline, quadrant) without saving it."""

    @extend_schema(request=QuickNoteParseInputSerializer, responses=QuickNoteParseOutputSerializer)
    def post(self, request: AuthedRequest) -> Response:
        rate_limit_hit("quick_add", user_key(request.user))  # shared with saving a note and the page's preview
        data = QuickNoteParseInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        parsed = services.quick_note_parse(user=request.user, text=data.validated_data["text"])
        return Response(QuickNoteParseOutputSerializer(parsed).data)


class QuickNoteRefineView(APIView):
    """Let the model refine a line the rules were unsure of (2 s budget, the chat's token quota); writes nothing.

    Without a model configured, and on every failure, it answers 200 with the rules' parse and the outcome
    saying why it stands (``no_model``, ``timeout``…): the rules' answer is a whole answer, not an error.
    """

    @extend_schema(request=QuickNoteParseInputSerializer, responses=QuickNoteRefineOutputSerializer)
    def post(self, request: AuthedRequest) -> Response:
        rate_limit_hit("quick_add", user_key(request.user))
        data = QuickNoteParseInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        outcome = refine.quick_note_refine(user=request.user, text=data.validated_data["text"])
        return Response(QuickNoteRefineOutputSerializer(outcome).data)


class TaskListView(APIView):
    """List quick notes (in the quadrants they stand in now; reading writes nothing) or create one."""

    @extend_schema(parameters=[TaskListQuerySerializer], responses=TaskOutputSerializer(many=True))
    def get(self, request: AuthedRequest) -> Response:
        values = query_validate(TaskListQuerySerializer, request)
        filters = selectors.TaskFilters(
            quadrant=values.get("quadrant"), keyword=values.get("q", ""),
            deadline_before=values.get("deadline_before"), deadline_after=values.get("deadline_after"),
            completed=values.get("completed"))
        return Response(TaskOutputSerializer(selectors.task_list(user=request.user, filters=filters), many=True).data)

    @idempotent
    @extend_schema(request=TaskCreateInputSerializer, responses={201: TaskOutputSerializer})
    def post(self, request: AuthedRequest) -> Response:
        rate_limit_hit("quick_add", user_key(request.user))
        data = TaskCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        text = values.pop("text", None)
        if text is not None:
            task = services.task_create_from_text(user=request.user, text=text, **values)
        else:
            task = services.task_create(user=request.user, **values)
        return Response(TaskOutputSerializer(task).data, status=status.HTTP_201_CREATED)


class TaskDetailView(APIView):
    @extend_schema(responses=TaskOutputSerializer)
    def get(self, request: AuthedRequest, task_id: int) -> Response:
        return Response(TaskOutputSerializer(selectors.task_read(user=request.user, task_id=task_id)).data)

    @idempotent
    @extend_schema(request=TaskUpdateInputSerializer, responses=TaskOutputSerializer)
    def patch(self, request: AuthedRequest, task_id: int) -> Response:
        selectors.task_get(user=request.user, task_id=task_id)
        data = TaskUpdateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        task = services.task_update(user=request.user, task_id=task_id, **data.validated_data)
        return Response(TaskOutputSerializer(task).data)

    @idempotent
    @extend_schema(responses={204: None})
    def delete(self, request: AuthedRequest, task_id: int) -> Response:
        services.task_delete(user=request.user, task_id=task_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TaskCompleteView(APIView):
    @idempotent
    @extend_schema(request=None, responses=TaskOutputSerializer)
    def post(self, request: AuthedRequest, task_id: int) -> Response:
        return Response(TaskOutputSerializer(services.task_complete(user=request.user, task_id=task_id)).data)


class TaskRestoreView(APIView):
    @idempotent
    @extend_schema(request=None, responses=TaskOutputSerializer)
    def post(self, request: AuthedRequest, task_id: int) -> Response:
        return Response(TaskOutputSerializer(services.task_restore(user=request.user, task_id=task_id)).data)


class TaskScheduleView(APIView):
    """Find the task a free block this week (POST) or take it off the schedule (DELETE)."""

    @idempotent
    @extend_schema(request=TaskScheduleInputSerializer, responses={201: EventOutputSerializer})
    def post(self, request: AuthedRequest, task_id: int) -> Response:
        selectors.task_get(user=request.user, task_id=task_id)
        data = TaskScheduleInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = services.task_schedule(user=request.user, task_id=task_id, week=data.validated_data.get("week"))
        return Response(EventOutputSerializer(event).data, status=status.HTTP_201_CREATED)

    @idempotent
    @extend_schema(responses={204: None})
    def delete(self, request: AuthedRequest, task_id: int) -> Response:
        services.task_unschedule(user=request.user, task_id=task_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LessonListView(APIView):
    """What quick add learned from the student's quadrant corrections (GET), or forget it all (DELETE)."""

    @extend_schema(responses=LessonOutputSerializer(many=True))
    def get(self, request: AuthedRequest) -> Response:
        return Response(LessonOutputSerializer(lessons.lesson_list(user=request.user), many=True).data)

    @idempotent
    @extend_schema(responses={204: None}, operation_id="v1_tasks_lessons_forget_all")
    def delete(self, request: AuthedRequest) -> Response:
        lessons.lessons_forget_all(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LessonDetailView(APIView):
    """Forget one learned quadrant; another student's id is a 404."""

    @idempotent
    @extend_schema(responses={204: None})
    def delete(self, request: AuthedRequest, lesson_id: int) -> Response:
        lessons.lesson_forget(user=request.user, lesson_id=lesson_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
