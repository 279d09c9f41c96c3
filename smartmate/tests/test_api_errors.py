"""Every API error has the shape {code, message, detail}; nothing answers 500."""

from __future__ import annotations


def test_unknown_api_route_is_a_json_404(auth_client):
    response = auth_client.get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": "No route matches /api/v1/no-such-thing/.",
                               "detail": None}


def test_unknown_page_is_an_html_404(client, db):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert b"This page does not exist" in response.content


def test_malformed_json_body_is_a_400(auth_client):
    response = auth_client.patch("/api/v1/me/", data="{not json", content_type="application/json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "malformed_request"
    assert body["message"] == "The request body could not be parsed."
    assert "JSON parse error" in body["detail"]


def test_anonymous_request_is_a_401(api_client, db):
    response = api_client.get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json() == {"code": "not_authenticated",
                               "message": "Authentication credentials were not provided.", "detail": None}


def test_wrong_method_is_a_405(auth_client):
    response = auth_client.put("/api/v1/me/", {}, format="json")
    assert response.status_code == 405
    assert response.json() == {"code": "method_not_allowed", "message": 'Method "PUT" not allowed.',
                               "detail": None}


def test_validation_error_lists_fields_in_detail(auth_client):
    response = auth_client.patch("/api/v1/me/", {"time_zone": "Mars/Olympus"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"code": "invalid", "message": "The input is not valid.",
                               "detail": {"time_zone": ["Mars/Olympus is not a time zone we know: pick one from the list, "
                                                            "or write a name such as Asia/Shanghai or UTC+8."]}}


def test_api_messages_follow_the_requested_language(auth_client):
    response = auth_client.get("/api/v1/no-such-thing/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.json()["message"] == "没有与 /api/v1/no-such-thing/ 匹配的路由。"


def test_a_session_write_without_csrf_token_is_a_403(user):
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    response = client.patch("/api/v1/me/", {"time_zone": "Europe/Berlin"}, format="json")
    assert response.status_code == 403
    body = response.json()
    assert (body["code"], body["message"]) == ("permission_denied", "You do not have permission to do this.")
    assert body["detail"].startswith("CSRF Failed")
