"""The board from the database (``board_load``), a preview laid over it, and the one preview writer."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.utils import timezone

from board.boards import board_load
from board.planning import PreviewOrigin, preview_create, preview_publish
from board.preview_boards import preview_board
from board.previews import preview_apply
from schedule.core.board import Spot
from schedule.core.board_edits import move, place
from schedule.models import Course, PlanPreview, ScheduleEvent
from schedule.services.events import Span, event_create
from schedule.tests.factories import custom_event, import_csv, make_task_class
from smartmate.platform.exceptions import ConflictError
from taskclasses.models import Task

pytestmark = pytest.mark.usefixtures("before_week_three")
MON = date(2026, 9, 21)
APPS = ("accounts", "agent", "board", "memory", "schedule", "smartmate", "taskclasses")


@pytest.fixture
def week(user):
    """Week 3: 高等数学 Mon 1-2, 形势与政策 (filler) Tue 1-2 holding block #1 of a plan, 社团活动 Tue 5-6."""
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,3", "形势与政策,2,1,2,赵立新,二教1102,3")
    Course.objects.filter(name="形势与政策").update(is_filler=True)
    custom_event(user, title="社团活动", week=3, day=2, start=5, end=6)
    task_class = make_task_class(user, items=3, start=MON, end=date(2026, 9, 27))
    host = ScheduleEvent.objects.get(title="形势与政策")
    host.slots.update(embedded_item=task_class.items.get(order=1))
    item = task_class.items.get(order=2)
    event_create(user=user, title=item.content, span=Span(3, 3, 7, 8), kind=ScheduleEvent.Kind.TASK_ITEM, task_item=item)
    Task.objects.create(user=user, title="交实验报告", quadrant=1, estimated_sections=1)
    return task_class


def _load(user, task_class, **options):
    return board_load(user=user, now=timezone.now(), class_ids=[task_class.pk], **options)


def test_every_row_of_the_window_becomes_an_entry(user, week):
    board = _load(user, week)
    kinds = sorted((e.kind.value, e.name, e.status) for e in board.entries)
    assert kinds == [("course", "形势与政策", "existing"), ("course", "高等数学", "existing"),
                     ("custom", "社团活动", "existing"), ("quick_note", "交实验报告", "pending"),
                     ("task_item", "概率论复习 #1", "existing"), ("task_item", "概率论复习 #2", "existing"),
                     ("task_item", "概率论复习 #3", "pending")]


def test_a_block_in_a_filler_course_is_its_guest(user, week):
    board = _load(user, week)
    host, guest = board.find(event_id=ScheduleEvent.objects.get(title="形势与政策").pk), board.find(
        item_id=week.items.get(order=1).pk)
    assert host.filler and board.guests_of(host.id) == (guest,) and guest.place.length == 2


def test_the_window_runs_from_today_through_the_plan_and_its_rules_come_along(user, week):
    board = _load(user, week)
    assert (board.window.first, board.window.last) == (date(2026, 9, 14), date(2026, 9, 27))
    assert board.planned_class_ids == (week.pk,) and board.class_rules(week.pk).window.first == MON


def test_the_clock_locks_what_has_begun(user, week):
    later = timezone.now() + timedelta(days=7, hours=2)  # Monday of week 3, 09:00
    board = board_load(user=user, now=later, class_ids=[week.pk])
    course = board.find(event_id=ScheduleEvent.objects.get(title="高等数学").pk)
    assert board.clock.started == 2 and board.is_locked(course)


def test_another_students_classes_are_left_out(user, other_user, week):
    board = board_load(user=other_user, now=timezone.now(), class_ids=[week.pk])
    assert board.planned_class_ids == () and board.entries == ()


def test_a_reload_keeps_every_id(user, week):
    first = _load(user, week)
    make_task_class(user, name="英语", items=1, start=MON, end=date(2026, 9, 27))
    again = _load(user, week, previous=first)
    assert {(e.id, e.name) for e in first.entries} <= {(e.id, e.name) for e in again.entries}


def test_loading_costs_a_fixed_number_of_queries(user, week, django_assert_num_queries):
    _load(user, week)
    with django_assert_num_queries(7):  # six for the rows, one for the student's rules and pins
        _load(user, week)


def test_the_board_edits_through_the_core(user, week):
    board = _load(user, week)
    third = board.find(item_id=week.items.get(order=3).pk)
    assert place(board, third.id, Spot(date(2026, 9, 24), 3)).get(third.id).suggested


# --- A preview as a board --------------------------------------------------------------------------

def test_a_preview_lays_its_blocks_moves_and_notes_over_the_board(user, week):
    board = _load(user, week)
    moved = move(board, board.find(item_id=week.items.get(order=2).pk).id, Spot(date(2026, 9, 25), 1))
    note = moved.find(task_id=Task.objects.get().pk)
    changed = place(moved, note.id, Spot(date(2026, 9, 24), 11))
    preview = preview_publish(user=user, board=changed, origin=PreviewOrigin("assistant", 7))
    again = preview_board(user=user, preview=preview, now=timezone.now())
    assert [(e.item_id, e.task_id, e.place) for e in again.entries if e.moved or e.suggested] == [
        (e.item_id, e.task_id, e.place) for e in changed.entries if e.moved or e.suggested]


def test_a_preview_whose_block_was_placed_meanwhile_is_out_of_date(user):
    task_class = make_task_class(user, items=2)
    first = preview_create(user=user, task_class_ids=[task_class.pk])
    second = preview_create(user=user, task_class_ids=[task_class.pk])
    preview_apply(user=user, preview_id=first.pk)
    with pytest.raises(ConflictError) as caught:
        preview_board(user=user, preview=second, now=timezone.now())
    assert caught.value.code == "item_changed"


# --- The one preview writer ------------------------------------------------------------------------

def test_a_board_without_changes_makes_no_conversation_preview(user, week):
    assert preview_publish(user=user, board=_load(user, week), origin=PreviewOrigin("assistant", 7)) is None


def test_a_conversation_keeps_one_open_preview(user, week):
    board = _load(user, week)
    third = board.find(item_id=week.items.get(order=3).pk)
    changed = place(board, third.id, Spot(date(2026, 9, 24), 3))
    first = preview_publish(user=user, board=changed, origin=PreviewOrigin("assistant", 7))
    second = preview_publish(user=user, board=changed, origin=PreviewOrigin("assistant", 7))
    other = preview_publish(user=user, board=changed, origin=PreviewOrigin("assistant", 8))
    statuses = dict(PlanPreview.objects.values_list("pk", "status"))
    assert statuses == {first.pk: "discarded", second.pk: "open", other.pk: "open"}
    assert second.placements[0]["item_id"] == third.item_id and second.expires_at > timezone.now()


def test_the_page_shows_a_plan_even_when_nothing_fits_and_says_why(user):
    for day in range(1, 8):
        for week_number in (3, 4):
            custom_event(user, title=f"忙 {week_number}.{day}", week=week_number, day=day, start=1, end=12)
    task_class = make_task_class(user, items=2)
    preview = preview_create(user=user, task_class_ids=[task_class.pk])
    assert preview.placements == [] and len(preview.unplaced) == 2
    assert {u["reason"] for u in preview.unplaced} == {"no_candidate_slots"}


def test_no_code_but_the_preview_writer_creates_previews():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    creates = re.compile(r"PlanPreview\.objects\.(bulk_)?create|(?<!class )PlanPreview\(")
    writers = [str(path.relative_to(root)) for app in APPS for path in sorted((root / app).rglob("*.py"))
               if "tests" not in path.parts and creates.search(path.read_text("utf-8"))]
    assert writers == ["board/planning.py"]
