"""The student's own repeating events: series create, clashes, week specs, edit and delete by scope, the API."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import translation

from schedule.exceptions import ScheduleInputError, SlotConflictError
from schedule.models import DEFAULT_SECTION_TIMES, ScheduleEvent, ScheduleSlot
from schedule.services.event_series import event_series_create, event_series_delete, event_series_update
from schedule.services.events import Span
from schedule.tests.factories import custom_event, import_csv, make_task_class
from smartmate.platform.exceptions import NotFoundError

SHANGHAI = ZoneInfo("Asia/Shanghai")
EVENTS = "/api/v1/schedule/events/"
CLUB = {"title": "社团例会", "weeks": "1-16", "day": 3, "start_section": 9, "end_section": 10}


def club(user, **changes):
    values = {**CLUB, **changes}
    return event_series_create(user=user, title=values["title"], weeks=values["weeks"], day=values["day"],
                               start_section=values["start_section"], end_section=values["end_section"],
                               location="学生活动中心")


def weeks_of(user) -> list[int]:
    return list(ScheduleEvent.objects.filter(user=user).order_by("week").values_list("week", flat=True))


# --- Create -----------------------------------------------------------------------------------------

def test_sections_9_and_10_are_19_00_to_20_40_in_the_default_template():
    assert (DEFAULT_SECTION_TIMES[8][0], DEFAULT_SECTION_TIMES[9][1]) == ("19:00", "20:40")


def test_a_series_makes_one_linked_event_a_week_with_its_slots(user):
    series = club(user)
    assert series.weeks == tuple(range(1, 17)) and len(series.events) == 16
    events = ScheduleEvent.objects.filter(user=user)
    assert {e.series_id for e in events} == {series.series_id}
    assert {(e.kind, e.day, e.start_section, e.end_section) for e in events} == {("custom", 3, 9, 10)}
    assert ScheduleSlot.objects.filter(user=user).count() == 32
    first = events.get(week=1)
    assert (first.starts_at, first.ends_at) == (datetime(2026, 9, 9, 19, 0, tzinfo=SHANGHAI),
                                                datetime(2026, 9, 9, 20, 40, tzinfo=SHANGHAI))


def test_odd_weeks_spec_makes_one_event_in_every_odd_week(user):
    club(user, title="家教", weeks="1-16单")
    assert weeks_of(user) == [1, 3, 5, 7, 9, 11, 13, 15]


def test_a_list_of_weeks_and_ranges_is_read(user):
    club(user, title="家教", weeks="2,4,6-8")
    assert weeks_of(user) == [2, 4, 6, 7, 8]


def test_a_course_in_one_week_refuses_the_whole_series_and_writes_nothing(user):
    import_csv(user, "高等数学,3,9,10,王老师,二教1101,7")
    with pytest.raises(SlotConflictError) as caught:
        club(user)
    assert caught.value.message == "Week 7, Wednesday, sections 9-10: taken by 高等数学."
    assert caught.value.detail["occupant"]["kind"] == "course"
    assert [c["week"] for c in caught.value.detail["clashes"]] == [7]
    assert weeks_of(user) == [7]


def test_weeks_outside_the_semester_are_refused_in_chinese(user):
    with translation.override("zh-hans"), pytest.raises(ScheduleInputError) as caught:
        club(user, weeks="1-25")
    assert caught.value.code == "week_out_of_range"
    assert caught.value.message == "第 25 周不在学期内（本学期共 20 周）。"
    assert weeks_of(user) == []


def test_an_empty_title_is_refused(user):
    with pytest.raises(ScheduleInputError) as caught:
        club(user, title="   ")
    assert caught.value.code == "empty_title"


def test_sections_outside_the_template_are_refused(user):
    with pytest.raises(ScheduleInputError) as caught:
        club(user, start_section=13, end_section=14)
    assert caught.value.code == "unknown_section" and weeks_of(user) == []


# --- Edit and delete by scope -----------------------------------------------------------------------

def test_editing_this_occurrence_detaches_it_and_leaves_the_others(user):
    series = club(user)
    week_5 = next(e for e in series.events if e.week == 5)
    event_series_update(user=user, event_id=week_5.pk, scope="this", title="社团例会（改地点）",
                        span=Span(5, 4, 9, 10))
    week_5.refresh_from_db()
    assert (week_5.series_id, week_5.day, week_5.title) == (None, 4, "社团例会（改地点）")
    assert ScheduleEvent.objects.filter(series_id=series.series_id).count() == 15


def test_editing_all_moves_every_occurrence_within_its_own_week(user):
    series = club(user)
    event_series_update(user=user, event_id=series.events[0].pk, scope="all", title="例会", span=Span(1, 5, 11, 12))
    events = ScheduleEvent.objects.filter(series_id=series.series_id)
    assert {(e.title, e.day, e.start_section) for e in events} == {("例会", 5, 11)} and events.count() == 16
    assert set(ScheduleSlot.objects.filter(user=user).values_list("day", "section")) == {(5, 11), (5, 12)}
    assert events.get(week=2).starts_at == datetime(2026, 9, 18, 20, 50, tzinfo=SHANGHAI)


def test_editing_all_onto_a_taken_week_changes_nothing(user):
    series = club(user)
    custom_event(user, title="家教", week=12, day=5, start=11, end=12)
    with pytest.raises(SlotConflictError) as caught:
        event_series_update(user=user, event_id=series.events[0].pk, scope="all", title="例会",
                            span=Span(1, 5, 11, 12))
    assert caught.value.detail["week"] == 12
    assert set(ScheduleEvent.objects.filter(series_id=series.series_id).values_list("title", "day")) == {
        ("社团例会", 3)}


def test_deleting_this_occurrence_keeps_the_rest(user):
    series = club(user)
    assert event_series_delete(user=user, event_id=series.events[3].pk, scope="this") == 1
    assert weeks_of(user) == [w for w in range(1, 17) if w != 4]


def test_deleting_all_removes_every_occurrence_and_its_slots(user):
    series = club(user)
    custom_event(user, title="夜跑", week=3, day=1, start=11, end=12)
    assert event_series_delete(user=user, event_id=series.events[0].pk, scope="all") == 16
    assert weeks_of(user) == [3] and ScheduleSlot.objects.filter(user=user).count() == 2


def test_another_students_occurrence_is_not_found(user, other_user):
    series = club(other_user)
    with pytest.raises(NotFoundError):
        event_series_delete(user=user, event_id=series.events[0].pk, scope="all")


# --- The planner ------------------------------------------------------------------------------------

def test_the_planner_places_nothing_on_the_series_sections(user, before_week_three):
    from board.planning import preview_create

    club(user)
    # Only Wednesdays' pairs 5 (sections 9-10, the series) and 6 (11-12) are allowed, in weeks 3-4.
    task_class = make_task_class(user, items=4, excluded_pairs=[1, 2, 3, 4], excluded_days=[1, 2, 4, 5, 6, 7])
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    assert [(p["week"], p["day"], p["start_section"]) for p in preview.placements] == [(3, 3, 11), (4, 3, 11)]
    assert len(preview.unplaced) == 2


def test_the_board_holds_every_occurrence_locked_for_the_assistant(user, before_week_three):
    from board.boards import board_load

    series = club(user)
    board = board_load(user=user, now=before_week_three, first=date(2026, 9, 21), last=date(2026, 10, 4))
    held = [e for e in board.entries if e.event_id in {event.pk for event in series.events}]
    assert len(held) == 2 and all(board.is_locked(entry) for entry in held)


# --- API --------------------------------------------------------------------------------------------

def test_api_creates_a_series_and_answers_with_its_occurrences(auth_client, user):
    response = auth_client.post(EVENTS, {**CLUB, "weeks": "1-16单"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["weeks"] == [1, 3, 5, 7, 9, 11, 13, 15] and len(body["events"]) == 8
    assert {e["series_id"] for e in body["events"]} == {body["series_id"]}


def test_api_create_without_weeks_still_makes_one_event(auth_client, user):
    body = {"title": "社团活动", "week": 3, "day": 2, "start_section": 5, "end_section": 6}
    response = auth_client.post(EVENTS, body, format="json")
    assert response.status_code == 201 and response.json()["series_id"] is None
    assert weeks_of(user) == [3]


def test_api_refuses_both_week_and_weeks(auth_client):
    response = auth_client.post(EVENTS, {**CLUB, "week": 3}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == {"week": ["Give either a week or a week range, not both or neither."]}


def test_api_clash_is_a_409_naming_the_course(auth_client, user):
    import_csv(user, "高等数学,3,9,10,王老师,二教1101,7")
    response = auth_client.post(EVENTS, CLUB, format="json")
    assert response.status_code == 409 and response.json()["code"] == "slot_taken"
    assert response.json()["detail"]["occupant"]["title"] == "高等数学"
    assert weeks_of(user) == [7]


def test_api_out_of_semester_weeks_are_refused_in_chinese(api_client, user):
    api_client.force_authenticate(user=user)
    response = api_client.post(EVENTS, {**CLUB, "weeks": "1-25"}, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 400
    assert response.json()["message"] == "第 25 周不在学期内（本学期共 20 周）。"


def test_api_edits_all_occurrences_without_a_week(auth_client, user):
    series = club(user)
    response = auth_client.patch(f"{EVENTS}{series.events[2].pk}/",
                                 {"scope": "all", "day": 2, "start_section": 11, "end_section": 12}, format="json")
    assert response.status_code == 200 and response.json()["week"] == 3 and response.json()["day"] == 2
    assert set(ScheduleEvent.objects.filter(user=user).values_list("day", "start_section")) == {(2, 11)}


def test_api_edit_this_detaches_the_occurrence(auth_client, user):
    series = club(user)
    response = auth_client.patch(f"{EVENTS}{series.events[0].pk}/", {"scope": "this", "note": "请假"},
                                 format="json")
    assert response.status_code == 200 and response.json()["series_id"] is None
    assert ScheduleEvent.objects.filter(series_id=series.series_id).count() == 15


def test_api_deletes_all_occurrences(auth_client, user):
    series = club(user)
    assert auth_client.delete(f"{EVENTS}{series.events[0].pk}/?scope=all").status_code == 200
    assert weeks_of(user) == []


def test_api_delete_without_scope_removes_one_occurrence(auth_client, user):
    series = club(user)
    assert auth_client.delete(f"{EVENTS}{series.events[0].pk}/").status_code == 200
    assert weeks_of(user) == list(range(2, 17))


def test_api_another_students_series_is_a_404(auth_client, other_user):
    series = club(other_user)
    event_id = series.events[0].pk
    assert auth_client.patch(f"{EVENTS}{event_id}/", {"scope": "all", "title": "x"}, format="json").status_code == 404
    assert auth_client.delete(f"{EVENTS}{event_id}/?scope=all").status_code == 404
    assert ScheduleEvent.objects.filter(user=other_user).count() == 16


def test_api_a_replayed_series_create_writes_once(auth_client, user):
    first = auth_client.post(EVENTS, CLUB, format="json", HTTP_X_IDEMPOTENCY_KEY="club-1")
    again = auth_client.post(EVENTS, CLUB, format="json", HTTP_X_IDEMPOTENCY_KEY="club-1")
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert ScheduleEvent.objects.filter(user=user).count() == 16
