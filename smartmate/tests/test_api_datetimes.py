"""Datetimes in the API: only 1970-2100 accepted, always RFC 3339 (whole-minute offsets) in answers.

The probe: a quick note's deadline of 0644-07-12 came back as ``0644-07-12T16:04:31+08:05:43`` (before
1901, Asia/Shanghai is local mean time), which no RFC 3339 parser accepts.
"""

from __future__ import annotations

import importlib
import inspect
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from rest_framework import serializers

from smartmate.platform.serializers import BoundedDateField, RFC3339DateTimeField
from taskclasses.models import Task
from taskclasses.tests.factories import make_task

RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
OUT_OF_RANGE = ["Use a date and time from 1970 to 2100."]
API_SERIALIZER_MODULES = [
    "accounts.api.serializers", "agent.api.serializers", "memory.api.serializers", "schedule.api.serializers",
    "board.api.serializers", "taskclasses.notes.api.serializers", "taskclasses.plans.api.serializers",
]


def test_a_deadline_far_in_the_past_is_refused(auth_client):
    response = auth_client.post("/api/v1/tasks/", {"title": "交作业", "quadrant": 2,
                                                   "deadline": "0644-07-12T16:04:31+08:00"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"code": "invalid", "message": "The input is not valid.",
                               "detail": {"deadline": OUT_OF_RANGE}}
    assert not Task.objects.exists()


def test_a_deadline_after_2100_is_refused_on_change(auth_client, user):
    task = make_task(user)
    response = auth_client.patch(f"/api/v1/tasks/{task.pk}/", {"deadline": "2101-01-01T00:00:00Z"}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == {"deadline": OUT_OF_RANGE}


def test_a_list_filter_outside_the_range_is_refused(auth_client):
    response = auth_client.get("/api/v1/tasks/", {"deadline_before": "1969-12-31T23:59:59Z"})
    assert response.status_code == 400
    assert response.json()["detail"] == {"deadline_before": OUT_OF_RANGE}


@pytest.mark.parametrize("moment", ["1970-01-01T00:00:00Z", "2100-12-31T23:59:59Z"])
def test_the_ends_of_the_range_are_accepted(auth_client, moment):
    response = auth_client.post("/api/v1/tasks/", {"title": "交作业", "quadrant": 2, "deadline": moment},
                                format="json")
    assert response.status_code == 201
    assert RFC3339.match(response.json()["deadline"])


def test_a_stored_deadline_before_1901_is_answered_in_utc(auth_client, user):
    # Rows written before the input range existed (or by other code) still render as valid RFC 3339.
    task = make_task(user, deadline=datetime(644, 7, 12, 7, 58, 48, tzinfo=UTC))
    body = auth_client.get(f"/api/v1/tasks/{task.pk}/").json()
    assert body["deadline"] == "0644-07-12T07:58:48Z"


def test_a_semester_starting_in_9999_is_refused(auth_client):
    # It used to overflow while computing the semester's end (a 500).
    response = auth_client.put("/api/v1/me/calendar/", {"semester_start": "9999-12-27"}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == {"semester_start": ["Use a date from 1970 to 2100."]}


def test_a_study_plan_in_year_one_is_refused(auth_client):
    response = auth_client.post("/api/v1/task-classes/", {"name": "复习", "start_date": "0001-01-01",
                                                          "end_date": "2026-10-11", "item_count": 2}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == {"start_date": ["Use a date from 1970 to 2100."]}


def test_a_modern_datetime_keeps_the_students_offset():
    moment = datetime(2026, 9, 7, 0, 0, tzinfo=UTC)
    assert RFC3339DateTimeField().to_representation(moment) == "2026-09-07T08:00:00+08:00"


def _plain_datetime_fields(serializer: Any, path: str) -> list[str]:
    if isinstance(serializer, serializers.ListSerializer):
        serializer = serializer.child
    found = []
    for name, field in serializer.fields.items():
        if isinstance(field, serializers.ListSerializer | serializers.Serializer):
            found += _plain_datetime_fields(field, f"{path}.{name}")
        elif isinstance(field, serializers.ListField):
            child = field.child
            if isinstance(child, serializers.DateTimeField) and not isinstance(child, RFC3339DateTimeField):
                found.append(f"{path}.{name}[]")
        elif isinstance(field, serializers.DateTimeField) and not isinstance(field, RFC3339DateTimeField):
            found.append(f"{path}.{name}")
    return found


def _api_serializers() -> list[tuple[str, type[serializers.Serializer]]]:
    found = []
    for module_name in API_SERIALIZER_MODULES:
        module = importlib.import_module(module_name)
        found += [(f"{module_name}.{name}", cls) for name, cls in inspect.getmembers(module, inspect.isclass)
                  if issubclass(cls, serializers.Serializer) and cls.__module__ == module_name]
    return found


def test_every_api_serializer_uses_the_rfc3339_field_for_datetimes():
    plain = []
    for path, cls in _api_serializers():
        plain += _plain_datetime_fields(cls(), path)
    assert plain == []


def test_every_date_an_api_client_sends_is_bounded():
    unbounded = [f"{path}.{name}" for path, cls in _api_serializers() for name, field in cls().fields.items()
                 if isinstance(field, serializers.DateField) and not field.read_only
                 and ("Input" in path or "Query" in path) and not isinstance(field, BoundedDateField)]
    assert unbounded == []
