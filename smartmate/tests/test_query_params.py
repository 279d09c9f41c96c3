"""Query parameters: a present value is always checked, even empty, on every endpoint that takes any.

The probe: ``/api/v1/memories/?type=`` listed every memory, because DRF reads a query string like an
HTML form, where an empty optional value means "not sent".
"""

from __future__ import annotations

import pytest

from agent.tests.factories import make_conversation


def _schema(client) -> dict:
    return client.get("/api/schema/?format=json").json()


def _checked_query_parameters(schema: dict) -> list[tuple[str, str]]:
    """(path, name) of every query parameter of a GET without path parameters, except free text."""
    found = []
    for path, item in schema["paths"].items():
        operation = item.get("get")
        if operation is None or "{" in path:
            continue
        for parameter in operation.get("parameters", []):
            kind = parameter["schema"]
            free_text = kind.get("type") == "string" and "enum" not in kind and "format" not in kind
            if parameter["in"] == "query" and not free_text:
                found.append((path, parameter["name"]))
    return found


def test_memories_refuse_an_empty_type(auth_client):
    response = auth_client.get("/api/v1/memories/?type=")
    assert response.status_code == 400
    assert response.json() == {"code": "invalid", "message": "The input is not valid.",
                               "detail": {"type": ['"" is not a valid choice.']}}


def test_every_query_parameter_refuses_an_empty_value(auth_client):
    checked = _checked_query_parameters(_schema(auth_client))
    assert {("/api/v1/memories/", "type"), ("/api/v1/memories/", "status"), ("/api/v1/tasks/", "quadrant"),
            ("/api/v1/tasks/", "completed"), ("/api/v1/tasks/", "deadline_before"),
            ("/api/v1/agent/conversations/", "archived"), ("/api/v1/schedule/week/", "week"),
            ("/api/v1/schedule/slots/check/", "day")} <= set(checked)
    accepted = [(path, name) for path, name in checked
                if auth_client.get(f"{path}?{name}=").status_code != 400]
    assert accepted == []


def test_the_timeline_refuses_an_empty_after_seq(auth_client, user):
    conversation = make_conversation(user)
    response = auth_client.get(f"/api/v1/agent/conversations/{conversation.pk}/timeline/?after_seq=")
    assert response.status_code == 400
    assert response.json()["detail"] == {"after_seq": ["A valid integer is required."]}


def test_a_parameter_given_twice_is_refused(auth_client):
    response = auth_client.get("/api/v1/memories/?type=fact&type=goal")
    assert response.status_code == 400
    assert response.json()["detail"] == {"type": ["Give this parameter once."]}


@pytest.mark.parametrize("path", ["/api/v1/memories/?q=", "/api/v1/tasks/?q="])
def test_an_empty_search_lists_everything(auth_client, path):
    assert auth_client.get(path).status_code == 200


def test_parameters_an_endpoint_does_not_know_are_left_alone(auth_client):
    assert auth_client.get("/api/v1/memories/?format=json&page=").status_code == 200
