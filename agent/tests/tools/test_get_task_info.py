"""get_task_info: one entry in full."""

from __future__ import annotations

from agent.tests.tools.conftest import entry_named, item_entry, make_ctx
from agent.tools.get_task_info import TOOL


def test_a_block_shows_its_class_order_and_state(ctx, working):
    result = TOOL.run({"task_id": item_entry(working, 2).id}, ctx, working)
    assert "任务类学习块，学习块·待安排，时长 2 节" in result.content and "「概率论复习」第 2 项" in result.content


def test_a_course_says_it_cannot_move(ctx, working):
    result = TOOL.run({"task_id": entry_named(working, "高等数学").id}, ctx, working)
    assert "课程（来自课表）" in result.content and "不能移动或删除" in result.content


def test_unknown_and_foreign_ids_are_not_found(ctx, working, other_user):
    assert TOOL.run({"task_id": 999}, ctx, working).status == "failed"
    assert TOOL.run({"task_id": item_entry(working, 1).id}, make_ctx(other_user), working).status == "failed"
