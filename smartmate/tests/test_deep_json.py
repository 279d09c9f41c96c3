"""Deeply nested JSON is a 400 ``malformed_json`` at every entry point, never a RecursionError."""

from __future__ import annotations

import json
import logging

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from smartmate.platform.safe_json import JSONTooDeep, json_depth_exceeds, json_loads_bounded

# The probe's body: 2 KB of [[[[…]]]].
DEEP = "[" * 1024 + "]" * 1024
# Deep enough to trouble whatever walks it next, though the decoder itself copes.
MODERATELY_DEEP = '{"username": ' + "[" * 70 + "1" + "]" * 70 + "}"


def test_the_bounded_loader_refuses_deep_documents_and_keeps_ordinary_ones():
    with pytest.raises(JSONTooDeep):
        json_loads_bounded(DEEP)
    with pytest.raises(JSONTooDeep):
        json_loads_bounded(MODERATELY_DEEP)
    assert json_loads_bounded('{"a": [1, {"b": [2]}]}') == {"a": [1, {"b": [2]}]}
    with pytest.raises(json.JSONDecodeError):
        json_loads_bounded("{oops")


@pytest.mark.parametrize(("value", "limit", "exceeds"), [
    (1, 0, False), ([], 1, False), ([[]], 1, True), ({"a": {"b": [1]}}, 3, False), ({"a": {"b": [1]}}, 2, True),
])
def test_depth_is_counted_in_containers(value, limit, exceeds):
    assert json_depth_exceeds(value, limit) is exceeds


@pytest.mark.parametrize("body", [DEEP, MODERATELY_DEEP])
@pytest.mark.django_db
def test_the_unauthenticated_token_endpoint_answers_400(api_client, body, caplog):
    with caplog.at_level(logging.ERROR):
        response = api_client.post("/api/v1/auth/token/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"
    assert response.json()["detail"] == {"max_depth": 64}
    assert not [record for record in caplog.records if "RecursionError" in record.getMessage()
                or (record.exc_info and record.exc_info[0] is RecursionError)]


def test_an_authenticated_json_endpoint_answers_400(api_client, user):
    api_client.force_authenticate(user)
    response = api_client.post("/api/v1/tasks/", DEEP, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"


def test_a_deep_timetable_json_file_is_refused_as_a_bad_file(api_client, user):
    api_client.force_authenticate(user)
    upload = SimpleUploadedFile("timetable.json", DEEP.encode(), content_type="application/json")
    response = api_client.post("/api/v1/schedule/import/", {"file": upload, "format": "json"}, format="multipart")
    assert response.status_code in (400, 422)
    problems = response.json()["detail"]["problems"]
    assert [problem["code"] for problem in problems] == ["json_too_deep"]
