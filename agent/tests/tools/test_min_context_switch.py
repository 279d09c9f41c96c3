"""min_context_switch: a choppy day regrouped in its own places; class order kept unless allowed."""

from __future__ import annotations

from agent.tests.tools.conftest import WEEK3_THU, entry_named, item_entry, make_ctx
from agent.tests.tools.test_analyze_health import alternating_thursday
from agent.tools.min_context_switch import TOOL
from agent.tools.place import TOOL as PLACE


def test_alternating_subjects_come_together_in_the_same_places(ctx, plan):
    working = alternating_thursday(ctx, plan)
    names = ("概率论复习 #1", "英语 #1", "概率论复习 #2", "英语 #2")
    ids = [entry_named(working, name).id for name in names]
    result = TOOL.run({"task_ids": ids}, ctx, working)
    assert result.status == "done" and result.data["switches"] == [3, 1]
    assert [entry_named(result.working, name).place.start for name in names] == [1, 5, 3, 7]
    assert result.summary == "Regrouped 2 blocks by subject."


def test_a_regrouping_that_breaks_class_order_needs_the_students_permission(ctx, user, plan):
    working = alternating_thursday(ctx, plan)
    working = PLACE.run({"task_id": item_entry(working, 3).id, "date": WEEK3_THU, "start_section": 9}, ctx,
                        working).working
    # 英语 #1 at 3 and 概率论 #3 at 9 change places with 概率论 #1 at 1: #3 would come before #2.
    ids = [entry_named(working, "英语 #1").id, item_entry(working, 1).id, item_entry(working, 3).id]
    refused = TOOL.run({"task_ids": ids}, ctx, working)
    assert refused.status == "failed" and refused.data["code"] == "order_broken" and refused.working is None
    allowed = TOOL.run({"task_ids": ids}, make_ctx(user, allow_reorder=True), working)
    assert allowed.status == "done"
