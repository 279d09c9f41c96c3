"""analyze_health: feasibility, fullness and a decision whose candidates the core carries out."""

from __future__ import annotations

from datetime import date

import pytest

from agent.tests.tools.conftest import WEEK3_THU, entry_named, item_entry, load_working, make_ctx
from agent.tools.analyze_health import TOOL
from agent.tools.place import TOOL as PLACE
from agent.tools.support.errors import ToolArgumentError
from agent.tools.support.registry import arguments_check
from agent.tools.swap import TOOL as SWAP
from schedule.tests.factories import make_task_class


def alternating_thursday(ctx, plan):
    """概率论 #1, 英语 #1, 概率论 #2, 英语 #2 at sections 1, 3, 5, 7 of week 3's Thursday."""
    english = make_task_class(plan.user, name="英语", items=2, start=date(2026, 9, 21), end=date(2026, 10, 4))
    working = load_working(plan.user, [plan.pk, english.pk])
    for name, start in (("概率论复习 #1", 1), ("英语 #1", 3), ("概率论复习 #2", 5), ("英语 #2", 7)):
        working = PLACE.run({"task_id": entry_named(working, name).id, "date": WEEK3_THU, "start_section": start},
                            ctx, working).working
    return working


def test_a_plan_with_room_is_feasible_and_says_so(ctx, working):
    result = TOOL.run({}, ctx, working)
    assert result.status == "done" and result.working is None
    assert "可行：是；待安排 4 块" in result.content and "缺口 0 块" in result.content
    assert result.data["feasible"] is True and result.data["capacity_gap"] == 0
    assert result.data["window"] == {"first": "2026-09-14", "last": "2026-10-04"}


def test_more_blocks_than_free_time_is_a_gap_to_ask_the_student_about(ctx, user):
    crowded = make_task_class(user, name="冲刺", items=12, start=date(2026, 9, 21), end=date(2026, 9, 21))
    working = load_working(user, [crowded.pk])
    result = TOOL.run({}, make_ctx(user, task_class_ids=[crowded.pk]), working)
    assert result.data["feasible"] is False and result.data["capacity_gap"] == 6
    assert result.data["decision"]["recommended_operation"] == "ask_user"
    assert "延长任务类的结束日期" in result.content


def test_an_empty_window_is_a_clear_answer_and_nothing_changes(ctx, working):
    result = TOOL.run({"date_from": "2026-08-01", "date_to": "2026-08-05"}, ctx, working)
    assert result.status == "failed" and result.data == {"code": "empty_window"}
    assert result.summary == "There are no days to analyse between 2026-08-01 and 2026-08-05."
    assert result.working is None


def test_a_choppy_day_gets_a_swap_the_swap_tool_carries_out(ctx, plan):
    working = alternating_thursday(ctx, plan)
    result = TOOL.run({"date_from": "2026-09-21", "date_to": "2026-09-27"}, ctx, working)
    decision = result.data["decision"]
    assert (decision["primary_problem"], decision["recommended_operation"]) == ("context_switches", "swap")
    first = decision["candidates"][0]
    assert {first["entry_name"], first["other_name"]} == {"英语 #1", "概率论复习 #2"}
    assert result.summary == "Checked how full the schedule is: some days switch subjects often."
    swapped = SWAP.run({"task_a": first["entry"], "task_b": first["other"]}, ctx, working)
    assert swapped.status == "done"
    assert [item_entry(swapped.working, n).place.start for n in (1, 2)] == [1, 3]


def test_only_the_students_own_board_is_analysed(working, other_user):
    result = TOOL.run({}, make_ctx(other_user), working)
    assert result.working.user_id == other_user.pk and "待安排 0 块" in result.content


def test_only_the_dimensions_asked_are_reported_and_weighed(ctx, plan):
    working = alternating_thursday(ctx, plan)
    week = {"date_from": "2026-09-21", "date_to": "2026-09-27"}
    result = TOOL.run({**week, "dimensions": ["capacity", "tightness"]}, ctx, working)
    assert "可行：是" in result.content and "紧张度" in result.content
    assert "碎片化" not in result.content and "科目切换" not in result.content and "偏满的日子" not in result.content
    assert result.data["decision"]["primary_problem"] == "none" and result.data["dimensions"] == ["capacity", "tightness"]
    everything = TOOL.run(week, ctx, working)
    assert "科目切换：共 3 次" in everything.content and everything.data["decision"]["primary_problem"] == "context_switches"


def test_the_threshold_sets_what_counts_as_a_heavy_day(ctx, plan):
    working = alternating_thursday(ctx, plan)  # Thursday: 8 of 12 sections busy
    week = {"date_from": "2026-09-21", "date_to": "2026-09-27"}
    assert TOOL.run({**week, "threshold": "normal"}, ctx, working).data["heavy_days"] == ["2026-09-24"]
    relaxed = TOOL.run({**week, "threshold": "relaxed"}, ctx, working)
    assert relaxed.data["heavy_days"] == [] and relaxed.data["threshold"] == "relaxed"


def test_full_detail_lists_every_day(ctx, working):
    month = {"date_from": "2026-09-14", "date_to": "2026-10-04"}  # 21 days: more than a summary lists
    summary = TOOL.run(month, ctx, working).content
    full = TOOL.run({**month, "detail": "full"}, ctx, working).content
    assert "2026-10-04(周日) 已占" not in summary and "2026-10-04(周日) 已占" in full


def test_bad_arguments_get_clear_errors_and_nothing_changes(ctx, working):
    reversed_range = TOOL.run({"date_from": "2026-09-27", "date_to": "2026-09-21"}, ctx, working)
    assert reversed_range.status == "failed" and reversed_range.data == {"code": "reversed_range"}
    assert "date_from（2026-09-27）晚于 date_to（2026-09-21）" in reversed_range.content
    assert reversed_range.working is None
    with pytest.raises(ToolArgumentError) as unknown:
        arguments_check(TOOL, {"dimensions": ["mood"]})
    assert "must be one of capacity, tightness" in unknown.value.message
    with pytest.raises(ToolArgumentError) as empty:
        arguments_check(TOOL, {"dimensions": []})
    assert "needs at least 1 item" in empty.value.message
    with pytest.raises(ToolArgumentError):
        arguments_check(TOOL, {"threshold": "very"})
