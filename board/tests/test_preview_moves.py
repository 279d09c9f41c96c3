"""Previews that move existing blocks and place quick notes: apply, conflicts, undo."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.utils import timezone

from board.planning import preview_create
from board.preview_presenter import changeset_view, preview_view
from board.previews import changeset_undo, preview_apply
from schedule.exceptions import SlotConflictError
from schedule.models import Course, PlanPreview, ScheduleEvent, ScheduleSlot
from schedule.tests.factories import custom_event, import_csv, make_task_class
from smartmate.platform.exceptions import ConflictError
from taskclasses.models import Task

pytestmark = pytest.mark.usefixtures("before_week_three")


def _where(week, day, start, host=None):
    return {"week": week, "day": day, "start_section": start, "end_section": start + 1, "host_event_id": host}


def _applied_block(user, **window):
    """One study block already on the board (week 3, Monday, sections 1-2 on a one-day window)."""
    task_class = make_task_class(user, items=1, strategy="rapid", start=date(2026, 9, 21), end=date(2026, 9, 21))
    preview_apply(user=user, preview_id=preview_create(user=user, task_class_ids=[task_class.pk]).pk)
    return ScheduleEvent.objects.get(user=user, kind="task_item")


def _preview(user, *, moves=(), notes=()):
    return PlanPreview.objects.create(user=user, source="assistant", conversation_id=1, moves=list(moves),
                                      task_placements=list(notes), expires_at=timezone.now() + timedelta(hours=1))


def _move_of(event, to):
    return {"kind": "task_item", "item_id": event.task_item_id, "task_id": None, "event_id": event.pk,
            "class_id": event.task_item.task_class_id,
            "from": _where(event.week, event.day, event.start_section), "to": to}


def test_apply_moves_an_existing_block_and_undo_puts_it_back(user):
    event = _applied_block(user)
    changeset = preview_apply(user=user, preview_id=_preview(user, moves=[_move_of(event, _where(3, 5, 7))]).pk)
    moved = ScheduleEvent.objects.get(user=user, kind="task_item")
    assert (moved.week, moved.day, moved.start_section, moved.source) == (3, 5, 7, "assistant")
    assert set(ScheduleSlot.objects.filter(event=moved).values_list("section", flat=True)) == {7, 8}
    changeset_undo(user=user, changeset_id=changeset.pk)
    back = ScheduleEvent.objects.get(user=user, kind="task_item")
    assert (back.week, back.day, back.start_section, back.task_item_id) == (3, 1, 1, event.task_item_id)


def test_two_blocks_can_trade_places(user):
    first = _applied_block(user)
    second = custom_event(user, title="x", week=3, day=4, start=3, end=4)
    second.delete()
    task_class = make_task_class(user, name="B", items=1, strategy="rapid", start=date(2026, 9, 24),
                                 end=date(2026, 9, 24))
    preview_apply(user=user, preview_id=preview_create(user=user, task_class_ids=[task_class.pk]).pk)
    other = ScheduleEvent.objects.get(user=user, kind="task_item", task_item__task_class=task_class)
    moves = [_move_of(first, _where(other.week, other.day, other.start_section)),
             _move_of(other, _where(first.week, first.day, first.start_section))]
    preview_apply(user=user, preview_id=_preview(user, moves=moves).pk)
    placed = dict(ScheduleEvent.objects.filter(user=user, kind="task_item").values_list("task_item_id", "day"))
    assert placed == {first.task_item_id: other.day, other.task_item_id: first.day}


def test_a_block_moves_into_a_filler_course_and_back_out_on_undo(user):
    import_csv(user, "形势与政策,5,1,2,赵立新,二教1101,3")
    Course.objects.update(is_filler=True)
    host = ScheduleEvent.objects.get(user=user, kind="course")
    event = _applied_block(user)
    changeset = preview_apply(user=user, preview_id=_preview(user, moves=[_move_of(event, _where(3, 5, 1, host.pk))]).pk)
    assert not ScheduleEvent.objects.filter(kind="task_item").exists()
    assert ScheduleSlot.objects.filter(event=host, embedded_item_id=event.task_item_id).count() == 2
    changeset_undo(user=user, changeset_id=changeset.pk)
    assert ScheduleSlot.objects.filter(embedded_item__isnull=False).count() == 0
    assert ScheduleEvent.objects.get(kind="task_item").day == 1


def test_apply_places_a_quick_note_and_undo_removes_it(user):
    task = Task.objects.create(user=user, title="交作业", quadrant=1)
    changeset = preview_apply(user=user, preview_id=_preview(user, notes=[{"task_id": task.pk, **_where(3, 2, 3)}]).pk)
    event = ScheduleEvent.objects.get(user=user, kind="quick_note")
    assert (event.task_id, event.day, event.start_section) == (task.pk, 2, 3)
    assert changeset_view(changeset)["summary"] == "1 quick note scheduled"  # no "0 blocks placed" part
    changeset_undo(user=user, changeset_id=changeset.pk)
    assert not ScheduleEvent.objects.filter(kind="quick_note").exists()


def test_a_target_taken_meanwhile_is_a_conflict_and_nothing_is_written(user):
    event = _applied_block(user)
    task = Task.objects.create(user=user, title="交作业", quadrant=1)
    preview = _preview(user, moves=[_move_of(event, _where(3, 5, 7))], notes=[{"task_id": task.pk, **_where(3, 2, 3)}])
    custom_event(user, title="临时开会", week=3, day=2, start=3, end=4)
    with pytest.raises(SlotConflictError, match="taken by 临时开会"):
        preview_apply(user=user, preview_id=preview.pk)
    still = ScheduleEvent.objects.get(user=user, kind="task_item")
    assert (still.pk, still.day, still.start_section) == (event.pk, 1, 1)
    assert not ScheduleEvent.objects.filter(kind="quick_note").exists()
    preview.refresh_from_db()
    assert preview.status == PlanPreview.Status.OPEN


def test_a_block_moved_meanwhile_is_refused(user):
    event = _applied_block(user)
    preview = _preview(user, moves=[_move_of(event, _where(3, 5, 7))])
    ScheduleEvent.objects.filter(pk=event.pk).delete()
    with pytest.raises(ConflictError, match="moved or removed meanwhile"):
        preview_apply(user=user, preview_id=preview.pk)


def test_a_completed_quick_note_is_refused(user):
    task = Task.objects.create(user=user, title="交作业", quadrant=1, completed=True, completed_at=timezone.now())
    with pytest.raises(ConflictError, match="quick note of this preview"):
        preview_apply(user=user, preview_id=_preview(user, notes=[{"task_id": task.pk, **_where(3, 2, 3)}]).pk)


def test_undo_is_refused_when_the_moved_block_moved_again(user):
    event = _applied_block(user)
    changeset = preview_apply(user=user, preview_id=_preview(user, moves=[_move_of(event, _where(3, 5, 7))]).pk)
    ScheduleEvent.objects.filter(user=user, kind="task_item").delete()
    with pytest.raises(ConflictError, match="moved, removed or completed since"):
        changeset_undo(user=user, changeset_id=changeset.pk)


def test_another_users_preview_cannot_be_applied(user, other_user):
    event = _applied_block(user)
    preview = _preview(user, moves=[_move_of(event, _where(3, 5, 7))])
    from smartmate.platform.exceptions import NotFoundError

    with pytest.raises(NotFoundError):
        preview_apply(user=other_user, preview_id=preview.pk)


def test_the_preview_view_shows_moves_and_notes_with_real_times(user):
    event = _applied_block(user)
    task = Task.objects.create(user=user, title="交作业", quadrant=1)
    shown = preview_view(_preview(user, moves=[_move_of(event, _where(3, 5, 7))],
                                  notes=[{"task_id": task.pk, **_where(3, 2, 3)}]))
    assert shown.moves[0].content == event.title and shown.moves[0].from_day == 1
    assert shown.notes[0].content == "交作业" and shown.weeks == [3] and shown.change_count == 2


def test_the_week_board_draws_a_moved_block_at_its_new_place_only(user, client):
    from django.urls import reverse

    event = _applied_block(user)
    task = Task.objects.create(user=user, title="交作业", quadrant=1)
    preview = _preview(user, moves=[_move_of(event, _where(3, 5, 7))], notes=[{"task_id": task.pk, **_where(3, 2, 3)}])
    client.force_login(user)
    url = reverse("board:week") + f"?week=3&preview={preview.pk}"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.count('data-test="moved-block"') == 1 and page.count('data-test="note-block"') == 1
    assert f'data-event-id="{event.pk}"' not in page and "moved from 09-21 08:00" in page
