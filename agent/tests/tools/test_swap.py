"""swap: two placed blocks of equal length trade places; order and locks are guarded."""

from __future__ import annotations

from datetime import date

from agent.tests.tools.conftest import WEEK3_MON, WEEK3_THU, entry_named, item_entry, load_working, make_ctx
from agent.tools.place import TOOL as PLACE
from agent.tools.swap import TOOL
from schedule.tests.factories import make_task_class


def _two_classes(ctx, plan):
    other = make_task_class(plan.user, name="英语", items=1, start=date(2026, 9, 21), end=date(2026, 10, 4))
    working = load_working(plan.user, [plan.pk, other.pk])
    working = PLACE.run({"task_id": item_entry(working, 1).id, "date": WEEK3_MON, "start_section": 3}, ctx,
                        working).working
    english = entry_named(working, "英语 #1")
    return PLACE.run({"task_id": english.id, "date": WEEK3_THU, "start_section": 5}, ctx, working).working


def test_two_blocks_of_different_classes_trade_places(ctx, plan):
    working = _two_classes(ctx, plan)
    a, b = item_entry(working, 1), entry_named(working, "英语 #1")
    result = TOOL.run({"task_a": a.id, "task_b": b.id}, ctx, working)
    assert result.status == "done"
    assert item_entry(result.working, 1).place == b.place and entry_named(result.working, "英语 #1").place == a.place


def test_swapping_blocks_of_one_class_breaks_order_unless_allowed(ctx, user, working):
    for order, start in ((1, 3), (2, 5)):
        working = PLACE.run({"task_id": item_entry(working, order).id, "date": WEEK3_MON,
                             "start_section": start}, ctx, working).working
    args = {"task_a": item_entry(working, 1).id, "task_b": item_entry(working, 2).id}
    assert TOOL.run(args, ctx, working).data["code"] == "order_broken"
    assert TOOL.run(args, make_ctx(user, allow_reorder=True), working).status == "done"


def test_a_course_cannot_be_swapped(ctx, plan):
    working = _two_classes(ctx, plan)
    result = TOOL.run({"task_a": item_entry(working, 1).id, "task_b": entry_named(working, "高等数学").id},
                      ctx, working)
    assert result.status == "failed" and result.summary == "“高等数学” is fixed: it cannot be moved or removed."


def test_the_same_entry_twice_and_pending_entries_are_refused(ctx, working):
    one = item_entry(working, 1).id
    assert TOOL.run({"task_a": one, "task_b": one}, ctx, working).summary == "Choose two different items to swap."
    pending = TOOL.run({"task_a": one, "task_b": item_entry(working, 2).id}, ctx, working)
    assert pending.summary == "“概率论复习 #1” has no place yet; place it first."


def test_blocks_of_different_lengths_are_refused(ctx, plan):
    from taskclasses.models import Task

    Task.objects.create(user=plan.user, title="长任务", quadrant=2, estimated_sections=4)
    working = _two_classes(ctx, plan)
    note = entry_named(working, "长任务")
    working = PLACE.run({"task_id": note.id, "date": "2026-09-25", "start_section": 1}, ctx, working).working
    result = TOOL.run({"task_a": note.id, "task_b": item_entry(working, 1).id}, ctx, working)
    assert result.summary == "Only blocks of the same length can swap: “长任务” is 4 sections, “概率论复习 #1” is 2."


def test_another_users_ids_are_unknown(ctx, plan, other_user):
    working = _two_classes(ctx, plan)
    result = TOOL.run({"task_a": 1, "task_b": 2}, make_ctx(other_user), working)
    assert result.status == "failed" and result.working.user_id == other_user.pk
