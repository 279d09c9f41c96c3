"""Every edit of the student's own events is an undoable change set, and a delete of all weeks takes the
weeks changed on their own too (#35 M2). Through the events API, as the board's dialog calls it."""

from __future__ import annotations

import pytest

from schedule.models import ChangeSet, ScheduleEvent, ScheduleSlot
from schedule.services.timetable_records import event_rows
from schedule.tests.factories import custom_event

EVENTS = "/api/v1/schedule/events/"
CLUB = {"title": "社团例会", "weeks": "1-8", "day": 3, "start_section": 9, "end_section": 10,
        "location": "学生活动中心"}


def own_rows(user) -> list[dict]:
    """Every own event with its slots, as the record keeps them: equal lists mean the board is as it was."""
    return event_rows(ScheduleEvent.objects.filter(user=user, kind="custom").order_by("pk"))


def undo(client, answer) -> object:
    return client.post(f"/api/v1/changesets/{answer.json()['changeset_id']}/undo/")


def add_club(client, **changes):
    answer = client.post(EVENTS, {**CLUB, **changes}, format="json")
    assert answer.status_code == 201, answer.content
    return answer


def week_event(user, week: int) -> ScheduleEvent:
    return ScheduleEvent.objects.get(user=user, kind="custom", week=week)


# --- Each write answers its change set, and undo puts the board back exactly -------------------------

def test_adding_a_repeating_event_is_one_change_set_that_undo_takes_back(auth_client, user):
    answer = add_club(auth_client)
    body = answer.json()
    assert len(body["events"]) == 8 and body["changeset_id"]
    changeset = ChangeSet.objects.get(pk=body["changeset_id"], user=user)
    assert changeset.kind == ChangeSet.Kind.EVENT and len(changeset.timetable["events_created"]) == 8
    assert "社团例会" in body["summary"] and "8" in body["summary"]
    assert undo(auth_client, answer).status_code == 200
    assert not ScheduleEvent.objects.filter(user=user).exists() and not ScheduleSlot.objects.filter(user=user).exists()


def test_adding_a_one_off_event_is_undoable(auth_client, user):
    answer = auth_client.post(EVENTS, {"title": "面试", "week": 3, "day": 2, "start_section": 3, "end_section": 4},
                              format="json")
    assert answer.status_code == 201 and answer.json()["title"] == "面试" and answer.json()["changeset_id"]
    assert undo(auth_client, answer).status_code == 200
    assert not ScheduleEvent.objects.filter(user=user).exists()


def test_moving_every_week_is_undone_to_the_old_place_with_the_same_ids(auth_client, user):
    add_club(auth_client)
    before = own_rows(user)
    first = week_event(user, 1)
    answer = auth_client.patch(f"{EVENTS}{first.pk}/", {"scope": "all", "day": 4, "start_section": 11,
                                                        "end_section": 12, "title": "社团"}, format="json")
    assert answer.status_code == 200, answer.content
    assert set(ScheduleEvent.objects.filter(user=user).values_list("day", "title")) == {(4, "社团")}
    assert undo(auth_client, answer).status_code == 200
    assert own_rows(user) == before


def test_new_weeks_for_a_series_are_undone_whole(auth_client, user):
    add_club(auth_client)
    before = own_rows(user)
    answer = auth_client.patch(f"{EVENTS}{week_event(user, 1).pk}/", {"scope": "all", "weeks": "5-12"},
                               format="json")
    assert answer.status_code == 200, answer.content
    assert sorted(ScheduleEvent.objects.filter(user=user).values_list("week", flat=True)) == list(range(5, 13))
    assert undo(auth_client, answer).status_code == 200
    assert own_rows(user) == before


@pytest.mark.parametrize(("query", "deleted"), [("?scope=all", 8), ("", 1)], ids=["all weeks", "one week"])
def test_a_delete_is_undone_with_every_row_back(auth_client, user, query, deleted):
    add_club(auth_client)
    before = own_rows(user)
    answer = auth_client.delete(f"{EVENTS}{week_event(user, 2).pk}/{query}")
    assert answer.status_code == 200 and answer.json()["deleted"] == deleted
    assert "社团例会" in answer.json()["summary"]
    assert ScheduleEvent.objects.filter(user=user).count() == 8 - deleted
    assert undo(auth_client, answer).status_code == 200
    assert own_rows(user) == before


# --- "This week only" follows its series' deletion -----------------------------------------------------

def test_a_week_changed_on_its_own_is_deleted_with_all_weeks_and_comes_back_on_undo(auth_client, user):
    add_club(auth_client)
    changed = week_event(user, 5)
    assert auth_client.patch(f"{EVENTS}{changed.pk}/", {"scope": "this", "title": "社团换届"},
                             format="json").status_code == 200
    changed.refresh_from_db()
    assert changed.series_id is None and changed.series_origin is not None
    before = own_rows(user)
    answer = auth_client.delete(f"{EVENTS}{week_event(user, 1).pk}/?scope=all")
    assert answer.json()["deleted"] == 8
    assert not ScheduleEvent.objects.filter(user=user).exists()
    assert undo(auth_client, answer).status_code == 200
    assert own_rows(user) == before
    assert ScheduleEvent.objects.get(pk=changed.pk).title == "社团换届"


def test_editing_all_weeks_leaves_the_week_changed_on_its_own_alone(auth_client, user):
    add_club(auth_client)
    changed = week_event(user, 5)
    auth_client.patch(f"{EVENTS}{changed.pk}/", {"scope": "this", "title": "社团换届"}, format="json")
    auth_client.patch(f"{EVENTS}{week_event(user, 1).pk}/", {"scope": "all", "location": "二教"}, format="json")
    assert ScheduleEvent.objects.get(pk=changed.pk).location == "学生活动中心"
    assert ScheduleEvent.objects.filter(user=user, location="二教").count() == 7


# --- Undo refuses when the rows changed since, and nothing is half-written -----------------------------

def test_undo_of_an_edit_is_refused_after_a_later_edit_of_the_same_event(auth_client, user):
    add_club(auth_client)
    event = week_event(user, 1)
    rename = auth_client.patch(f"{EVENTS}{event.pk}/", {"scope": "all", "title": "社团"}, format="json")
    auth_client.patch(f"{EVENTS}{event.pk}/", {"scope": "all", "title": "社团活动"}, format="json")
    refused = undo(auth_client, rename)
    assert refused.status_code == 409 and refused.json()["code"] == "undo_conflict"
    assert set(ScheduleEvent.objects.filter(user=user).values_list("title", flat=True)) == {"社团活动"}


def test_undo_of_a_delete_names_what_took_the_place_meanwhile(auth_client, user):
    add_club(auth_client)
    answer = auth_client.delete(f"{EVENTS}{week_event(user, 3).pk}/")
    auth_client.post(EVENTS, {"title": "讲座", "week": 3, "day": 3, "start_section": 9, "end_section": 10},
                     format="json")
    refused = undo(auth_client, answer)
    assert refused.status_code == 409 and "讲座" in refused.json()["message"]
    assert ScheduleEvent.objects.filter(user=user, week=3).get().title == "讲座"


def test_a_refused_edit_records_no_change_set(auth_client, user):
    add_club(auth_client)
    custom_event(user, title="讲座", week=2, day=4, start=11, end=12)
    count = ChangeSet.objects.filter(user=user).count()
    refused = auth_client.patch(f"{EVENTS}{week_event(user, 1).pk}/", {"scope": "all", "day": 4, "start_section": 11,
                                                                        "end_section": 12}, format="json")
    assert refused.status_code == 409
    assert ChangeSet.objects.filter(user=user).count() == count


@pytest.mark.parametrize("method", ["patch", "delete"])
def test_another_students_event_is_not_found_and_records_nothing(auth_client, user, method):
    from accounts.tests.factories import UserFactory

    other = custom_event(UserFactory())
    call = getattr(auth_client, method)
    answer = call(f"{EVENTS}{other.pk}/", {"title": "x"}, format="json") if method == "patch" else \
        call(f"{EVENTS}{other.pk}/")
    assert answer.status_code == 404 and not ChangeSet.objects.exists()


# --- A class meeting or a planned block is not an own event: refused, nothing written ----------------

def _filler_meeting_holding_a_block(user):
    from taskclasses.models import TaskItem
    from taskclasses.tests.factories import embed_item, make_task_class

    item = make_task_class(user, items=1).items.get()
    host = embed_item(item)
    TaskItem.objects.filter(pk=item.pk).update(status=TaskItem.Status.PLACED)
    return host, item


@pytest.mark.parametrize(("method", "body"), [
    ("patch", {"week": 3, "day": 2, "start_section": 9, "end_section": 10}),
    ("patch", {"title": "别的名字"}),
    ("delete", None),
], ids=["move", "rename", "delete"])
def test_the_events_api_refuses_a_class_meeting_and_its_embedded_block_keeps_its_place(
        auth_client, user, method, body):
    host, item = _filler_meeting_holding_a_block(user)
    before = event_rows(ScheduleEvent.objects.filter(user=user).order_by("pk"))
    changes = ChangeSet.objects.filter(user=user).count()  # the import's
    answer = getattr(auth_client, method)(f"{EVENTS}{host.pk}/", body, format="json")
    assert answer.status_code == 409
    assert answer.json() == {
        "code": "not_own_event",
        "message": "This is a class, not your own event: change its course (name, teacher, room) or delete this "
                   "one meeting from the course dialog, or re-import the timetable for new times.",
        "detail": {"kind": "course", "course_id": host.course_id}}
    assert event_rows(ScheduleEvent.objects.filter(user=user).order_by("pk")) == before
    assert ScheduleSlot.objects.filter(event=host, embedded_item=item).count() == 2
    assert ChangeSet.objects.filter(user=user).count() == changes


def test_the_events_api_refuses_a_planned_block_in_chinese(auth_client, user):
    from taskclasses.tests.factories import make_task_class, place_item

    block = place_item(make_task_class(user, items=1).items.get())
    answer = auth_client.delete(f"{EVENTS}{block.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert (answer.status_code, answer.json()["code"]) == (409, "not_own_event")
    assert answer.json()["message"] == "这是安排好的学习块，不是你自己的日程：请在它自己的窗口里用“移动到…”，或在课表上拖动它。"
    assert ScheduleEvent.objects.filter(pk=block.pk).exists()
