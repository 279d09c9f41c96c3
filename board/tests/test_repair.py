"""Minimum-churn repair: an event over a planned block, a course change, then a preview moving only that block."""

from __future__ import annotations

import pytest

from board.previews import changeset_undo, preview_apply
from board.repair import NothingToRepairError, event_create_displacing, repair_preview
from board.timetable_edits import meeting_remove
from schedule.models import ChangeSet, PlanPreview, ScheduleEvent
from schedule.services.events import Span
from schedule.tests.factories import import_csv
from smartmate.platform.exceptions import ConflictError, NotFoundError
from taskclasses.models import TaskItem
from taskclasses.tests.factories import embed_item, make_task_class, place_item

pytestmark = pytest.mark.usefixtures("before_week_three")


def _board(user) -> list[tuple]:
    return sorted(ScheduleEvent.objects.filter(user=user).values_list(
        "kind", "title", "week", "day", "start_section", "end_section", "task_item_id"))


@pytest.fixture
def planned(user):
    """Three reviews placed in week 3: Tue 5-6, Wed 5-6, Thu 5-6."""
    task_class = make_task_class(user, items=3)
    items = list(task_class.items.order_by("order"))
    for item, day in zip(items, (2, 3, 4)):
        place_item(item, week=3, day=day, start=5)
    TaskItem.objects.filter(task_class=task_class).update(status=TaskItem.Status.PLACED)
    return items


def test_an_event_over_a_block_lifts_it_and_the_repair_places_only_that_block(user, planned):
    first, second, third = planned
    changeset = event_create_displacing(user=user, title="社团活动", span=Span(3, 3, 5, 6))
    assert changeset.kind == ChangeSet.Kind.COURSE and [r["item_id"] for r in changeset.removed] == [second.pk]
    assert TaskItem.objects.get(pk=second.pk).status == TaskItem.Status.PENDING
    preview = repair_preview(user=user)
    assert [p["item_id"] for p in preview.placements] == [second.pk] and preview.moves == []
    placed = preview.placements[0]
    # Between #1 (Tue 5-6) and #3 (Thu 5-6), as near as possible to Wednesday 5-6.
    assert (3, 2, 5) < (placed["week"], placed["day"], placed["start_section"]) < (3, 4, 5)
    assert placed["reason"] == {"v": 1, "kind": "repair", "item": 2, "displaced": True}
    others = _board(user)
    preview_apply(user=user, preview_id=preview.pk)
    assert ScheduleEvent.objects.filter(task_item=second, week=placed["week"], day=placed["day"],
                                        start_section=placed["start_section"]).exists()
    # Nothing else moved.
    assert [row for row in _board(user) if row[-1] != second.pk] == [row for row in others if row[-1] != second.pk]


def test_undoing_the_event_puts_the_block_back(user, planned):
    before = _board(user)
    changeset = event_create_displacing(user=user, title="社团活动", span=Span(3, 3, 5, 6))
    changeset_undo(user=user, changeset_id=changeset.pk)
    assert _board(user) == before


def test_an_event_over_a_course_is_refused_and_nothing_is_written(user, planned):
    import_csv(user, "高等数学,3,1,2,王老师,二教1101,3")
    before = _board(user)
    with pytest.raises(ConflictError):
        event_create_displacing(user=user, title="社团活动", span=Span(3, 3, 1, 6))
    assert _board(user) == before and TaskItem.objects.filter(status=TaskItem.Status.PENDING).count() == 0


def test_a_removed_filler_meeting_is_repaired(user):
    item = make_task_class(user, items=1).items.get()
    host = embed_item(item)
    TaskItem.objects.filter(pk=item.pk).update(status=TaskItem.Status.PLACED)
    result = meeting_remove(user=user, event_id=host.pk)
    preview = repair_preview(user=user, changeset_id=result.changeset_id)
    assert [p["item_id"] for p in preview.placements] == [item.pk]


def test_nothing_displaced_is_a_clear_answer(user, planned):
    with pytest.raises(NothingToRepairError):
        repair_preview(user=user)
    assert not PlanPreview.objects.exists()


def test_another_students_change_is_not_found(user, other_user, planned):
    theirs = ChangeSet.objects.create(user=other_user, kind=ChangeSet.Kind.COURSE, removed=[{"item_id": 1}])
    with pytest.raises(NotFoundError):
        repair_preview(user=user, changeset_id=theirs.pk)
