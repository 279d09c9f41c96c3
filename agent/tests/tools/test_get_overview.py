"""get_overview: the whole window, the counts and the class rules."""

from __future__ import annotations

from agent.tests.tools.conftest import make_ctx
from agent.tools.get_overview import TOOL


def test_the_overview_counts_lists_days_and_states_the_rules(ctx, working):
    result = TOOL.run({}, ctx, working)
    assert result.status == "done" and result.working is None
    assert result.content.startswith("共 21 天；") and "待安排 4" in result.content
    assert "2026-10-04(周日)：无安排" in result.content
    assert "「概率论复习」：2026-09-21 至 2026-10-04，均匀分布，允许嵌入水课" in result.content


def test_without_a_working_schedule_it_is_loaded_for_the_student(plan):
    result = TOOL.run({}, make_ctx(plan.user, task_class_ids=[plan.pk]), None)
    assert result.working.user_id == plan.user.pk and "概率论复习 #1" in result.content


def test_another_users_schedule_is_never_shown(working, other_user):
    result = TOOL.run({}, make_ctx(other_user), working)
    assert "高等数学" not in result.content and result.working.user_id == other_user.pk
