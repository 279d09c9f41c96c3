"""move: suggested and existing blocks move; courses, custom events and filler hosts never do."""

from __future__ import annotations

from agent.tests.tools.conftest import (
    NOW,
    WEEK3_FRI,
    WEEK3_MON,
    WEEK3_THU,
    WEEK3_TUE,
    entry_named,
    item_entry,
    load_working,
    make_ctx,
)
from agent.tools.move import TOOL
from agent.tools.place import TOOL as PLACE
from agent.tools.support.working_schedule import working_publish
from board.planning import preview_create
from board.previews import preview_apply


def _move(ctx, working, entry, day, start):
    return TOOL.run({"task_id": entry.id, "date": day, "start_section": start}, ctx, working)


def test_a_suggested_block_moves(ctx, working):
    placed = PLACE.run({"task_id": item_entry(working, 1).id, "date": WEEK3_THU, "start_section": 3}, ctx,
                       working).working
    result = _move(ctx, placed, item_entry(placed, 1), WEEK3_FRI, 7)
    assert result.status == "done" and item_entry(result.working, 1).place.day.isoformat() == WEEK3_FRI
    assert "从 2026-09-24(周四) 3-4节(10:15-11:55) 移到 2026-09-25(周五) 7-8节(16:15-17:55)" in result.content


def test_an_existing_block_moves_and_becomes_a_move_in_the_preview(ctx, plan):
    preview_apply(user=plan.user, preview_id=preview_create(user=plan.user, task_class_ids=[plan.pk]).pk)
    working = load_working(plan.user, [plan.pk])
    last = item_entry(working, 4)
    result = _move(ctx, working, last, "2026-10-04", 11)
    assert result.status == "done" and item_entry(result.working, 4).moved
    preview = working_publish(user=plan.user, working=result.working, conversation_id=1, now=NOW)
    assert [m["event_id"] for m in preview.moves] == [last.event_id] and preview.placements == []


def test_courses_custom_events_and_filler_hosts_cannot_move(ctx, working):
    for name in ("高等数学", "社团活动", "形势与政策"):
        result = _move(ctx, working, entry_named(working, name), WEEK3_THU, 9)
        assert result.status == "failed" and result.summary == f"“{name}” is fixed: it cannot be moved or removed."


def test_a_pending_block_must_be_placed_first(ctx, working):
    result = _move(ctx, working, item_entry(working, 1), WEEK3_THU, 3)
    assert result.data["code"] == "not_placed" and "请用 place" in result.content


def test_a_move_onto_a_custom_event_names_it(ctx, working):
    placed = PLACE.run({"task_id": item_entry(working, 1).id, "date": WEEK3_MON, "start_section": 3}, ctx,
                       working).working
    result = _move(ctx, placed, item_entry(placed, 1), WEEK3_TUE, 5)
    assert result.status == "failed" and result.summary == "2026-09-22 (Tuesday), sections 5-6: taken by “社团活动”."
    assert result.working is None


def test_another_users_entries_are_unknown(ctx, working, other_user):
    result = _move(make_ctx(other_user), working, entry_named(working, "高等数学"), WEEK3_THU, 9)
    assert result.status == "failed" and result.data["code"] == "unknown_entry"
