"""Smart planning: feasibility, previews the student adjusts, apply, undo."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.utils import timezone

from board.planning import PlanningError, preview_create, task_class_feasibility
from board.previews import (
    BlockRuleError,
    PreviewClosedError,
    changeset_undo,
    preview_apply,
    preview_block_move,
    preview_block_remove,
)
from schedule.exceptions import SlotConflictError
from schedule.models import ChangeSet, Course, PlanPreview, ScheduleEvent, ScheduleSlot
from schedule.tests.factories import custom_event, import_csv, make_task_class
from smartmate.platform.exceptions import ConflictError, NotFoundError
from taskclasses.models import TaskItem

pytestmark = pytest.mark.usefixtures("before_week_three")


def _blocks(preview):
    return [(p["week"], p["day"], p["start_section"]) for p in preview.placements]


def test_feasibility_counts_usable_pairs_in_the_window(user):
    # Weeks 3-4 (14 days x 6 pairs) minus 2 busy pairs, minus pair 6 excluded on every day.
    custom_event(user, week=3, day=1, start=1, end=4)
    task_class = make_task_class(user, items=16, excluded_pairs=[6])
    figures = task_class_feasibility(user=user, task_class_id=task_class.pk)
    assert (figures.demand, figures.candidate_slots, figures.slack) == (16, 14 * 5 - 2, 14 * 5 - 2 - 16)


def test_a_preview_places_every_block_in_order_and_writes_nothing(user):
    task_class = make_task_class(user, items=6)
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    assert len(preview.placements) == 6 and preview.unplaced == []
    items = list(task_class.items.order_by("order").values_list("pk", flat=True))
    assert [p["item_id"] for p in preview.placements] == items
    assert not ScheduleEvent.objects.filter(kind="task_item").exists()


def test_excluded_days_and_pairs_are_never_used(user):
    task_class = make_task_class(user, items=10, excluded_pairs=[1, 6], excluded_days=[6, 7])
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    assert all(day <= 5 and start not in (1, 11) for _w, day, start in _blocks(preview))


def test_blocks_embed_only_in_filler_courses_when_allowed(user):
    import_csv(user, "形势与政策,1,1,2,赵立新,二教1101,3")
    Course.objects.update(is_filler=True)
    window = {"start": date(2026, 9, 21), "end": date(2026, 9, 21)}  # Monday of week 3 only
    allowed = make_task_class(user, name="A", items=6, strategy="rapid", **window)
    preview = preview_create(user=user, task_class_ids=[allowed.pk])
    assert preview.placements[0]["host_event_id"] is not None
    refused = make_task_class(user, name="B", items=6, strategy="rapid", allow_filler=False, **window)
    preview = preview_create(user=user, task_class_ids=[refused.pk])
    assert all(p["host_event_id"] is None for p in preview.placements) and len(preview.placements) == 5


def test_two_classes_share_a_tight_week_and_every_placeable_block_is_placed(user):
    week = {"start": date(2026, 9, 21), "end": date(2026, 9, 27)}
    for day in range(1, 8):
        custom_event(user, title=f"busy {day}", week=3, day=day, start=1, end=8)  # pairs 5 and 6 stay free
    first = make_task_class(user, name="A", items=9, **week)
    second = make_task_class(user, name="B", items=9, strategy="rapid", **week)
    preview = preview_create(user=user, task_class_ids=[first.pk, second.pk])
    assert len(preview.placements) == 14
    assert {p["class_id"] for p in preview.placements} == {first.pk, second.pk}
    assert len(preview.unplaced) == 4 and {u["reason"] for u in preview.unplaced} == {"shared_slots_exhausted"}


def test_nothing_to_plan_is_a_clear_error(user):
    task_class = make_task_class(user, items=2)
    task_class.items.update(status=TaskItem.Status.DONE)
    with pytest.raises(PlanningError) as error:
        preview_create(user=user, task_class_ids=[task_class.pk])
    assert error.value.code == "nothing_to_plan"


def test_another_students_class_cannot_be_planned(user, other_user):
    theirs = make_task_class(other_user)
    with pytest.raises(NotFoundError):
        preview_create(user=user, task_class_ids=[theirs.pk])


def test_moving_a_block_keeps_item_order(user):
    task_class = make_task_class(user, items=3, strategy="rapid")
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    first_item = preview.placements[0]["item_id"]
    moved = preview_block_move(user=user, preview_id=preview.pk, item_id=first_item, week=4, day=7, start_section=9)
    assert moved.placements[-1] | {} and (moved.placements[-1]["week"], moved.placements[-1]["day"]) == (4, 7)
    items = list(task_class.items.order_by("order").values_list("pk", flat=True))
    assert [p["item_id"] for p in moved.placements] == items


@pytest.mark.parametrize(("target", "code"), [
    ({"week": 5, "day": 1, "start_section": 1}, "outside_window"),
    ({"week": 3, "day": 1, "start_section": 2}, "not_a_pair"),
    ({"week": 3, "day": 2, "start_section": 11}, "excluded_block"),
    ({"week": 3, "day": 7, "start_section": 3}, "excluded_day"),
])
def test_moves_that_break_the_rules_are_refused(user, target, code):
    task_class = make_task_class(user, items=2, excluded_pairs=[6], excluded_days=[7])
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    with pytest.raises(BlockRuleError) as error:
        preview_block_move(user=user, preview_id=preview.pk, item_id=preview.placements[0]["item_id"], **target)
    assert error.value.code == code
    assert PlanPreview.objects.get(pk=preview.pk).placements == preview.placements


def test_dragging_onto_a_non_filler_course_names_it(user):
    import_csv(user, "线性代数,2,1,2,陈志强,二教2412,3")
    task_class = make_task_class(user, items=1)
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    with pytest.raises(SlotConflictError) as error:
        preview_block_move(user=user, preview_id=preview.pk, item_id=preview.placements[0]["item_id"],
                           week=3, day=2, start_section=1)
    assert "线性代数" in error.value.message


def test_dragging_onto_a_filler_course_embeds_when_allowed(user):
    import_csv(user, "形势与政策,2,1,2,赵立新,二教1101,3")
    Course.objects.update(is_filler=True)
    task_class = make_task_class(user, items=1)
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    moved = preview_block_move(user=user, preview_id=preview.pk, item_id=preview.placements[0]["item_id"],
                               week=3, day=2, start_section=1)
    assert moved.placements[0]["host_event_id"] == ScheduleEvent.objects.get(kind="course").pk


def test_removing_a_block_leaves_its_item_unplaced(user):
    task_class = make_task_class(user, items=2)
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    item_id = preview.placements[1]["item_id"]
    changed = preview_block_remove(user=user, preview_id=preview.pk, item_id=item_id)
    assert [p["item_id"] for p in changed.placements] != [] and item_id in [u["item_id"] for u in changed.unplaced]


def test_apply_writes_events_and_embeds_then_undo_reverts_exactly(user):
    import_csv(user, "形势与政策,1,1,2,赵立新,二教1101,3")
    Course.objects.update(is_filler=True)
    task_class = make_task_class(user, items=7, strategy="rapid", start=date(2026, 9, 21), end=date(2026, 9, 21))
    slots_before = set(ScheduleSlot.objects.values_list("pk", "event_id", "embedded_item_id"))
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    changeset = preview_apply(user=user, preview_id=preview.pk)
    assert ScheduleEvent.objects.filter(kind="task_item").count() == 5
    assert ScheduleSlot.objects.filter(embedded_item__isnull=False).count() == 2
    assert TaskItem.objects.filter(status="placed").count() == 6
    assert PlanPreview.objects.get(pk=preview.pk).status == "applied"
    changeset_undo(user=user, changeset_id=changeset.pk)
    assert set(ScheduleSlot.objects.values_list("pk", "event_id", "embedded_item_id")) == slots_before
    assert not ScheduleEvent.objects.filter(kind="task_item").exists()
    assert TaskItem.objects.filter(status="pending").count() == 7


def test_apply_refuses_a_slot_taken_meanwhile_and_writes_nothing(user):
    task_class = make_task_class(user, items=3, strategy="rapid")
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    first = preview.placements[0]
    custom_event(user, title="临时组会", week=first["week"], day=first["day"], start=first["start_section"],
                 end=first["end_section"])
    with pytest.raises(SlotConflictError) as error:
        preview_apply(user=user, preview_id=preview.pk)
    assert "临时组会" in error.value.message
    assert not ScheduleEvent.objects.filter(kind="task_item").exists()
    assert not TaskItem.objects.filter(status="placed").exists()
    assert PlanPreview.objects.get(pk=preview.pk).status == "open"


def test_an_expired_preview_cannot_be_applied(user):
    task_class = make_task_class(user, items=1)
    preview = preview_create(user=user, task_class_ids=[task_class.pk], now=timezone.now() - timedelta(hours=3))
    with pytest.raises(PreviewClosedError) as error:
        preview_apply(user=user, preview_id=preview.pk)
    assert error.value.code == "preview_expired"


def test_a_preview_applies_once(user):
    task_class = make_task_class(user, items=1)
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    preview_apply(user=user, preview_id=preview.pk)
    with pytest.raises(PreviewClosedError):
        preview_apply(user=user, preview_id=preview.pk)
    assert ChangeSet.objects.count() == 1


def test_overlapping_previews_cannot_both_apply(user):
    task_class = make_task_class(user, items=2, strategy="rapid")
    first = preview_create(user=user, task_class_ids=[task_class.pk])
    second = preview_create(user=user, task_class_ids=[task_class.pk])
    preview_apply(user=user, preview_id=first.pk)
    with pytest.raises(ConflictError):
        preview_apply(user=user, preview_id=second.pk)
    assert ScheduleEvent.objects.filter(kind="task_item").count() == 2


def test_undo_is_refused_when_a_block_was_moved_since(user):
    from schedule.services.events import Span, event_update

    task_class = make_task_class(user, items=1)
    changeset = preview_apply(user=user, preview_id=preview_create(user=user, task_class_ids=[task_class.pk]).pk)
    event = ScheduleEvent.objects.get(kind="task_item")
    event_update(user=user, event_id=event.pk, span=Span(4, 7, 9, 10))
    with pytest.raises(ConflictError) as error:
        changeset_undo(user=user, changeset_id=changeset.pk)
    assert error.value.code == "undo_conflict"
    assert ScheduleEvent.objects.filter(kind="task_item").exists()


def test_undo_twice_is_refused(user):
    task_class = make_task_class(user, items=1)
    changeset = preview_apply(user=user, preview_id=preview_create(user=user, task_class_ids=[task_class.pk]).pk)
    changeset_undo(user=user, changeset_id=changeset.pk)
    with pytest.raises(ConflictError) as error:
        changeset_undo(user=user, changeset_id=changeset.pk)
    assert error.value.code == "already_undone"


def test_a_block_deleted_from_the_board_is_planned_again(user):
    from schedule.services.events import event_delete

    task_class = make_task_class(user, items=2)
    preview_apply(user=user, preview_id=preview_create(user=user, task_class_ids=[task_class.pk]).pk)
    event_delete(user=user, event_id=ScheduleEvent.objects.filter(kind="task_item").first().pk)
    again = preview_create(user=user, task_class_ids=[task_class.pk])
    assert len(again.placements) == 1
    assert TaskItem.objects.get(pk=again.placements[0]["item_id"]).status == "pending"


def test_nothing_is_suggested_in_the_past(user, monkeypatch):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    # Wednesday of week 3 at 15:00: Monday, Tuesday and Wednesday's first three pairs are gone.
    monkeypatch.setattr("django.utils.timezone.now",
                        lambda: datetime(2026, 9, 23, 15, 0, tzinfo=ZoneInfo("Asia/Shanghai")))
    task_class = make_task_class(user, items=30, strategy="rapid")
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    assert min(_blocks(preview)) == (3, 3, 7)


def test_a_window_that_has_ended_cannot_be_planned(user, monkeypatch):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    monkeypatch.setattr("django.utils.timezone.now",
                        lambda: datetime(2026, 10, 20, 9, 0, tzinfo=ZoneInfo("Asia/Shanghai")))
    task_class = make_task_class(user, items=2)
    with pytest.raises(PlanningError) as error:
        preview_create(user=user, task_class_ids=[task_class.pk])
    assert error.value.code == "window_passed"
