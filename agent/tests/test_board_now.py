"""A conversation reads the board as it is now: each turn replays the conversation's own edits onto the
student's current board, and an edit that no longer fits is dropped with a sentence, never carried on.

Whole turns with the scripted model, the real tools and database; the board changes in between the
ways a student changes it: a plan applied on the planning page, a drag, an event added.
"""

from __future__ import annotations

from datetime import date

import pytest

from agent.models import Checkpoint
from agent.tests.factories import deltas, last_of, make_conversation, plan, reply, resume, route, run_turn, tool_call
from board.direct_edits import ITEM, block_move
from board.planning import preview_create
from board.previews import preview_apply
from schedule.core.board import Board, Entry, Kind
from schedule.core.board_codec import board_from_json
from schedule.models import PlanPreview, ScheduleEvent
from schedule.tests.factories import custom_event, import_csv, make_task_class
from taskclasses.models import TaskItem

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("week_two")]

DROPPED = "Your schedule changed since, so earlier changes were dropped:"


@pytest.fixture
def student(user):
    import_csv(user, "高等数学,1,1,2,王老师,二教1101,3-4")
    return user


@pytest.fixture
def review(student):
    return make_task_class(student, name="概率论复习", items=4, start=date(2026, 9, 21), end=date(2026, 10, 4))


def board_of(conversation) -> Board:
    return board_from_json(Checkpoint.objects.get(conversation=conversation).state["working"]["board"])


def block(board: Board, order: int) -> Entry:
    return next(e for e in board.entries if e.kind is Kind.STUDY and e.order == order)


def span_of(student, entry: Entry) -> dict:
    """Where a board entry sits, as week, weekday and sections."""
    assert entry.place is not None
    week, day = board_of_calendar(student).week_day(entry.place.day)
    return {"week": week, "day": day, "start": entry.place.start, "end": entry.place.end}


def board_of_calendar(student):
    from board.boards import calendar_get

    return calendar_get(user=student)


def rough_built(fake_llm, student, review):
    """A conversation whose open preview suggests the four review blocks (nothing written yet)."""
    conversation = make_conversation(student)
    fake_llm.script(route("plan"), plan(rough_build=True))
    card = last_of(run_turn(student, conversation, "安排复习", task_class_ids=[review.pk]), "confirm.request")
    fake_llm.script(reply("粗排好了。"))
    built = resume(student, conversation, card["interaction_id"], "accept")
    return conversation, PlanPreview.objects.get(pk=last_of(built, "preview.ready")["preview_id"])


def tool_answer(fake_llm) -> str:
    """What the last tool told the model (the last message of the model's last request)."""
    return fake_llm.requests[-1].messages[-1]["content"]


def ask_day(fake_llm, student, conversation, day: str) -> list[dict]:
    fake_llm.script(route("execute"), tool_call("query_range", {"date": day}), reply("这是那天的安排。"))
    return run_turn(student, conversation, f"{day} 有什么安排？")


def test_an_event_added_elsewhere_is_read_and_every_edit_still_fits(fake_llm, student, review):
    conversation, preview = rough_built(fake_llm, student, review)
    custom_event(student, title="讲座", week=3, day=7, start=11, end=12)

    frames = ask_day(fake_llm, student, conversation, "2026-09-27")

    assert "讲座" in tool_answer(fake_llm)
    assert DROPPED not in "".join(deltas(frames))
    assert all(block(board_of(conversation), n).suggested for n in range(1, 5))
    assert PlanPreview.objects.get(pk=preview.pk).status == PlanPreview.Status.OPEN


def test_an_event_over_a_suggestion_drops_it_and_apply_meets_no_conflict(fake_llm, student, review):
    conversation, _preview = rough_built(fake_llm, student, review)
    second = block(board_of(conversation), 2)
    custom_event(student, title="社团招新", **span_of(student, second))
    last = block(board_of(conversation), 4)
    fake_llm.script(route("execute"), tool_call("move", {"task_id": last.id, "date": "2026-10-04", "start_section": 11}),
                    reply("挪好了。"))

    frames = run_turn(student, conversation, "把最后一次挪到周日晚上", always_execute=True)

    said = "".join(deltas(frames))
    assert DROPPED in said and f"“{second.name}”" in said and "社团招新" in said
    preview = PlanPreview.objects.get(pk=last_of(frames, "preview.ready")["preview_id"])
    assert second.item_id not in {row["item_id"] for row in preview.placements}
    preview_apply(user=student, preview_id=preview.pk)  # no 409: the conversation's preview fits the board
    assert TaskItem.objects.filter(task_class=review, status="placed").count() == 3


def test_a_dropped_edit_is_said_once_and_never_returns_in_a_later_preview(fake_llm, student, review):
    conversation, _preview = rough_built(fake_llm, student, review)
    second = block(board_of(conversation), 2)
    custom_event(student, title="社团招新", **span_of(student, second))
    said_first = "".join(deltas(ask_day(fake_llm, student, conversation, "2026-09-21")))
    last = block(board_of(conversation), 4)
    fake_llm.script(route("execute"), tool_call("move", {"task_id": last.id, "date": "2026-10-04", "start_section": 11}),
                    reply("挪好了。"))

    frames = run_turn(student, conversation, "把最后一次挪到周日晚上", always_execute=True)

    assert DROPPED in said_first and DROPPED not in "".join(deltas(frames))
    preview = PlanPreview.objects.get(pk=last_of(frames, "preview.ready")["preview_id"])
    assert second.item_id not in {row["item_id"] for row in preview.placements}
    assert block(board_of(conversation), 2).place is None


def test_a_plan_applied_on_the_planning_page_replaces_the_conversations_suggestions(fake_llm, student, review):
    conversation, preview = rough_built(fake_llm, student, review)
    custom_event(student, title="讲座", week=3, day=1, start=3, end=4)  # the page plans around it
    preview_apply(user=student, preview_id=preview_create(user=student, task_class_ids=[review.pk]).pk)
    applied = ScheduleEvent.objects.filter(user=student, task_item__task_class=review).order_by("week", "day").first()

    frames = ask_day(fake_llm, student, conversation, board_of_calendar(student).date_of(
        applied.week, applied.day).isoformat())

    assert applied.title in tool_answer(fake_llm)
    assert "given a place on your schedule since" in "".join(deltas(frames))
    assert PlanPreview.objects.get(pk=preview.pk).status == PlanPreview.Status.DISCARDED  # nothing left to apply
    assert all(block(board_of(conversation), n).in_database for n in range(1, 5))


def test_a_block_she_dragged_herself_keeps_her_place(fake_llm, student, review):
    conversation, preview = rough_built(fake_llm, student, review)
    preview_apply(user=student, preview_id=preview.pk)
    last = block(board_of(conversation), 4)
    fake_llm.script(route("execute"), tool_call("move", {"task_id": last.id, "date": "2026-10-04", "start_section": 11}),
                    reply("挪好了。"))
    moved = run_turn(student, conversation, "最后一次挪到周日晚上", always_execute=True)
    block_move(user=student, kind=ITEM, block_id=last.item_id, week=4, day=6, start_section=9)

    frames = ask_day(fake_llm, student, conversation, "2026-10-03")

    assert "you have moved it yourself since" in "".join(deltas(frames))
    assert PlanPreview.objects.get(pk=last_of(moved, "preview.ready")["preview_id"]).status == "discarded"
    assert block(board_of(conversation), 4).place == block(board_of(conversation), 4).origin
    event = ScheduleEvent.objects.get(task_item_id=last.item_id)
    assert (event.week, event.day, event.start_section) == (4, 6, 9)
