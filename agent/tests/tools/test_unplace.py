"""unplace: a suggestion goes back to pending; real blocks and courses stay."""

from __future__ import annotations

from agent.tests.tools.conftest import NOW, WEEK3_THU, entry_named, item_entry, make_ctx
from agent.tools.place import TOOL as PLACE
from agent.tools.unplace import TOOL
from agent.tools.working_schedule import working_load
from schedule.services.planning import preview_create
from schedule.services.previews import preview_apply


def test_a_suggestion_goes_back_to_pending(ctx, working):
    placed = PLACE.run({"task_id": item_entry(working, 1)["id"], "date": WEEK3_THU, "start_section": 3}, ctx,
                       working).working
    result = TOOL.run({"task_id": item_entry(placed, 1)["id"]}, ctx, placed)
    entry = item_entry(result.working, 1)
    assert result.status == "done" and (entry["status"], entry["at"]) == ("pending", None)


def test_pending_entries_existing_blocks_and_courses_are_refused(ctx, plan):
    preview_apply(user=plan.user, preview_id=preview_create(user=plan.user, task_class_ids=[plan.pk]).pk)
    working = working_load(user=plan.user, now=NOW, task_class_ids=[plan.pk])
    assert "只能移动，不能移除" in TOOL.run({"task_id": item_entry(working, 1)["id"]}, ctx, working).content
    assert "不能移动或删除" in TOOL.run({"task_id": entry_named(working, "形势与政策")["id"]}, ctx, working).content


def test_a_pending_entry_is_already_pending(ctx, working):
    assert "本来就是待安排" in TOOL.run({"task_id": item_entry(working, 1)["id"]}, ctx, working).content


def test_another_users_ids_are_unknown(working, other_user):
    result = TOOL.run({"task_id": item_entry(working, 1)["id"]}, make_ctx(other_user), working)
    assert result.status == "failed" and "没有编号为" in result.content
