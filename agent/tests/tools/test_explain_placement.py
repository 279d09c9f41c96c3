"""explain_placement: why a block of the working schedule is where it is, for the student's own blocks only."""

from __future__ import annotations

from agent.tests.tools.conftest import NOW, entry_named, item_entry, load_working, make_ctx
from agent.tools.explain_placement import TOOL
from agent.tools.support.working_schedule import working_rough_build
from board.planning import preview_create
from board.previews import preview_apply
from schedule.core.planning.reasons import manual_reason
from taskclasses.models import TaskItem


def test_an_applied_block_reads_the_planners_reason(ctx, plan):
    preview = preview_create(user=plan.user, task_class_ids=[plan.pk])
    preview_apply(user=plan.user, preview_id=preview.pk)
    working = load_working(plan.user, [plan.pk])
    second = plan.items.get(order=2)
    entry = next(e for e in working.board.entries if e.item_id == second.pk)
    result = TOOL.run({"task_id": entry.id}, ctx, working)
    assert result.status == "done"
    assert "Block 2: after block 1" in result.content and "spread evenly" in result.content


def test_a_block_moved_by_hand_says_so(ctx, plan):
    preview = preview_create(user=plan.user, task_class_ids=[plan.pk])
    preview_apply(user=plan.user, preview_id=preview.pk)
    TaskItem.objects.filter(task_class=plan).update(placement_reason=manual_reason())
    working = load_working(plan.user, [plan.pk])
    entry = next(e for e in working.board.entries if e.item_id == plan.items.get(order=1).pk)
    assert "You put it here yourself." in TOOL.run({"task_id": entry.id}, ctx, working).content


def test_a_course_is_fixed_and_a_waiting_block_has_no_place(ctx, working):
    assert "固定" in TOOL.run({"task_id": entry_named(working, "高等数学").id}, ctx, working).content
    assert "还没有位置" in TOOL.run({"task_id": item_entry(working, 1).id}, ctx, working).content


def test_unknown_and_foreign_ids_are_not_found(ctx, working, other_user):
    assert TOOL.run({"task_id": 999}, ctx, working).status == "failed"
    assert TOOL.run({"task_id": item_entry(working, 1).id}, make_ctx(other_user), working).status == "failed"


def test_a_block_the_conversation_suggested_reads_the_planners_reason_before_any_preview(ctx, plan):
    built, _summary = working_rough_build(user=plan.user, now=NOW, task_class_ids=[plan.pk], working=None)
    result = TOOL.run({"task_id": item_entry(built, 2).id}, ctx, built)
    assert "Block 2: after block 1" in result.content and "spread evenly" in result.content
