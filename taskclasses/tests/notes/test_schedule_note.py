"""'Find me a slot': a quick note goes into the first free block of the week, and can come off."""

from __future__ import annotations

from datetime import timedelta

import pytest

from schedule.models import ScheduleEvent
from schedule.tests.factories import custom_event
from taskclasses.exceptions import NoFreeSlotError
from taskclasses.notes.services import task_schedule, task_unschedule
from taskclasses.tests.factories import NOW, make_task


def test_a_note_goes_into_the_first_free_block_after_now(user):
    # NOW is Wednesday of week 13 at 10:15: blocks of Monday to Wednesday morning are past.
    custom_event(user, title="社团活动", week=13, day=3, start=5, end=6)
    event = task_schedule(user=user, task_id=make_task(user).pk, now=NOW)
    assert (event.kind, event.week, event.day, event.start_section, event.end_section) == ("quick_note", 13, 3, 7, 8)
    assert event.task.title == "交概率论作业"


def test_no_block_before_the_deadline_is_a_clear_conflict(user):
    task = make_task(user, deadline=NOW + timedelta(hours=1))
    with pytest.raises(NoFreeSlotError) as error:
        task_schedule(user=user, task_id=task.pk, now=NOW)
    assert error.value.message == "No free block is left in that week before the deadline."
    assert not ScheduleEvent.objects.exists()


def test_unscheduling_frees_the_block(user):
    task = make_task(user)
    task_schedule(user=user, task_id=task.pk, now=NOW)
    assert task_unschedule(user=user, task_id=task.pk) >= 1
    assert not ScheduleEvent.objects.filter(task=task).exists()


def test_schedule_over_the_api_returns_the_event(auth_client, user, monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    task = make_task(user)
    response = auth_client.post(f"/api/v1/tasks/{task.pk}/schedule/", {}, format="json")
    assert response.status_code == 201
    assert response.json()["kind"] == "quick_note"
    blocks = auth_client.get(f"/api/v1/tasks/{task.pk}/").json()["blocks"]
    assert len(blocks) == 1
