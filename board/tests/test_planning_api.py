"""The planning API: feasibility, previews, block moves, apply with idempotency keys, undo."""

from __future__ import annotations

from threading import Barrier, Thread

import pytest
from django.db import connection

from board.planning import preview_create
from schedule.models import ChangeSet, ScheduleEvent
from schedule.tests.factories import custom_event, make_task_class

pytestmark = pytest.mark.usefixtures("before_week_three")


def test_feasibility_endpoint(auth_client, user):
    task_class = make_task_class(user, items=16, excluded_pairs=[6])
    body = auth_client.get(f"/api/v1/task-classes/{task_class.pk}/feasibility/").json()
    assert body == {"class_id": task_class.pk, "name": "概率论复习", "demand": 16, "candidate_slots": 70,
                    "placed": 16, "slack": 54}


def test_feasibility_of_an_id_past_the_64_bit_column_is_a_404(auth_client):
    # Found by schemathesis: the id overflowed the SQLite driver (500) instead of matching nothing.
    response = auth_client.get("/api/v1/task-classes/89765414540063064064/feasibility/")
    assert response.status_code == 404
    assert response.json()["code"] == "task_class_not_found"


def test_plan_adjust_apply_and_undo_over_the_api(auth_client, user):
    task_class = make_task_class(user, items=3, strategy="rapid")
    preview = auth_client.post("/api/v1/previews/", {"task_class_ids": [task_class.pk]}, format="json").json()
    assert [b["content"] for b in preview["placements"]] == ["概率论复习 #1", "概率论复习 #2", "概率论复习 #3"]
    assert preview["placements"][0]["starts_at"] == "2026-09-21T08:00:00+08:00"
    block = preview["placements"][0]["item_id"]
    moved = auth_client.patch(f"/api/v1/previews/{preview['id']}/blocks/{block}/",
                              {"week": 4, "day": 3, "start_section": 5}, format="json")
    assert moved.status_code == 200
    applied = auth_client.post(f"/api/v1/previews/{preview['id']}/apply/", HTTP_X_IDEMPOTENCY_KEY="apply-1")
    assert applied.status_code == 201 and applied.json()["events"] == 3
    assert ScheduleEvent.objects.filter(kind="task_item", week=4, day=3, start_section=5).exists()
    undone = auth_client.post(f"/api/v1/changesets/{applied.json()['id']}/undo/")
    assert undone.status_code == 200 and undone.json()["undone_at"]
    assert not ScheduleEvent.objects.filter(kind="task_item").exists()


def test_apply_replays_the_first_answer_for_the_same_key(auth_client, user):
    task_class = make_task_class(user, items=2)
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    first = auth_client.post(f"/api/v1/previews/{preview.pk}/apply/", HTTP_X_IDEMPOTENCY_KEY="k-1")
    again = auth_client.post(f"/api/v1/previews/{preview.pk}/apply/", HTTP_X_IDEMPOTENCY_KEY="k-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert ChangeSet.objects.count() == 1


def test_a_slot_taken_meanwhile_is_a_409_naming_it(auth_client, user):
    task_class = make_task_class(user, items=1, strategy="rapid")
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    spot = preview.placements[0]
    custom_event(user, title="临时组会", week=spot["week"], day=spot["day"], start=spot["start_section"],
                 end=spot["end_section"])
    response = auth_client.post(f"/api/v1/previews/{preview.pk}/apply/")
    assert response.status_code == 409
    assert response.json()["code"] == "slot_taken" and "临时组会" in response.json()["message"]


def test_a_move_against_the_rules_is_a_400_with_the_reason(auth_client, user):
    task_class = make_task_class(user, items=1, excluded_days=[7])
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    response = auth_client.patch(f"/api/v1/previews/{preview.pk}/blocks/{preview.placements[0]['item_id']}/",
                                 {"week": 3, "day": 7, "start_section": 1}, format="json")
    body = response.json()
    assert response.status_code == 400
    assert (body["code"], body["message"]) == ("excluded_day", "This plan excludes Sunday.")
    assert body["detail"]["data"] == {"entry": body["detail"]["data"]["entry"], "day": "2026-09-27",
                                      "class_id": task_class.pk, "weekday": 7}


def test_a_refused_move_names_up_to_three_places_that_would_work(auth_client, user):
    task_class = make_task_class(user, items=1, excluded_days=[7])
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    response = auth_client.patch(f"/api/v1/previews/{preview.pk}/blocks/{preview.placements[0]['item_id']}/",
                                 {"week": 3, "day": 7, "start_section": 1}, format="json")
    suggestions = response.json()["detail"]["suggestions"]
    assert len(suggestions) == 3 and all(s["day"] != 7 for s in suggestions)
    assert response.json()["detail"]["suggestions_text"] == "Places that would work: " + "; ".join(
        s["text"] for s in suggestions) + "."


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/api/v1/previews/{preview}/"), ("delete", "/api/v1/previews/{preview}/"),
    ("post", "/api/v1/previews/{preview}/apply/"), ("delete", "/api/v1/previews/{preview}/blocks/{item}/"),
    ("patch", "/api/v1/previews/{preview}/blocks/{item}/"), ("post", "/api/v1/changesets/{changeset}/undo/"),
    ("get", "/api/v1/task-classes/{task_class}/feasibility/"),
])
def test_another_students_plans_are_not_found(auth_client, other_user, method, path):
    from board.previews import preview_apply

    task_class = make_task_class(other_user, items=2)
    preview = preview_create(user=other_user, task_class_ids=[task_class.pk])
    applied = preview_create(user=other_user, task_class_ids=[task_class.pk])
    changeset = preview_apply(user=other_user, preview_id=applied.pk)
    url = path.format(preview=preview.pk, item=preview.placements[0]["item_id"], changeset=changeset.pk,
                      task_class=task_class.pk)
    response = getattr(auth_client, method)(url, {"week": 3, "day": 1, "start_section": 1}, format="json")
    assert response.status_code == 404
    assert ScheduleEvent.objects.filter(kind="task_item").count() == 2


def test_planning_a_foreign_class_is_404(auth_client, other_user):
    theirs = make_task_class(other_user)
    response = auth_client.post("/api/v1/previews/", {"task_class_ids": [theirs.pk]}, format="json")
    assert response.status_code == 404


@pytest.mark.django_db(transaction=True)
def test_concurrent_applies_of_overlapping_previews_exactly_one_wins(user):
    from board.previews import preview_apply
    from smartmate.platform.exceptions import AppError

    task_class = make_task_class(user, items=4, strategy="rapid")
    previews = [preview_create(user=user, task_class_ids=[task_class.pk]) for _ in range(2)]
    barrier, outcomes = Barrier(2), []

    def apply(preview_id: int) -> None:
        try:
            barrier.wait()
            preview_apply(user=user, preview_id=preview_id)
            outcomes.append("applied")
        except AppError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [Thread(target=apply, args=(p.pk,)) for p in previews]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(outcomes) == 2 and outcomes.count("applied") == 1
    assert set(outcomes) - {"applied"} <= {"preview_closed", "item_changed", "slot_taken"}
    assert ScheduleEvent.objects.filter(kind="task_item").count() == 4
    assert ChangeSet.objects.count() == 1
