"""One quick note, one block: scheduling it again is a clear 409, and a second block never breaks a page.

The probe (L2): scheduling one quick note twice made the dashboard and that week's board answer 500
(two entries with one block id).
"""

from __future__ import annotations

import pytest

from schedule.models import ScheduleEvent
from schedule.services.events import Span, event_create
from smartmate.platform.exceptions import ConflictError
from taskclasses.notes.services import task_schedule
from taskclasses.tests.factories import NOW, make_task


@pytest.fixture
def at_now(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)


def test_scheduling_a_note_twice_over_the_api_is_a_conflict(auth_client, user, at_now):
    task = make_task(user)
    first = auth_client.post(f"/api/v1/tasks/{task.pk}/schedule/", {}, format="json")
    second = auth_client.post(f"/api/v1/tasks/{task.pk}/schedule/", {}, format="json",
                              HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert first.status_code == 201
    assert second.status_code == 409
    assert second.json() == {"code": "note_already_scheduled", "message": "这条随口记已经在日程上了。",
                             "detail": None}
    assert ScheduleEvent.objects.filter(task=task).count() == 1


def test_the_service_refuses_a_second_block_for_one_note(user):
    task = make_task(user)
    task_schedule(user=user, task_id=task.pk, now=NOW)
    with pytest.raises(ConflictError) as error:
        task_schedule(user=user, task_id=task.pk, now=NOW)
    assert error.value.code == "note_already_scheduled"


def note_with_two_blocks(user):
    # Rows written before the refusal existed: the readers must still answer.
    task = make_task(user)
    for day in (4, 5):
        event_create(user=user, title=task.title, kind=ScheduleEvent.Kind.QUICK_NOTE, task=task,
                     span=Span(13, day, 7, 8))
    return task


def test_the_week_board_shows_a_note_with_two_blocks(client, user, at_now):
    note_with_two_blocks(user)
    client.force_login(user)
    response = client.get("/board/", {"week": 13})
    assert response.status_code == 200
    assert response.content.decode().count("交概率论作业") >= 2


def test_the_dashboard_shows_a_note_with_two_blocks(client, user, at_now):
    note_with_two_blocks(user)
    client.force_login(user)
    assert client.get("/").status_code == 200
