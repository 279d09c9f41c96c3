"""找个时间: a quick note gets a proposed time as a preview; Apply writes it, the undo bar takes it back."""

from __future__ import annotations

from datetime import timedelta

import pytest

from board.note_slots import note_slot_preview, preview_first_week
from board.previews import changeset_undo, preview_apply
from schedule.models import ChangeSet, PlanPreview, ScheduleEvent
from schedule.tests.factories import custom_event
from smartmate.platform.exceptions import ConflictError, NotFoundError
from taskclasses.exceptions import NoFreeSlotError
from taskclasses.tests.factories import NOW, make_task


def test_the_proposal_is_a_preview_at_the_first_free_time_and_writes_nothing(user):
    # NOW is Wednesday of week 13 at 10:15: the morning is past and 14:00-15:40 is taken.
    custom_event(user, title="社团活动", week=13, day=3, start=5, end=6)
    preview = note_slot_preview(user=user, task_id=make_task(user).pk, now=NOW)
    row = preview.task_placements[0]
    assert (row["week"], row["day"], row["start_section"], row["end_section"]) == (13, 3, 7, 8)
    assert preview.status == PlanPreview.Status.OPEN and preview_first_week(preview) == 13
    assert not ScheduleEvent.objects.filter(kind=ScheduleEvent.Kind.QUICK_NOTE).exists()


def test_apply_writes_the_note_and_undo_takes_it_back(user):
    task = make_task(user)
    preview = note_slot_preview(user=user, task_id=task.pk, now=NOW)
    changeset = preview_apply(user=user, preview_id=preview.pk, now=NOW)
    event = ScheduleEvent.objects.get(task=task)
    assert (event.week, event.day, event.start_section) == (13, 3, 5)
    assert changeset.task_ids == [task.pk]
    changeset_undo(user=user, changeset_id=changeset.pk, now=NOW)
    assert not ScheduleEvent.objects.filter(task=task).exists()
    assert ChangeSet.objects.get(pk=changeset.pk).undone_at is not None


def test_the_proposal_respects_the_deadline(user):
    task = make_task(user, deadline=NOW + timedelta(hours=1))
    with pytest.raises(NoFreeSlotError) as error:
        note_slot_preview(user=user, task_id=task.pk, now=NOW)
    assert error.value.code == "no_free_slot"
    assert not PlanPreview.objects.exists()


def test_a_note_already_on_the_schedule_is_not_proposed_again(user):
    task = make_task(user)
    preview_apply(user=user, preview_id=note_slot_preview(user=user, task_id=task.pk, now=NOW).pk, now=NOW)
    with pytest.raises(ConflictError):
        note_slot_preview(user=user, task_id=task.pk, now=NOW)


def test_another_students_note_is_not_found(user, other_user):
    with pytest.raises(NotFoundError):
        note_slot_preview(user=user, task_id=make_task(other_user).pk, now=NOW)
    assert not PlanPreview.objects.exists()


def test_the_dashboard_button_opens_the_preview_on_the_board(client, user, monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    client.force_login(user)
    task = make_task(user)
    response = client.post(f"/board/notes/{task.pk}/schedule/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    preview = PlanPreview.objects.get(user=user)
    assert response.status_code == 302
    assert response["Location"] == f"/board/?preview={preview.pk}&week=13"
    assert not ScheduleEvent.objects.filter(task=task).exists()
    board = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'data-test="preview-banner"' in board and "交概率论作业" in board
    assert "这是为这条随口记找到的时间" in board


def test_the_dashboard_button_on_another_students_note_is_a_404(client, user, other_user):
    client.force_login(user)
    assert client.post(f"/board/notes/{make_task(other_user).pk}/schedule/").status_code == 404
