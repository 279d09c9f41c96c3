"""Quick notes over the API: parse, create, list with filters, change, complete, restore, delete."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from threading import Thread

import pytest
from django.db import connection

from schedule.services.calendar import calendar_settings_update
from taskclasses.models import Task
from taskclasses.tests.factories import NOW, SHANGHAI, make_task


@pytest.fixture
def frozen_now(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    return NOW


def test_parse_shows_the_reading_without_saving(auth_client, frozen_now):
    body = auth_client.post("/api/v1/tasks/parse/", {"text": "下周日之前交概率论作业"}, format="json").json()
    assert (body["title"], body["deadline"], body["quadrant"]) == ("交概率论作业", "2026-12-13T23:59:00+08:00", 2)
    assert not Task.objects.exists()


def test_parse_offers_the_readings_of_an_ambiguous_note(auth_client, frozen_now):
    body = auth_client.post("/api/v1/tasks/parse/", {"text": "周末大扫除"}, format="json").json()
    assert (body["deadline"], body["ambiguous"], body["ambiguity_reason"], body["confidence"]) == (
        None, True, "weekend", 0.0)
    assert [reading["deadline"] for reading in body["readings"]] == [
        "2026-12-05T23:59:00+08:00", "2026-12-06T23:59:00+08:00"]


def test_parse_counts_a_semester_week_from_the_students_own_semester(auth_client, user, frozen_now):
    calendar_settings_update(user=user, semester_start=date(2026, 9, 7), semester_weeks=20)
    body = auth_client.post("/api/v1/tasks/parse/", {"text": "第七周周三交电路实验报告"}, format="json").json()
    assert (body["title"], body["deadline"], body["readings"]) == ("交电路实验报告", "2026-10-21T23:59:00+08:00", [])


def test_create_from_text_lands_in_the_right_quadrant_with_deadline(auth_client, frozen_now):
    body = auth_client.post("/api/v1/tasks/", {"text": "下周日之前交概率论作业"}, format="json").json()
    assert (body["title"], body["quadrant"], body["deadline"]) == ("交概率论作业", 2, "2026-12-13T23:59:00+08:00")
    assert body["urgency_threshold_at"] == "2026-12-11T23:59:00+08:00"
    free = auth_client.post("/api/v1/tasks/", {"text": "有空的时候整理桌面"}, format="json").json()
    assert (free["title"], free["quadrant"], free["deadline"]) == ("整理桌面", 3, None)


def test_an_ambiguous_note_gets_no_date_and_a_visible_flag(auth_client, frozen_now):
    body = auth_client.post("/api/v1/tasks/", {"text": "过几天把实验报告交了"}, format="json").json()
    assert body["deadline"] is None
    assert body["deadline_ambiguous"] is True


def test_edited_fields_win_over_the_parse(auth_client, frozen_now):
    body = auth_client.post("/api/v1/tasks/", {"text": "明天交作业", "quadrant": 1, "title": "交高数作业",
                                               "deadline": "2026-12-04T18:00:00+08:00"}, format="json").json()
    assert (body["title"], body["quadrant"], body["deadline"]) == ("交高数作业", 1, "2026-12-04T18:00:00+08:00")
    assert body["urgency_threshold_at"] == "2026-12-02T18:00:00+08:00"


def test_a_past_deadline_is_allowed_and_flagged_overdue(auth_client, frozen_now):
    body = auth_client.post("/api/v1/tasks/", {"title": "补交实验报告", "quadrant": 1,
                                               "deadline": "2026-11-30T12:00:00+08:00"}, format="json").json()
    assert body["overdue"] is True


def test_a_note_of_only_punctuation_is_refused_by_the_service(user):
    from taskclasses.exceptions import TaskInputError
    from taskclasses.notes.services import task_create

    with pytest.raises(TaskInputError) as error:
        task_create(user=user, title=" \n\t ", quadrant=3)
    assert (error.value.code, error.value.message) == ("empty_title", "Write what the note is about.")


@pytest.mark.parametrize(("payload", "field"), [
    ({"text": ""}, "text"),
    ({"text": "   "}, "text"),
    ({"text": "x" * 10_000}, "text"),
    ({"title": "x" * 10_000, "quadrant": 1}, "title"),
    ({"title": "整理"}, "quadrant"),
    ({"title": "整理", "quadrant": 7}, "quadrant"),
    ({}, "text"),
])
def test_bad_notes_are_refused_and_nothing_is_saved(auth_client, payload, field):
    response = auth_client.post("/api/v1/tasks/", payload, format="json")
    assert response.status_code == 400
    body = response.json()
    assert field in body["detail"]
    assert not Task.objects.exists()


def test_list_filters_by_quadrant_keyword_deadline_and_completion(auth_client, user):
    make_task(user, title="交概率论作业", quadrant=2, deadline=NOW + timedelta(days=10))
    make_task(user, title="整理桌面", quadrant=3)
    make_task(user, title="交物理报告", quadrant=1, deadline=NOW + timedelta(days=1), completed=True)

    def titles(query):
        return [t["title"] for t in auth_client.get(f"/api/v1/tasks/?{query}").json()]

    assert titles("quadrant=3") == ["整理桌面"]
    assert titles("q=交") == ["交物理报告", "交概率论作业"] or titles("q=交") == ["交概率论作业", "交物理报告"]
    assert titles("completed=true") == ["交物理报告"]
    assert titles("deadline_before=2026-12-05T00:00:00%2B08:00") == ["交物理报告"]
    assert titles("deadline_after=2026-12-05T00:00:00%2B08:00") == ["交概率论作业"]


def test_list_refuses_bad_filters(auth_client):
    response = auth_client.get("/api/v1/tasks/?quadrant=9&deadline_before=someday")
    assert response.status_code == 400
    assert set(response.json()["detail"]) == {"quadrant", "deadline_before"}


def test_complete_and_restore(auth_client, user):
    task = make_task(user)
    done = auth_client.post(f"/api/v1/tasks/{task.pk}/complete/").json()
    assert done["completed"] is True and done["completed_at"]
    again = auth_client.post(f"/api/v1/tasks/{task.pk}/complete/").json()
    assert again["completed_at"] == done["completed_at"]
    restored = auth_client.post(f"/api/v1/tasks/{task.pk}/restore/").json()
    assert (restored["completed"], restored["completed_at"]) == (False, None)


@pytest.mark.django_db(transaction=True)
def test_concurrent_completes_change_the_task_once(user):
    from taskclasses.notes.services import task_complete

    task = make_task(user)
    moments = [NOW, NOW + timedelta(seconds=5)]

    def complete(moment: datetime) -> None:
        try:
            task_complete(user=user, task_id=task.pk, now=moment)
        finally:
            connection.close()

    threads = [Thread(target=complete, args=(moment,)) for moment in moments]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    task.refresh_from_db()
    assert task.completed is True and task.completed_at in moments
    assert Task.objects.count() == 1


def test_update_moves_the_threshold_with_the_deadline(auth_client, user):
    task = make_task(user, deadline=NOW + timedelta(days=10))
    body = auth_client.patch(f"/api/v1/tasks/{task.pk}/", {"deadline": "2026-12-20T12:00:00+08:00"},
                             format="json").json()
    assert body["urgency_threshold_at"] == "2026-12-18T12:00:00+08:00"


@pytest.mark.parametrize(("method", "suffix"), [("get", ""), ("patch", ""), ("delete", ""), ("post", "complete/"),
                                                ("post", "restore/"), ("post", "schedule/"), ("delete", "schedule/")])
def test_another_students_task_is_not_found(auth_client, other_user, method, suffix):
    task = make_task(other_user)
    response = getattr(auth_client, method)(f"/api/v1/tasks/{task.pk}/{suffix}", {"title": "x"}, format="json")
    assert response.status_code == 404
    assert response.json()["code"] == "task_not_found"
    task.refresh_from_db()
    assert (task.title, task.completed) == ("交概率论作业", False)


def test_delete_removes_the_task(auth_client, user):
    task = make_task(user)
    assert auth_client.delete(f"/api/v1/tasks/{task.pk}/").status_code == 204
    assert not Task.objects.exists()


def test_deadlines_come_back_in_the_students_zone(api_client, user, frozen_now):
    from rest_framework_simplejwt.tokens import AccessToken

    user.time_zone = "Europe/Berlin"
    user.save()
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {AccessToken.for_user(user)}")
    body = api_client.post("/api/v1/tasks/parse/", {"text": "明天交作业"}, format="json").json()
    assert body["deadline"] == "2026-12-03T23:59:00+01:00"
    assert datetime.fromisoformat(body["deadline"]).astimezone(SHANGHAI).day == 4


def test_creating_with_the_same_idempotency_key_makes_one_task(auth_client, frozen_now):
    first = auth_client.post("/api/v1/tasks/", {"text": "明天交作业"}, format="json", HTTP_X_IDEMPOTENCY_KEY="n-1")
    again = auth_client.post("/api/v1/tasks/", {"text": "明天交作业"}, format="json", HTTP_X_IDEMPOTENCY_KEY="n-1")
    assert (first.status_code, again.status_code, again["Idempotent-Replayed"]) == (201, 201, "true")
    assert again.json()["id"] == first.json()["id"] and Task.objects.count() == 1
