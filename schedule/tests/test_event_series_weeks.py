"""A repeating event's weeks changed for every occurrence (the week board's edit dialog, "所有周"):
weeks left out lose their occurrence, new weeks get one, all or nothing, refusals in Chinese."""

from __future__ import annotations

import pytest
from django.utils import translation

from schedule.exceptions import ScheduleInputError, SlotConflictError
from schedule.models import ScheduleEvent, ScheduleSlot
from schedule.services.event_series import event_series_update
from schedule.services.events import Span
from schedule.tests.factories import custom_event
from schedule.tests.test_event_series import EVENTS, club, weeks_of


def test_new_weeks_drop_and_add_occurrences_in_one_series(user):
    series = club(user, weeks="1-8")
    event_series_update(user=user, event_id=series.events[0].pk, scope="all", weeks="1-15单", title="例会")
    events = ScheduleEvent.objects.filter(user=user).order_by("week")
    assert [e.week for e in events] == [1, 3, 5, 7, 9, 11, 13, 15]
    assert {(e.series_id, e.title, e.location, e.day, e.start_section) for e in events} == {
        (series.series_id, "例会", "学生活动中心", 3, 9)}
    assert ScheduleSlot.objects.filter(user=user).count() == 16  # two sections in each of 8 weeks


def test_new_weeks_and_a_new_place_together(user):
    series = club(user, weeks="1-4")
    event_series_update(user=user, event_id=series.events[1].pk, scope="all", weeks="2-6双",
                        span=Span(2, 5, 11, 12))
    assert set(ScheduleSlot.objects.filter(user=user).values_list("week", "day", "section")) == {
        (w, 5, s) for w in (2, 4, 6) for s in (11, 12)}


def test_a_one_off_event_given_weeks_becomes_a_series(user):
    event = custom_event(user, title="家教", week=3, day=5, start=11, end=12)
    event_series_update(user=user, event_id=event.pk, scope="all", weeks="3-5")
    events = ScheduleEvent.objects.filter(user=user)
    assert weeks_of(user) == [3, 4, 5] and len({e.series_id for e in events}) == 1
    assert events.get(week=3).pk == event.pk and events.first().series_id is not None


def test_a_taken_new_week_changes_nothing_and_names_the_occupant(user):
    series = club(user, weeks="1-4")
    custom_event(user, title="家教", week=6, day=3, start=9, end=10)
    with translation.override("zh-hans"), pytest.raises(SlotConflictError) as caught:
        event_series_update(user=user, event_id=series.events[0].pk, scope="all", weeks="1-8", title="例会")
    assert "家教" in caught.value.message and "第 6 周" in caught.value.message
    assert list(ScheduleEvent.objects.filter(series_id=series.series_id).values_list("week", "title")) == [
        (w, "社团例会") for w in (1, 2, 3, 4)]


def test_weeks_outside_the_semester_are_refused_in_chinese_and_nothing_changes(user):
    series = club(user, weeks="1-4")
    with translation.override("zh-hans"), pytest.raises(ScheduleInputError) as caught:
        event_series_update(user=user, event_id=series.events[0].pk, scope="all", weeks="1-25")
    assert caught.value.message == "第 25 周不在学期内（本学期共 20 周）。"
    assert weeks_of(user) == [1, 2, 3, 4]


def test_new_weeks_for_one_occurrence_only_are_refused(user):
    series = club(user, weeks="1-4")
    with translation.override("zh-hans"), pytest.raises(ScheduleInputError) as caught:
        event_series_update(user=user, event_id=series.events[0].pk, scope="this", weeks="1-8")
    assert caught.value.code == "weeks_need_all" and "所有周" in caught.value.message
    assert weeks_of(user) == [1, 2, 3, 4]


def test_api_changes_the_weeks_of_every_occurrence(auth_client, user):
    series = club(user, weeks="1-4")
    response = auth_client.patch(f"{EVENTS}{series.events[0].pk}/", {"scope": "all", "weeks": "1-16单",
                                                                      "note": "带讲义"}, format="json")
    assert response.status_code == 200 and response.json()["series_id"] == str(series.series_id)
    assert weeks_of(user) == list(range(1, 17, 2))
    assert set(ScheduleEvent.objects.values_list("note", flat=True)) == {"带讲义"}


def test_api_an_empty_title_is_refused_in_chinese(api_client, user):
    series = club(user, weeks="1-4")
    api_client.force_authenticate(user=user)
    response = api_client.patch(f"{EVENTS}{series.events[0].pk}/", {"scope": "all", "title": "  "},
                                format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 400
    assert set(ScheduleEvent.objects.values_list("title", flat=True)) == {"社团例会"}

