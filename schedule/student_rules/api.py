"""The student's rules API, ``/api/v1/rules/``: GET the rules, PUT them whole (all or nothing).

Refusals are ``{code, message, detail}`` (a cap of 0, a protected time over a course meeting,
overlapping protected times, ...); PUT accepts ``X-Idempotency-Key``. Pins are set per block
(``/api/v1/board/blocks/<item|note>/<id>/pin/``) and listed here.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.requests import AuthedRequest
from schedule.core.student_rules import MAX_PROTECTED
from schedule.student_rules import services
from schedule.student_rules.models import StudyRules
from smartmate.platform.idempotency import idempotent
from smartmate.platform.parsers import BoundedJSONParser


class ProtectedTimeSerializer(serializers.Serializer):
    """Sections ``first``..``last`` or clock times ``start``..``end`` ("11:40"), on ``days`` (1 = Monday)."""

    name = serializers.CharField(max_length=40, allow_blank=True)
    days = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=7), max_length=7,
                                 required=False)
    first = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=16)
    last = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=16)
    start = serializers.CharField(required=False, allow_null=True, max_length=5)
    end = serializers.CharField(required=False, allow_null=True, max_length=5)


class RulesInputSerializer(serializers.Serializer):
    daily_cap = serializers.IntegerField(allow_null=True, required=False, min_value=-1000, max_value=1000)
    buffer_sections = serializers.IntegerField(required=False, default=0, min_value=-1000, max_value=1000)
    latest_section = serializers.IntegerField(allow_null=True, required=False, min_value=-1000, max_value=1000)
    protected_times = serializers.ListField(child=ProtectedTimeSerializer(), required=False, default=list,
                                            max_length=MAX_PROTECTED)


class RulesOutputSerializer(serializers.Serializer):
    daily_cap = serializers.IntegerField(allow_null=True)
    buffer_sections = serializers.IntegerField()
    latest_section = serializers.IntegerField(allow_null=True)
    protected_times = serializers.ListField(child=serializers.DictField())
    pinned_items = serializers.ListField(child=serializers.IntegerField())
    pinned_notes = serializers.ListField(child=serializers.IntegerField())


def _body(rules: StudyRules) -> dict[str, Any]:
    return RulesOutputSerializer({
        "daily_cap": rules.daily_cap, "buffer_sections": rules.buffer_sections,
        "latest_section": rules.latest_section, "protected_times": list(rules.protected_times),
        "pinned_items": list(rules.pinned_items), "pinned_notes": list(rules.pinned_notes)}).data


class RulesView(APIView):
    """The student's own rules for study blocks: daily cap, buffer, protected times, latest section."""

    parser_classes = [BoundedJSONParser]

    @extend_schema(responses=RulesOutputSerializer)
    def get(self, request: AuthedRequest) -> Response:
        return Response(_body(services.study_rules_get(user=request.user)))

    @idempotent
    @extend_schema(request=RulesInputSerializer, responses=RulesOutputSerializer)
    def put(self, request: AuthedRequest) -> Response:
        data = RulesInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        protected = [services.ProtectedInput(name=p["name"], days=tuple(p.get("days", range(1, 8))),
                                             first=p.get("first"), last=p.get("last"), start=p.get("start"),
                                             end=p.get("end"))
                     for p in values["protected_times"]]
        rules = services.study_rules_update(user=request.user, daily_cap=values.get("daily_cap"),
                                            buffer_sections=values["buffer_sections"],
                                            latest_section=values.get("latest_section"), protected=protected)
        return Response(_body(rules))
