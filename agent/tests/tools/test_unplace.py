"""unplace: a suggestion goes back to pending; real blocks and courses stay."""

from __future__ import annotations

from agent.tests.tools.conftest import WEEK3_THU, entry_named, item_entry, load_working, make_ctx
from agent.tools.place import TOOL as PLACE
from agent.tools.unplace import TOOL
from board.planning import preview_create
from board.previews import preview_apply


def test_a_suggestion_goes_back_to_pending(ctx, working):
    placed = PLACE.run({"task_id": item_entry(working, 1).id, "date": WEEK3_THU, "start_section": 3}, ctx,
                       working).working
    result = TOOL.run({"task_id": item_entry(placed, 1).id}, ctx, placed)
    entry = item_entry(result.working, 1)
    assert result.status == "done" and (entry.status, entry.place) == ("pending", None)


def test_pending_entries_existing_blocks_and_courses_are_refused(ctx, plan):
    preview_apply(user=plan.user, preview_id=preview_create(user=plan.user, task_class_ids=[plan.pk]).pk)
    working = load_working(plan.user, [plan.pk])
    assert TOOL.run({"task_id": item_entry(working, 1).id}, ctx, working).data["code"] == "existing_not_removable"
    assert TOOL.run({"task_id": entry_named(working, "形势与政策").id}, ctx, working).data["code"] == "locked"


def test_a_pending_entry_is_already_pending(ctx, working):
    result = TOOL.run({"task_id": item_entry(working, 1).id}, ctx, working)
    assert (result.data["code"], result.summary) == ("not_placed", "“概率论复习 #1” has no place yet; place it first.")


def test_another_users_ids_are_unknown(working, other_user):
    result = TOOL.run({"task_id": item_entry(working, 1).id}, make_ctx(other_user), working)
    assert result.status == "failed" and result.data["code"] == "unknown_entry"
