"""Small edges a new student or a developer hits first: the icon, the API's front door, a bad week."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_favicon_ico_leads_to_the_vendored_icon(client):
    response = client.get("/favicon.ico")

    assert response.status_code == 301 and response["Location"].endswith("img/favicon.svg")


def test_pages_name_their_icon(client, user):
    client.force_login(user)

    assert 'rel="icon"' in client.get(reverse("dashboard")).content.decode()


def test_the_api_root_lists_its_entry_points(api_client):
    response = api_client.get("/api/v1/")

    assert response.status_code == 200
    links = response.json()
    assert links["me"].endswith("/api/v1/me/") and links["courses"].endswith("/api/v1/schedule/courses/")
    assert {"tasks", "task_classes", "previews", "conversations", "memories", "schema"} <= set(links)


def test_the_browsable_api_root_renders(api_client):
    response = api_client.get("/api/v1/", HTTP_ACCEPT="text/html")

    assert response.status_code == 200 and "/api/v1/me/" in response.content.decode()


def test_a_week_that_is_no_number_shows_this_week_under_its_own_address(client, user):
    client.force_login(user)

    response = client.get(reverse("board:week") + "?week=abc")

    assert response.status_code == 302 and response["Location"] == reverse("board:week")
