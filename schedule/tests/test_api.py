"""The schedule API: week and today views, events, conflicts, courses, import and feeds."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from icalendar import Calendar

from schedule.core.importers import MAX_IMPORT_BYTES
from schedule.models import Course, ScheduleEvent
from schedule.tests.factories import DEMO_CSV, csv_bytes, custom_event, import_csv
from smartmate.platform.models import IdempotencyRecord


def test_week_view_lists_events_with_times_and_filler_flag(auth_client, user):
    import_csv(user, "形势与政策,1,9,10,赵立新,二教1101,1-8")
    Course.objects.filter(user=user).update(is_filler=True)
    body = auth_client.get("/api/v1/schedule/week/?week=2").json()
    assert body["week"] == 2 and body["dates"][0] == "2026-09-14" and len(body["sections"]) == 12
    [event] = body["events"]
    assert (event["title"], event["day"], event["start_section"], event["end_section"]) == ("形势与政策", 1, 9, 10)
    assert event["is_filler"] is True
    assert event["starts_at"] == "2026-09-14T19:00:00+08:00"


def test_week_view_refuses_a_week_outside_the_semester(auth_client):
    response = auth_client.get("/api/v1/schedule/week/?week=21")
    assert response.status_code == 400
    assert response.json()["code"] == "outside_semester"
    assert response.json()["message"] == "Week 21 is outside the semester (weeks 1..20)."


def test_week_view_refuses_a_week_that_is_not_a_number(auth_client):
    response = auth_client.get("/api/v1/schedule/week/?week=abc")
    assert response.status_code == 400
    assert response.json()["detail"] == {"week": ["A week is a whole number."]}


def test_create_event_then_a_clash_is_a_409_naming_the_occupant(auth_client, user):
    body = {"title": "社团活动", "week": 3, "day": 2, "start_section": 5, "end_section": 6}
    assert auth_client.post("/api/v1/schedule/events/", body, format="json").status_code == 201
    clash = auth_client.post("/api/v1/schedule/events/", {**body, "title": "家教", "start_section": 6,
                                                         "end_section": 7}, format="json")
    assert clash.status_code == 409
    assert clash.json()["code"] == "slot_taken"
    assert clash.json()["message"] == "Week 3, Tuesday, sections 6-6: taken by 社团活动."
    assert clash.json()["detail"]["occupant"]["title"] == "社团活动"
    assert ScheduleEvent.objects.filter(user=user).count() == 1


def test_create_event_refuses_sections_outside_the_template(auth_client):
    body = {"title": "夜跑", "week": 3, "day": 2, "start_section": 13, "end_section": 14}
    response = auth_client.post("/api/v1/schedule/events/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_section"


def test_create_event_refuses_reversed_sections(auth_client):
    body = {"title": "夜跑", "week": 3, "day": 2, "start_section": 6, "end_section": 5}
    response = auth_client.post("/api/v1/schedule/events/", body, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == {"end_section": ["The last section comes before the first."]}


def test_moving_an_event_frees_the_old_sections(auth_client, user):
    event = custom_event(user, week=3, day=2, start=5, end=6)
    response = auth_client.patch(f"/api/v1/schedule/events/{event.pk}/",
                                 {"week": 3, "day": 4, "start_section": 1, "end_section": 2}, format="json")
    assert response.status_code == 200
    assert response.json()["starts_at"] == "2026-09-24T08:00:00+08:00"
    assert list(event.slots.values_list("day", "section")) == [(4, 1), (4, 2)]
    assert custom_event(user, title="补课", week=3, day=2, start=5, end=6).pk


def test_a_move_onto_a_taken_slot_is_refused_and_nothing_moves(auth_client, user):
    first = custom_event(user, title="A", week=3, day=2, start=5, end=6)
    custom_event(user, title="B", week=3, day=2, start=7, end=8)
    response = auth_client.patch(f"/api/v1/schedule/events/{first.pk}/",
                                 {"week": 3, "day": 2, "start_section": 7, "end_section": 8}, format="json")
    assert response.status_code == 409
    first.refresh_from_db()
    assert (first.start_section, first.slots.count()) == (5, 2)


def test_a_partial_move_is_refused(auth_client, user):
    event = custom_event(user)
    response = auth_client.patch(f"/api/v1/schedule/events/{event.pk}/", {"day": 5}, format="json")
    assert response.status_code == 400
    assert set(response.json()["detail"]) == {"week", "start_section", "end_section"}


def test_deleting_an_event_frees_its_slots(auth_client, user):
    event = custom_event(user)
    assert auth_client.delete(f"/api/v1/schedule/events/{event.pk}/").status_code == 200
    assert not ScheduleEvent.objects.exists()


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_another_students_event_is_not_found(auth_client, other_user, method):
    event = custom_event(other_user)
    response = getattr(auth_client, method)(f"/api/v1/schedule/events/{event.pk}/", {"title": "x"}, format="json")
    assert response.status_code == 404
    assert response.json()["code"] == "event_not_found"
    assert ScheduleEvent.objects.filter(pk=event.pk, title="社团活动").exists()


@pytest.mark.parametrize("method", ["patch", "delete"])
def test_another_students_course_is_not_found(auth_client, other_user, method):
    import_csv(other_user, "线性代数,2,1,2,陈志强,二教2412,1-16")
    course = Course.objects.get(user=other_user)
    response = getattr(auth_client, method)(f"/api/v1/schedule/courses/{course.pk}/", {"is_filler": True},
                                            format="json")
    assert response.status_code == 404
    course.refresh_from_db()
    assert course.is_filler is False and course.events.count() == 16


def test_marking_a_course_as_filler(auth_client, user):
    import_csv(user, "形势与政策,1,9,10,赵立新,二教1101,1-8")
    course = Course.objects.get(user=user)
    response = auth_client.patch(f"/api/v1/schedule/courses/{course.pk}/", {"is_filler": True}, format="json")
    body = response.json()
    assert body["course"] == {"id": course.pk, "name": "形势与政策", "teacher": "赵立新", "location": "二教1101",
                              "is_filler": True, "meetings": 8}
    assert body["dry_run"] is False and body["displaced"] == [] and body["changeset_id"] is not None


def test_slot_check_says_free_or_names_the_occupant(auth_client, user):
    custom_event(user, title="社团活动", week=3, day=2, start=5, end=6)
    free = auth_client.get("/api/v1/schedule/slots/check/?week=3&day=2&start_section=1&end_section=2")
    taken = auth_client.get("/api/v1/schedule/slots/check/?week=3&day=2&start_section=5&end_section=6")
    assert free.json() == {"free": True}
    assert taken.status_code == 409 and taken.json()["detail"]["occupant"]["title"] == "社团活动"


def test_today_lists_todays_events(auth_client, user, monkeypatch):
    import_csv(user, "高等数学A(下),1,1,2,王建华,二教2305,13")
    monkeypatch.setattr("django.utils.timezone.now", lambda: datetime(2026, 11, 30, 1, 0, tzinfo=UTC))
    assert [e["title"] for e in auth_client.get("/api/v1/schedule/today/").json()] == ["高等数学A(下)"]


def test_import_by_upload_creates_and_reports(auth_client, user):
    upload = SimpleUploadedFile("课表.csv", DEMO_CSV.read_bytes(), content_type="text/csv")
    response = auth_client.post("/api/v1/schedule/import/", {"file": upload}, format="multipart")
    assert response.status_code == 201
    assert response.json()["created_courses"] == 21


def test_import_dry_run_by_content_writes_nothing(auth_client, user):
    content = csv_bytes("线性代数,2,1,2,陈志强,二教2412,1-16").decode()
    response = auth_client.post("/api/v1/schedule/import/", {"content": content, "dry_run": True}, format="json")
    assert response.status_code == 200
    assert response.json()["courses"][0]["new_meetings"] == 16
    assert not ScheduleEvent.objects.exists()


def test_import_refuses_a_huge_file_before_reading_it(auth_client, user):
    upload = SimpleUploadedFile("big.csv", b"x" * (MAX_IMPORT_BYTES + 1), content_type="text/csv")
    response = auth_client.post("/api/v1/schedule/import/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["code"] == "file_too_large"


def test_import_refuses_undecodable_bytes(auth_client, user):
    upload = SimpleUploadedFile("timetable.csv", b"\xff\xfe\x00\x00garbage\x00\x81", content_type="text/csv")
    response = auth_client.post("/api/v1/schedule/import/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["code"] == "import_rejected"
    assert response.json()["detail"]["problems"][0]["code"] == "undecodable"


def one_mebibyte_of_identical_rows() -> bytes:
    # The probe's file: every row after the first clashes with it (38,835 problems, a 5 MB answer before).
    row = "高数,1,1,2,王,A101,1-16\n".encode()
    return row * (1_048_576 // len(row))


def test_the_one_mebibyte_probe_is_refused_as_too_complex_briefly_and_not_kept(auth_client, user, settings):
    settings.IMPORT_CPU_SECONDS = 0.2  # the file needs several times that on any machine
    upload = SimpleUploadedFile("probe.csv", one_mebibyte_of_identical_rows(), content_type="text/csv")
    response = auth_client.post("/api/v1/schedule/import/", {"file": upload, "dry_run": True}, format="multipart",
                                HTTP_X_IDEMPOTENCY_KEY="probe-1")
    assert response.status_code == 422
    assert response.json()["code"] == "import_too_complex"
    assert len(response.content) < 1_000
    assert not IdempotencyRecord.objects.filter(key="probe-1").exists()


def test_import_needs_a_file_or_content(auth_client):
    response = auth_client.post("/api/v1/schedule/import/", {}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == {"file": ["Send either a file or content, not both or neither."]}


def test_export_is_an_ics_that_parses_back(auth_client, user):
    import_csv(user, "高等数学A(下),1,1,2,王建华,二教2305,1-2")
    response = auth_client.get("/api/v1/schedule/export.ics")
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    events = [c for c in Calendar.from_ical(response.content).walk("VEVENT")]
    assert [str(e["SUMMARY"]) for e in events] == ["高等数学A(下)", "高等数学A(下)"]
    assert events[0].decoded("DTSTART").isoformat() == "2026-09-07T08:00:00+08:00"


def test_feed_is_served_by_secret_token_and_revocable(auth_client, client, user):
    import_csv(user, "高等数学A(下),1,1,2,王建华,二教2305,1")
    url = auth_client.get("/api/v1/schedule/feed/").json()["url"]
    path = url.removeprefix("http://testserver")
    fetched = client.get(path)
    assert fetched.status_code == 200
    assert str(next(iter(Calendar.from_ical(fetched.content).walk("VEVENT")))["SUMMARY"]) == "高等数学A(下)"
    new_url = auth_client.post("/api/v1/schedule/feed/").json()["url"]
    assert new_url != url
    assert client.get(path).status_code == 404
    assert auth_client.delete("/api/v1/schedule/feed/").status_code == 204
    assert client.get(new_url.removeprefix("http://testserver")).status_code == 404


def test_schedule_endpoints_need_authentication(api_client, db):
    assert api_client.get("/api/v1/schedule/week/").status_code == 401
    assert api_client.post("/api/v1/schedule/import/", {}).status_code == 401
