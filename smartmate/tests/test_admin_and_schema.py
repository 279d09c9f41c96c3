"""The admin and the API schema load for an operator."""

from __future__ import annotations

import pytest

from accounts.models import User


@pytest.fixture
def staff_client(client, db):
    admin = User.objects.create_superuser("ops", "ops@example.edu", "ops-password-123")
    client.force_login(admin)
    return client


@pytest.mark.parametrize("path", ["/admin/", "/admin/accounts/user/", "/admin/schedule/calendarsettings/",
                                  "/admin/django_celery_beat/periodictask/",
                                  "/admin/token_blacklist/outstandingtoken/"])
def test_admin_pages_load(staff_client, path):
    assert staff_client.get(path).status_code == 200


def test_openapi_schema_lists_the_auth_routes(client, db):
    response = client.get("/api/schema/?format=json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert {"/api/v1/auth/register/", "/api/v1/auth/token/", "/api/v1/me/calendar/"} <= set(paths)


@pytest.mark.parametrize("path", ["/api/schema/swagger/", "/api/schema/redoc/"])
def test_schema_viewers_use_local_assets_only(client, db, path):
    html = client.get(path).content.decode()
    assert "/static/drf_spectacular_sidecar/" in html
    assert "cdn." not in html and "unpkg" not in html and "jsdelivr" not in html


def test_browsable_api_renders_for_a_signed_in_student(client, user):
    client.force_login(user)
    response = client.get("/api/v1/me/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert user.username in response.content.decode()
