"""Exams API (``/api/v1/exams/``): list and add, read, change (``PUT``/``PATCH``) and delete one.

Writes accept ``X-Idempotency-Key``; refusals are ``{code, message, detail}``; another student's exam is a 404.
"""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthedRequest
from schedule.exams import selectors, services
from schedule.exams.models import MAX_EXAM_PLACE, MAX_EXAM_TITLE, Exam
from schedule.selectors import time_frame_get
from smartmate.platform.idempotency import idempotent


class ExamOutputSerializer(serializers.ModelSerializer):
    course_id = serializers.IntegerField(allow_null=True)
    course_name = serializers.SerializerMethodField()
    days_left = serializers.SerializerMethodField(help_text="whole days from today to the exam (negative: past)")

    class Meta:
        model = Exam
        fields = ["id", "title", "date", "start_time", "end_time", "place", "course_id", "course_name", "days_left"]

    def get_course_name(self, exam: Exam) -> str | None:
        return exam.course.name if exam.course else None

    def get_days_left(self, exam: Exam) -> int:
        return (exam.date - self.context["today"]).days


class ExamInputSerializer(serializers.Serializer):
    """Time of day as ``start_time``/``end_time`` or as ``start_section``/``end_section`` (or neither)."""

    title = serializers.CharField(max_length=MAX_EXAM_TITLE, allow_blank=True)
    date = serializers.DateField()
    start_time = serializers.TimeField(required=False, allow_null=True)
    end_time = serializers.TimeField(required=False, allow_null=True)
    start_section = serializers.IntegerField(required=False, allow_null=True)
    end_section = serializers.IntegerField(required=False, allow_null=True)
    place = serializers.CharField(max_length=MAX_EXAM_PLACE, required=False, allow_blank=True, default="")
    course_id = serializers.IntegerField(required=False, allow_null=True)


def _today(request: AuthedRequest):
    semester, _template = time_frame_get(user=request.user)
    return semester.local_date(timezone.now())


def _output(request: AuthedRequest, exams, many: bool = False) -> dict:
    return ExamOutputSerializer(exams, many=many, context={"today": _today(request)}).data


def _exam_input(values: dict) -> services.ExamInput:
    return services.ExamInput(
        title=values["title"], date=values["date"], start_time=values.get("start_time"),
        end_time=values.get("end_time"), start_section=values.get("start_section"),
        end_section=values.get("end_section"), place=values.get("place") or "", course_id=values.get("course_id"))


def _current_values(exam: Exam) -> dict:
    return {"title": exam.title, "date": exam.date, "start_time": exam.start_time, "end_time": exam.end_time,
            "place": exam.place, "course_id": exam.course_id}


class ExamListView(APIView):
    @extend_schema(responses=ExamOutputSerializer(many=True))
    def get(self, request: AuthedRequest) -> Response:
        return Response(_output(request, selectors.exam_list(user=request.user), many=True))

    @idempotent
    @extend_schema(request=ExamInputSerializer, responses={201: ExamOutputSerializer})
    def post(self, request: AuthedRequest) -> Response:
        data = ExamInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        exam = services.exam_create(user=request.user, given=_exam_input(data.validated_data))
        return Response(_output(request, exam), status=status.HTTP_201_CREATED)


class ExamDetailView(APIView):
    @extend_schema(responses=ExamOutputSerializer)
    def get(self, request: AuthedRequest, exam_id: int) -> Response:
        return Response(_output(request, selectors.exam_get(user=request.user, exam_id=exam_id)))

    @idempotent
    @extend_schema(request=ExamInputSerializer, responses=ExamOutputSerializer)
    def put(self, request: AuthedRequest, exam_id: int) -> Response:
        return self._change(request, exam_id, partial=False)

    @idempotent
    @extend_schema(request=ExamInputSerializer, responses=ExamOutputSerializer)
    def patch(self, request: AuthedRequest, exam_id: int) -> Response:
        return self._change(request, exam_id, partial=True)

    @idempotent
    @extend_schema(responses={204: None})
    def delete(self, request: AuthedRequest, exam_id: int) -> Response:
        services.exam_delete(user=request.user, exam_id=exam_id)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _change(self, request: AuthedRequest, exam_id: int, *, partial: bool) -> Response:
        exam = selectors.exam_get(user=request.user, exam_id=exam_id)
        data = ExamInputSerializer(data=request.data, partial=partial)
        data.is_valid(raise_exception=True)
        values = {**_current_values(exam), **data.validated_data} if partial else dict(data.validated_data)
        if partial and {"start_section", "end_section"} & set(data.validated_data):
            # Sections given: they replace the clock times kept from before.
            for field in ("start_time", "end_time"):
                if field not in data.validated_data:
                    values.pop(field)
        exam = services.exam_update(user=request.user, exam_id=exam.pk, given=_exam_input(values))
        return Response(_output(request, exam))
