"""Renamed API routes keep answering: /api/v1/plans/ (the previews' first name) is a deprecated alias of
/api/v1/previews/ — the same views, a Deprecation header and a Link to the successor, and marked
deprecated in the OpenAPI schema.

The probe: /api/v1/plans/ was renamed to /api/v1/previews/ with no alias, breaking API clients.
"""

from __future__ import annotations

import pytest

from schedule.models import ScheduleEvent
from schedule.tests.factories import make_task_class

pytestmark = pytest.mark.usefixtures("before_week_three")


def deprecated(response, successor: str) -> bool:
    return response["Deprecation"] == "true" and response["Link"] == f'<{successor}>; rel="successor-version"'


def test_the_old_preview_routes_answer_as_the_new_ones(auth_client, user):
    task_class = make_task_class(user, items=3, strategy="rapid")
    old = auth_client.post("/api/v1/plans/", {"task_class_ids": [task_class.pk]}, format="json")
    assert old.status_code == 201 and deprecated(old, "/api/v1/previews/")
    preview = old.json()
    assert [b["content"] for b in preview["placements"]] == ["概率论复习 #1", "概率论复习 #2", "概率论复习 #3"]

    got_old = auth_client.get(f"/api/v1/plans/{preview['id']}/")
    got_new = auth_client.get(f"/api/v1/previews/{preview['id']}/")
    assert got_old.status_code == got_new.status_code == 200 and got_old.json() == got_new.json()
    assert deprecated(got_old, f"/api/v1/previews/{preview['id']}/") and "Deprecation" not in got_new

    block = preview["placements"][0]["item_id"]
    moved = auth_client.patch(f"/api/v1/plans/{preview['id']}/blocks/{block}/",
                              {"week": 4, "day": 3, "start_section": 5}, format="json")
    assert moved.status_code == 200 and deprecated(moved, f"/api/v1/previews/{preview['id']}/blocks/{block}/")
    applied = auth_client.post(f"/api/v1/plans/{preview['id']}/apply/", HTTP_X_IDEMPOTENCY_KEY="old-apply")
    assert applied.status_code == 201 and applied.json()["events"] == 3
    assert deprecated(applied, f"/api/v1/previews/{preview['id']}/apply/")
    assert ScheduleEvent.objects.filter(kind="task_item", week=4, day=3, start_section=5).exists()


def test_an_error_on_an_old_route_is_the_same_error_and_still_says_deprecated(auth_client):
    old, new = auth_client.get("/api/v1/plans/999999/"), auth_client.get("/api/v1/previews/999999/")
    assert old.status_code == new.status_code == 404 and old.json() == new.json()
    assert deprecated(old, "/api/v1/previews/999999/")


def test_the_schema_marks_the_old_routes_deprecated(client, db):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    old = {path: ops for path, ops in paths.items() if path.startswith("/api/v1/plans/")}
    assert set(old) == {"/api/v1/plans/", "/api/v1/plans/{preview_id}/",
                        "/api/v1/plans/{preview_id}/blocks/{item_id}/", "/api/v1/plans/{preview_id}/apply/"}
    for path, ops in old.items():
        new = paths[path.replace("/plans/", "/previews/", 1)]
        assert set(ops) == set(new), path  # every method the new route has
        assert all(op["deprecated"] is True for op in ops.values()), path
        assert not any(op.get("deprecated") for op in new.values()), path
