"""query_available_slots: free time first, then filler courses, with the class's rules."""

from __future__ import annotations

from datetime import date

from agent.tests.tools.conftest import WEEK3_MON, WEEK3_TUE, item_entry, load_working, make_ctx
from agent.tools.query_available_slots import TOOL
from schedule.tests.factories import make_task_class


def test_free_slots_come_first_then_filler_courses(ctx, working):
    result = TOOL.run({"date": WEEK3_TUE}, ctx, working)
    lines = result.content.splitlines()
    assert lines[0] == "时长 2 节；空闲 4 处，可嵌入水课 1 处；列出 5 处："
    assert lines[1] == "- 2026-09-22(周二) 3-4节 10:15-11:55 空闲"
    assert lines[-1].startswith("- 2026-09-22(周二) 1-2节 08:00-09:40 可嵌入水课[")


def test_the_class_exclusions_and_filler_rule_are_applied(ctx, plan):
    strict = make_task_class(plan.user, name="英语", items=1, excluded_pairs=[2, 3], allow_filler=False,
                             start=date(2026, 9, 22), end=date(2026, 9, 22))
    working = load_working(plan.user, [strict.pk])
    result = TOOL.run({"task_class_id": strict.pk}, ctx, working)
    assert "空闲 3 处，可嵌入水课 0 处" in result.content and "3-4节" not in result.content


def test_filters_narrow_days_sections_and_length(ctx, working):
    result = TOOL.run({"day_scope": "weekend", "week_from": 3, "week_to": 3, "section_from": 9, "duration": 4,
                       "allow_embed": False}, ctx, working)
    assert [line[2:18] for line in result.content.splitlines()[1:]] == ["2026-09-26(周六) 9-12节"[:16],
                                                                       "2026-09-27(周日) 9-12节"[:16]]


def test_a_task_id_brings_its_length_and_class(ctx, working):
    result = TOOL.run({"task_id": item_entry(working, 1).id, "date": WEEK3_MON, "limit": 2}, ctx, working)
    assert "列出 2 处" in result.content and "1-2节" not in result.content


def test_unknown_classes_and_foreign_ids_are_refused(ctx, working, other_user):
    assert "没有任务类 #999" in TOOL.run({"task_class_id": 999}, ctx, working).content
    foreign = TOOL.run({"task_id": item_entry(working, 1).id}, make_ctx(other_user), working)
    assert foreign.status == "failed"
