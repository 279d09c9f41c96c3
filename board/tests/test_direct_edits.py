"""Direct edits of placed blocks: move, remove, mark done or missed, each undone exactly by its change set."""

from __future__ import annotations

import pytest

from board.direct_edits import (
    BlockChangedError,
    block_get,
    block_mark,
    block_move,
    block_remove,
    block_suggestions,
)
from board.previews import BlockRuleError, changeset_undo
from schedule.models import ChangeSet, ScheduleEvent, ScheduleSlot
from schedule.services.events import Span, event_create
from schedule.tests.factories import custom_event, import_csv
from smartmate.platform.exceptions import AppError, ConflictError, NotFoundError
from taskclasses.models import TaskItem
from taskclasses.tests.factories import embed_item, make_task, make_task_class, place_item

pytestmark = pytest.mark.usefixtures("before_week_three")


def _board_rows(user) -> list[tuple]:
    """Everything the board shows, without row ids: events, embedded blocks and item statuses."""
    events = sorted(ScheduleEvent.objects.filter(user=user).values_list(
        "kind", "source", "title", "week", "day", "start_section", "end_section", "task_item_id", "task_id"))
    embedded = sorted(ScheduleSlot.objects.filter(user=user, embedded_item__isnull=False)
                      .values_list("event_id", "section", "embedded_item_id"))
    statuses = sorted(TaskItem.objects.filter(task_class__user=user).values_list("pk", "status"))
    return [*events, *embedded, *statuses]


@pytest.fixture
def placed_item(user) -> TaskItem:
    item = make_task_class(user, items=1).items.get()
    place_item(item, week=3, day=2, start=5)
    TaskItem.objects.filter(pk=item.pk).update(status=TaskItem.Status.PLACED)
    return item


def _note_on_board(user, *, week: int = 3, day: int = 3, start: int = 3):
    task = make_task(user, title="交实验报告")
    event_create(user=user, title=task.title, span=Span(week, day, start, start + 1),
                 kind=ScheduleEvent.Kind.QUICK_NOTE, task=task)
    return task


def test_moving_a_study_block_and_undoing_it_restores_the_board_exactly(user, placed_item):
    before = _board_rows(user)
    result = block_move(user=user, kind="item", block_id=placed_item.pk, week=3, day=4, start_section=9)
    assert ScheduleEvent.objects.filter(task_item=placed_item, week=3, day=4, start_section=9).exists()
    assert result.changeset.kind == ChangeSet.Kind.MOVE and result.block is not None
    assert (result.block.week, result.block.day, result.block.start_section) == (3, 4, 9)
    changeset_undo(user=user, changeset_id=result.changeset.pk)
    assert _board_rows(user) == before


def test_moving_a_block_out_of_a_filler_course_and_back(user):
    item = make_task_class(user, items=1).items.get()
    host = embed_item(item)
    before = _board_rows(user)
    result = block_move(user=user, kind="item", block_id=item.pk, week=3, day=5, start_section=1)
    assert not host.slots.filter(embedded_item__isnull=False).exists()
    changeset_undo(user=user, changeset_id=result.changeset.pk)
    assert _board_rows(user) == before


def test_moving_a_quick_note_and_undoing_it(user):
    task = _note_on_board(user)
    before = _board_rows(user)
    result = block_move(user=user, kind="note", block_id=task.pk, week=3, day=3, start_section=7)
    assert ScheduleEvent.objects.get(task=task).start_section == 7
    changeset_undo(user=user, changeset_id=result.changeset.pk)
    assert _board_rows(user) == before


def test_removing_a_study_block_makes_it_wait_and_undo_puts_it_back(user, placed_item):
    before = _board_rows(user)
    result = block_remove(user=user, kind="item", block_id=placed_item.pk)
    placed_item.refresh_from_db()
    assert placed_item.status == TaskItem.Status.PENDING and not placed_item.events.exists()
    assert result.block is None and result.changeset.kind == ChangeSet.Kind.REMOVE
    changeset_undo(user=user, changeset_id=result.changeset.pk)
    assert _board_rows(user) == before


def test_removing_an_embedded_block_and_undoing_it(user):
    item = make_task_class(user, items=1).items.get()
    embed_item(item)
    before = _board_rows(user)
    result = block_remove(user=user, kind="item", block_id=item.pk)
    assert not ScheduleSlot.objects.filter(embedded_item=item).exists()
    changeset_undo(user=user, changeset_id=result.changeset.pk)
    assert _board_rows(user) == before


def test_removing_a_quick_note_unschedules_it_and_undo_schedules_it_again(user):
    task = _note_on_board(user)
    before = _board_rows(user)
    result = block_remove(user=user, kind="note", block_id=task.pk)
    assert not task.events.exists()
    changeset_undo(user=user, changeset_id=result.changeset.pk)
    assert _board_rows(user) == before


@pytest.mark.parametrize("status", [TaskItem.Status.DONE, TaskItem.Status.MISSED])
def test_marking_a_block_and_undoing_the_mark(user, placed_item, status):
    result = block_mark(user=user, kind="item", block_id=placed_item.pk, status=status)
    placed_item.refresh_from_db()
    assert placed_item.status == status and placed_item.events.exists()
    changeset_undo(user=user, changeset_id=result.changeset.pk)
    placed_item.refresh_from_db()
    assert placed_item.status == TaskItem.Status.PLACED


def test_marking_a_quick_note_done_completes_it_and_undo_reopens_it(user):
    task = _note_on_board(user)
    result = block_mark(user=user, kind="note", block_id=task.pk, status=TaskItem.Status.DONE)
    task.refresh_from_db()
    assert task.completed and task.events.exists() and result.block.status == "done"
    changeset_undo(user=user, changeset_id=result.changeset.pk)
    task.refresh_from_db()
    assert (task.completed, task.completed_at) == (False, None)


def test_a_quick_note_cannot_be_missed(user):
    task = _note_on_board(user)
    with pytest.raises(AppError) as caught:
        block_mark(user=user, kind="note", block_id=task.pk, status=TaskItem.Status.MISSED)
    assert caught.value.code == "not_a_study_block"


def test_a_move_onto_a_course_is_a_conflict_naming_it_with_places_that_work(user, placed_item):
    import_csv(user, "高等数学,4,1,2,李老师,一教101,3")
    with pytest.raises(ConflictError) as caught:
        block_move(user=user, kind="item", block_id=placed_item.pk, week=3, day=4, start_section=1)
    assert caught.value.code == "slot_taken"
    assert caught.value.message == "2026-09-24 (Thursday), sections 1-2: taken by “高等数学”."
    assert caught.value.detail["suggestions"][0]["text"] == "2026-09-24 (Thursday), sections 3-4"


def test_a_move_onto_an_excluded_pair_is_refused(user):
    item = make_task_class(user, items=1, excluded_pairs=[5]).items.get()
    place_item(item, week=3, day=2, start=5)
    with pytest.raises(BlockRuleError) as caught:
        block_move(user=user, kind="item", block_id=item.pk, week=3, day=2, start_section=9)
    assert (caught.value.code, caught.value.message) == ("excluded_block", "This plan excludes sections 9-10.")


def test_a_move_outside_the_class_window_is_refused(user, placed_item):
    with pytest.raises(BlockRuleError) as caught:
        block_move(user=user, kind="item", block_id=placed_item.pk, week=6, day=1, start_section=1)
    assert caught.value.code == "outside_class_window"


def test_another_students_block_is_not_found(user, other_user, placed_item):
    with pytest.raises(NotFoundError):
        block_move(user=other_user, kind="item", block_id=placed_item.pk, week=3, day=4, start_section=1)


def test_a_stale_version_from_a_second_tab_is_a_conflict(user, placed_item):
    seen = block_get(user=user, kind="item", block_id=placed_item.pk).version
    block_move(user=user, kind="item", block_id=placed_item.pk, week=3, day=4, start_section=9, version=seen)
    with pytest.raises(BlockChangedError):
        block_remove(user=user, kind="item", block_id=placed_item.pk, version=seen)
    assert placed_item.events.get().day == 4


def test_undo_is_refused_once_the_block_moved_again(user, placed_item):
    first = block_move(user=user, kind="item", block_id=placed_item.pk, week=3, day=4, start_section=9)
    block_move(user=user, kind="item", block_id=placed_item.pk, week=3, day=5, start_section=9)
    with pytest.raises(ConflictError) as caught:
        changeset_undo(user=user, changeset_id=first.changeset.pk)
    assert caught.value.code == "undo_conflict"


def test_undoing_a_removal_whose_place_was_taken_names_the_occupant(user, placed_item):
    result = block_remove(user=user, kind="item", block_id=placed_item.pk)
    custom_event(user, title="临时组会", week=3, day=2, start=5, end=6)
    with pytest.raises(ConflictError) as caught:
        changeset_undo(user=user, changeset_id=result.changeset.pk)
    assert caught.value.code == "slot_taken" and "临时组会" in caught.value.message


def test_suggestions_are_places_the_core_allows_in_the_students_time(user, placed_item):
    import_csv(user, "高等数学,1,1,2,李老师,一教101,2")
    block, slots = block_suggestions(user=user, kind="item", block_id=placed_item.pk, limit=3)
    assert block.title == "概率论复习 #1"
    assert [(s.week, s.day, s.start_section) for s in slots] == [(2, 1, 3), (2, 1, 5), (2, 1, 7)]
    assert slots[0].starts_at.isoformat() == "2026-09-14T10:15:00+08:00"


@pytest.mark.django_db(transaction=True)
def test_two_tabs_moving_one_block_at_once_exactly_one_wins(user, placed_item):
    from threading import Barrier, Thread

    from django.db import connection

    from smartmate.platform.exceptions import AppError

    seen = block_get(user=user, kind="item", block_id=placed_item.pk).version
    barrier, outcomes = Barrier(2), []

    def move(day: int) -> None:
        try:
            barrier.wait()
            block_move(user=user, kind="item", block_id=placed_item.pk, week=3, day=day, start_section=9, version=seen)
            outcomes.append("moved")
        except AppError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [Thread(target=move, args=(day,)) for day in (4, 5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["block_changed", "moved"]
    assert ChangeSet.objects.filter(kind=ChangeSet.Kind.MOVE).count() == 1
