"""The semesters API: the overview, starting the next semester, its undo, and a past semester read-only."""

from __future__ import annotations

import pytest

from schedule.models import CalendarSettings
from schedule.semesters.models import Semester
from schedule.tests.semesters.helpers import autumn_semester, start_spring
from smartmate.platform.models import IdempotencyRecord

SEMESTERS = "/api/v1/semesters/"
NEXT = "/api/v1/semesters/next/"

pytestmark = pytest.mark.django_db


def start(auth_client, body: dict, key: str = "start-spring-1"):
    return auth_client.post(NEXT, body, format="json", HTTP_X_IDEMPOTENCY_KEY=key)


def test_the_overview_names_the_current_semester_and_guesses_the_next(auth_client):
    body = auth_client.get(SEMESTERS).json()

    assert body["current"] == {"name": "2026 autumn semester", "first_monday": "2026-09-07", "weeks": 20,
                               "last_day": "2027-01-24"}
    assert body["past"] == []
    assert body["next_guess"] == {"first_monday": "2027-03-01", "weeks": 20, "from_school_calendar": False}


def test_starting_spring_answers_the_frozen_semester_and_the_new_current_one(auth_client, user):
    rows = autumn_semester(user)

    answer = start(auth_client, {"first_monday": "2027-03-01", "weeks": 18, "note_ids": [rows["notes"][0].pk],
                                 "protected": ["午饭"]})

    assert answer.status_code == 201, answer.content
    assert answer.json()["semester"]["name"] == "2026 autumn semester"
    assert answer.json()["current"]["first_monday"] == "2027-03-01"


def test_a_repeated_start_with_the_same_key_replays_the_answer_and_freezes_once(auth_client, user):
    autumn_semester(user)

    first, again = start(auth_client, {"weeks": 18}), start(auth_client, {"weeks": 18})

    assert again.status_code == 201 and again.json() == first.json()
    assert Semester.objects.filter(user=user).count() == 1
    assert IdempotencyRecord.objects.filter(user=user).count() == 1


def test_a_date_not_a_monday_is_a_coded_error_and_nothing_changes(auth_client, user):
    answer = start(auth_client, {"first_monday": "2027-03-02"})

    assert answer.status_code == 400
    assert answer.json() == {"code": "semester_invalid", "message": "Week 1 must start on a Monday.",
                             "detail": {"field": "first_monday"}}
    assert CalendarSettings.objects.get(user=user).semester_start.isoformat() == "2026-09-07"


def test_weeks_out_of_range_are_refused_by_the_serializer(auth_client):
    answer = start(auth_client, {"weeks": 31})

    assert answer.status_code == 400 and answer.json()["code"] == "invalid"


def test_undo_through_the_api_brings_autumn_back(auth_client, user):
    rows = autumn_semester(user)
    start_spring(user, rows["notes"])

    answer = auth_client.post(f"{NEXT}undo/", HTTP_X_IDEMPOTENCY_KEY="undo-1")

    assert answer.status_code == 200, answer.content
    assert answer.json()["current"]["first_monday"] == "2026-09-07"


def test_undo_after_writing_in_the_new_semester_is_a_409_in_chinese(auth_client, user):
    rows = autumn_semester(user)
    start_spring(user, rows["notes"])
    auth_client.post("/api/v1/exams/", {"title": "英语四级", "date": "2027-06-12"}, format="json")

    answer = auth_client.post(f"{NEXT}undo/", HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert answer.status_code == 409
    assert answer.json()["code"] == "semester_undo_refused"
    assert "不能再撤销" in answer.json()["message"]


def test_a_past_semester_reads_its_week_exams_and_workload(auth_client, user):
    rows = autumn_semester(user)
    past = start_spring(user, rows["notes"])

    body = auth_client.get(f"{SEMESTERS}{past.pk}/?week=3").json()

    assert body["name"] == "2026 autumn semester" and body["week"] == 3
    assert [(e["title"], e["status"]) for e in body["events"] if e["kind"] == "task_item"] == [
        ("英语单词 #1", "done"), ("高数复习 #1", "done")]
    assert [e["title"] for e in body["exams"]] == ["高数期末"]
    assert body["workload"]["plans"][0] == {"name": "英语单词", "done": 1, "missed": 0, "placed": 0, "total": 1}


def test_another_students_past_semester_is_not_found(auth_client, other_user):
    rows = autumn_semester(other_user)
    theirs = start_spring(other_user, rows["notes"])

    answer = auth_client.get(f"{SEMESTERS}{theirs.pk}/")

    assert answer.status_code == 404 and answer.json()["code"] == "semester_not_found"


def test_a_week_outside_the_past_semester_is_a_coded_error(auth_client, user):
    past = start_spring(user, autumn_semester(user)["notes"])

    answer = auth_client.get(f"{SEMESTERS}{past.pk}/?week=21")

    assert answer.status_code == 400
    assert answer.json() == {"code": "semester_invalid", "message": "This semester has weeks 1 to 20.",
                             "detail": {"week": 21}}
