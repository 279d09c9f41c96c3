"""Exams through their services and /api/v1/exams/: validation by code, sections turned into times,
404 for another student's exam or course, idempotent writes, countdowns, nothing half-written."""

from __future__ import annotations

from datetime import date, time

import pytest

from schedule.exams.models import Exam
from schedule.exams.selectors import exam_countdowns
from schedule.models import CalendarSettings
from schedule.services.calendar import calendar_settings_update
from schedule.tests.factories import import_csv

MATHS = {"title": "高等数学", "date": "2026-11-20", "start_time": "09:00", "end_time": "11:00", "place": "二教1101"}


def test_adding_listing_and_reading_an_exam(auth_client, user, before_week_three):
    made = auth_client.post("/api/v1/exams/", MATHS, format="json")
    assert made.status_code == 201
    body = made.json()
    assert body["title"] == "高等数学" and body["start_time"] == "09:00:00" and body["place"] == "二教1101"
    # Frozen on 2026-09-14: 67 days to go.
    assert body["days_left"] == 67
    assert [e["id"] for e in auth_client.get("/api/v1/exams/").json()] == [body["id"]]
    assert auth_client.get(f"/api/v1/exams/{body['id']}/").json()["date"] == "2026-11-20"


def test_sections_become_the_templates_clock_times(auth_client, user):
    made = auth_client.post("/api/v1/exams/", {"title": "大学物理", "date": "2026-11-21",
                                               "start_section": 3, "end_section": 4}, format="json")
    assert made.status_code == 201
    exam = Exam.objects.get(pk=made.json()["id"])
    assert (exam.start_time, exam.end_time) == (time(10, 15), time(11, 55))


def test_sections_of_an_exam_after_the_switch_to_winter_hours_take_the_winter_times(auth_client, user):
    later = [list(pair) for pair in CalendarSettings.objects.get(user=user).section_times]
    later[2:4] = [["10:00", "10:45"], ["10:55", "11:40"]]
    calendar_settings_update(user=user, later_sections=(later, date(2026, 11, 2)))
    for day, expected in (("2026-10-30", (time(10, 15), time(11, 55))), ("2026-11-21", (time(10, 0), time(11, 40)))):
        made = auth_client.post("/api/v1/exams/", {"title": f"物理 {day}", "date": day, "start_section": 3,
                                                   "end_section": 4}, format="json")
        exam = Exam.objects.get(pk=made.json()["id"])
        assert (exam.start_time, exam.end_time) == expected


@pytest.mark.parametrize(("change", "code"), [
    ({"title": "  "}, "empty_title"),
    ({"start_time": "11:00", "end_time": "09:00"}, "times_reversed"),
    ({"start_time": "09:00", "end_time": None}, "half_a_time"),
    ({"start_section": 5, "end_section": 3, "start_time": None, "end_time": None}, "invalid_sections"),
    ({"start_section": 1, "end_section": 2}, "times_and_sections"),
    ({"start_section": 1, "end_section": 40, "start_time": None, "end_time": None}, "invalid_sections"),
])
def test_bad_input_is_refused_with_a_code_and_nothing_written(auth_client, user, change, code):
    answer = auth_client.post("/api/v1/exams/", {**MATHS, **change}, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == code and answer.json()["message"]
    assert not Exam.objects.exists()


def test_another_students_exam_and_course_are_not_found(auth_client, user, other_user):
    theirs = Exam.objects.create(user=other_user, title="线性代数", date=date(2026, 11, 1))
    assert auth_client.get(f"/api/v1/exams/{theirs.pk}/").status_code == 404
    assert auth_client.patch(f"/api/v1/exams/{theirs.pk}/", {"title": "x"}, format="json").status_code == 404
    assert auth_client.delete(f"/api/v1/exams/{theirs.pk}/").status_code == 404
    import_csv(other_user, "概率论,1,1,2,张老师,一教101,1-16")
    course = other_user.courses.get()
    answer = auth_client.post("/api/v1/exams/", {**MATHS, "course_id": course.pk}, format="json")
    assert answer.status_code == 404 and not Exam.objects.filter(user=user).exists()
    assert Exam.objects.get(pk=theirs.pk).title == "线性代数"


def test_an_exam_of_ones_own_course(auth_client, user):
    import_csv(user, "高等数学,4,1,2,王老师,二教1101,1-16")
    course = user.courses.get()
    body = auth_client.post("/api/v1/exams/", {**MATHS, "course_id": course.pk}, format="json").json()
    assert body["course_id"] == course.pk and body["course_name"] == "高等数学"


def test_changing_and_deleting(auth_client, user):
    exam_id = auth_client.post("/api/v1/exams/", MATHS, format="json").json()["id"]
    changed = auth_client.patch(f"/api/v1/exams/{exam_id}/", {"start_section": 1, "end_section": 2}, format="json")
    assert changed.status_code == 200 and changed.json()["start_time"] == "08:00:00"
    assert changed.json()["title"] == "高等数学"
    assert auth_client.delete(f"/api/v1/exams/{exam_id}/").status_code == 204
    assert not Exam.objects.exists()


def test_writes_are_idempotent(auth_client, user):
    first = auth_client.post("/api/v1/exams/", MATHS, format="json", HTTP_X_IDEMPOTENCY_KEY="exam-1")
    again = auth_client.post("/api/v1/exams/", MATHS, format="json", HTTP_X_IDEMPOTENCY_KEY="exam-1")
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == first.json()["id"] and Exam.objects.count() == 1


def test_countdowns_list_the_coming_exams_nearest_first(user):
    Exam.objects.create(user=user, title="过去的", date=date(2026, 9, 1))
    Exam.objects.create(user=user, title="大学物理", date=date(2026, 9, 30))
    Exam.objects.create(user=user, title="高等数学", date=date(2026, 9, 20))
    countdowns = exam_countdowns(user=user, today=date(2026, 9, 14))
    assert [(c.exam.title, c.days_left) for c in countdowns] == [("高等数学", 6), ("大学物理", 16)]
