"""Catch-up and repair over the API: previews with reasons, idempotency keys, 404s, refusals writing nothing."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from schedule.models import ChangeSet, PlanPreview, ScheduleEvent
from schedule.tests.factories import import_csv
from taskclasses.models import TaskItem
from taskclasses.tests.factories import make_task_class, place_item

# Wednesday of week 3, 12:00.
NOW = datetime(2026, 9, 23, 12, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


@pytest.fixture(autouse=True)
def frozen(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)


@pytest.fixture
def missed_two(user):
    """Two reviews of week 3 marked missed (Mon, Tue), a third ahead on Friday."""
    task_class = make_task_class(user, items=3)
    for item, day, status in zip(task_class.items.order_by("order"), (1, 2, 5), ("missed", "missed", "placed")):
        place_item(item, week=3, day=day, start=1, status=status)
    return task_class


def test_catch_up_counts_and_previews_with_reasons_in_chinese(auth_client, missed_two):
    assert auth_client.get("/api/v1/catch-up/").json() == {"count": 2}
    answer = auth_client.post("/api/v1/catch-up/", {}, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert answer.status_code == 201
    moves = answer.json()["moves"]
    assert len(moves) == 2 and all("没有完成" in m["reason"] for m in moves)
    assert moves[0]["reason"].startswith("第 1 项：原定在第 3 周周一")


def test_catch_up_replays_for_the_same_key(auth_client, missed_two):
    first = auth_client.post("/api/v1/catch-up/", {}, format="json", HTTP_X_IDEMPOTENCY_KEY="c-1")
    again = auth_client.post("/api/v1/catch-up/", {}, format="json", HTTP_X_IDEMPOTENCY_KEY="c-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert PlanPreview.objects.count() == 1


def test_catch_up_of_an_ended_plan_is_a_400_and_writes_nothing(auth_client, user):
    ended = make_task_class(user, items=1, start_date=date(2026, 9, 14), end_date=date(2026, 9, 20))
    answer = auth_client.post("/api/v1/catch-up/", {"task_class_id": ended.pk}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "class_ended"
    assert set(answer.json()) >= {"code", "message", "detail"} and not PlanPreview.objects.exists()


def test_catch_up_of_another_students_plan_is_a_404(auth_client, other_user, missed_two):
    theirs = make_task_class(other_user, items=1)
    answer = auth_client.post("/api/v1/catch-up/", {"task_class_id": theirs.pk}, format="json")
    assert answer.status_code == 404 and not PlanPreview.objects.exists()


def test_bad_input_is_a_400(auth_client):
    assert auth_client.post("/api/v1/catch-up/", {"task_class_id": "x"}, format="json").status_code == 400
    assert auth_client.post("/api/v1/repairs/", {"changeset_id": 0}, format="json").status_code == 400
    assert auth_client.post("/api/v1/repairs/event/", {"title": "x"}, format="json").status_code == 400


def test_an_event_over_a_block_then_the_repair_moves_only_that_block(auth_client, user):
    task_class = make_task_class(user, items=2)
    first, second = task_class.items.order_by("order")
    place_item(first, week=4, day=1, start=1)
    place_item(second, week=4, day=3, start=3)
    TaskItem.objects.filter(task_class=task_class).update(status="placed")
    body = {"title": "社团活动", "week": 4, "day": 3, "start_section": 3, "end_section": 4}
    answer = auth_client.post("/api/v1/repairs/event/", body, format="json", HTTP_X_IDEMPOTENCY_KEY="e-1")
    assert answer.status_code == 201, answer.json()
    data = answer.json()
    assert [p["item_id"] for p in data["preview"]["placements"]] == [second.pk] and data["preview"]["moves"] == []
    assert ScheduleEvent.objects.filter(kind="custom", title="社团活动").count() == 1
    replay = auth_client.post("/api/v1/repairs/event/", body, format="json", HTTP_X_IDEMPOTENCY_KEY="e-1")
    assert replay.json() == data and ScheduleEvent.objects.filter(kind="custom").count() == 1
    applied = auth_client.post(f"/api/v1/previews/{data['preview']['id']}/apply/")
    assert applied.status_code == 201
    assert ScheduleEvent.objects.get(task_item=first).day == 1  # untouched


def test_an_event_over_a_course_is_a_409_and_writes_nothing(auth_client, user):
    import_csv(user, "高等数学,3,1,2,王老师,二教1101,4")
    task_class = make_task_class(user, items=1)
    place_item(task_class.items.get(), week=4, day=3, start=3)
    changes = ChangeSet.objects.count()  # the import's own
    body = {"title": "社团活动", "week": 4, "day": 3, "start_section": 1, "end_section": 4}
    answer = auth_client.post("/api/v1/repairs/event/", body, format="json")
    assert answer.status_code == 409
    assert not ScheduleEvent.objects.filter(kind="custom").exists() and ChangeSet.objects.count() == changes
    assert ScheduleEvent.objects.filter(kind="task_item").count() == 1


def test_a_repair_with_nothing_displaced_is_a_clear_400(auth_client, user):
    answer = auth_client.post("/api/v1/repairs/", {}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "nothing_to_repair"
    assert not PlanPreview.objects.exists()


def test_a_repair_of_another_students_change_is_a_404(auth_client, other_user):
    theirs = ChangeSet.objects.create(user=other_user, kind=ChangeSet.Kind.COURSE, removed=[{"item_id": 1}])
    answer = auth_client.post("/api/v1/repairs/", {"changeset_id": theirs.pk}, format="json")
    assert answer.status_code == 404
