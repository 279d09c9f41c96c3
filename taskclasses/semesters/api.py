"""Semesters API (``/api/v1/semesters/``): the current and past semesters, one past semester read-only,
the start of the next semester and its undo.

Writes accept ``X-Idempotency-Key``; refusals are ``{code, message, detail}``; another student's semester is a 404.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthedRequest
from schedule.api.serializers import WeekQuerySerializer
from schedule.core.semester_archive import SemesterArchive, record_to_json, week_events, workload_of
from schedule.models import MAX_SEMESTER_WEEKS
from schedule.semesters import selectors
from schedule.semesters.exceptions import SemesterInputError
from schedule.semesters.models import Semester
from schedule.student_rules.services import study_rules_get
from smartmate.platform.idempotency import idempotent
from smartmate.platform.serializers import query_validate
from taskclasses.semesters import services


class PastSemesterSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="label")
    last_day = serializers.DateField()

    class Meta:
        model = Semester
        fields = ["id", "name", "year", "season", "first_monday", "weeks", "last_day", "frozen_at"]



class NextSemesterInputSerializer(serializers.Serializer):
    """Leave ``first_monday``/``weeks`` out to take the guess; ``protected`` left out keeps every protected time."""

    first_monday = serializers.DateField(required=False)
    weeks = serializers.IntegerField(required=False, min_value=1, max_value=MAX_SEMESTER_WEEKS)
    note_ids = serializers.ListField(child=serializers.IntegerField(), required=False, default=list, max_length=500)
    rules = serializers.BooleanField(required=False, default=True)
    protected = serializers.ListField(child=serializers.CharField(max_length=60), required=False, max_length=50)
    plans = serializers.BooleanField(required=False, default=True)
    filler = serializers.BooleanField(required=False, default=True)


def _current(request: AuthedRequest) -> dict[str, Any]:
    current = selectors.semester_current_get(user=request.user)
    return {"name": current.label, "first_monday": current.first_monday.isoformat(), "weeks": current.weeks,
            "last_day": current.last_day.isoformat()}


def _overview(request: AuthedRequest) -> dict[str, Any]:
    guess = services.semester_next_guess(user=request.user)
    return {"current": _current(request),
            "past": PastSemesterSerializer(selectors.semester_list(user=request.user), many=True).data,
            "next_guess": {"first_monday": guess.first_monday.isoformat(), "weeks": guess.weeks,
                           "from_school_calendar": guess.from_school_calendar}}


def carry_from(request: AuthedRequest, values: dict[str, Any]) -> services.Carry:
    """What comes along, from the form or the API (every protected time when none was named)."""
    protected = values.get("protected")
    if protected is None:
        protected = [str(p["name"]) for p in study_rules_get(user=request.user).protected_times]
    return services.Carry(note_ids=tuple(values.get("note_ids") or ()), rules=values.get("rules", True),
                          protected=tuple(protected), plans=values.get("plans", True),
                          filler=values.get("filler", True))


class SemesterListView(APIView):
    @extend_schema(operation_id="v1_semesters_list", responses={200: dict})
    def get(self, request: AuthedRequest) -> Response:
        return Response(_overview(request))


class NextSemesterView(APIView):
    @idempotent
    @extend_schema(request=NextSemesterInputSerializer, responses={201: dict})
    def post(self, request: AuthedRequest) -> Response:
        data = NextSemesterInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        guess = services.semester_next_guess(user=request.user)
        past = services.semester_next_start(
            user=request.user, first_monday=values.get("first_monday", guess.first_monday),
            weeks=values.get("weeks", guess.weeks), carry=carry_from(request, values))
        return Response({"semester": PastSemesterSerializer(past).data, "current": _current(request)},
                        status=status.HTTP_201_CREATED)


class NextSemesterUndoView(APIView):
    @idempotent
    @extend_schema(request=None, responses={200: dict})
    def post(self, request: AuthedRequest) -> Response:
        services.semester_next_start_undo(user=request.user)
        return Response({"current": _current(request)})


class PastSemesterView(APIView):
    @extend_schema(parameters=[WeekQuerySerializer], responses={200: dict})
    def get(self, request: Request, semester_id: int) -> Response:
        past, archive = selectors.semester_archive_get(user=request.user, semester_id=semester_id)  # type: ignore[arg-type]
        workload = workload_of(archive)
        week = _week_asked(request, archive)
        return Response({
            **PastSemesterSerializer(past).data,
            "courses": [record_to_json(c) for c in archive.courses],
            "exams": [record_to_json(e) for e in archive.exams],
            "workload": {**record_to_json(workload), "plans": [
                {**record_to_json(p), "total": p.total} for p in workload.plans]},
            "week": week,
            "events": [record_to_json(e) for e in week_events(archive, week)],
        })


def _week_asked(request: Request, archive: SemesterArchive) -> int:
    """``?week=N`` (default 1), refused outside the semester's weeks."""
    week = query_validate(WeekQuerySerializer, request).get("week", 1)
    if not 1 <= week <= archive.weeks:
        raise SemesterInputError(_("This semester has weeks 1 to %(weeks)s.") % {"weeks": archive.weeks},
                                 detail={"week": week})
    return week
