"""batch_move: all moves happen, or none."""

from __future__ import annotations

from agent.tests.tools.conftest import WEEK3_FRI, WEEK3_MON, WEEK3_THU, entry_named, item_entry, make_ctx
from agent.tools.batch_move import TOOL
from agent.tools.place import TOOL as PLACE


def _placed(ctx, working):
    for order, start in ((1, 3), (2, 5), (3, 7)):
        working = PLACE.run({"task_id": item_entry(working, order).id, "date": WEEK3_MON,
                             "start_section": start}, ctx, working).working
    return working


def _moves(working, *targets):
    return {"moves": [{"task_id": item_entry(working, order).id, "date": day, "start_section": start}
                      for order, day, start in targets]}


def test_every_block_moves_together(ctx, working):
    working = _placed(ctx, working)
    result = TOOL.run(_moves(working, (1, WEEK3_THU, 1), (2, WEEK3_THU, 3), (3, WEEK3_FRI, 1)), ctx, working)
    assert result.status == "done" and "3 个条目全部成功" in result.content
    assert [item_entry(result.working, n).place.day.isoformat() for n in (1, 2, 3)] == [WEEK3_THU, WEEK3_THU,
                                                                                        WEEK3_FRI]


def test_blocks_may_take_each_others_places(ctx, working):
    working = _placed(ctx, working)
    result = TOOL.run(_moves(working, (1, WEEK3_MON, 5), (2, WEEK3_MON, 7), (3, WEEK3_MON, 9)), ctx, working)
    assert result.status == "done"


def test_one_bad_move_rolls_back_all(ctx, working):
    working = _placed(ctx, working)
    result = TOOL.run(_moves(working, (1, WEEK3_THU, 1), (2, WEEK3_MON, 1)), ctx, working)
    assert result.status == "failed" and result.working is None
    assert "全部回滚" in result.content and "高等数学" in result.content


def test_duplicates_locked_entries_and_order_are_refused(ctx, working):
    working = _placed(ctx, working)
    one = item_entry(working, 1).id
    twice = {"moves": [{"task_id": one, "date": WEEK3_THU, "start_section": 1}] * 2}
    assert TOOL.run(twice, ctx, working).summary == "“概率论复习 #1” appears twice in this change."
    course = {"moves": [{"task_id": entry_named(working, "高等数学").id, "date": WEEK3_THU, "start_section": 1}]}
    assert TOOL.run(course, ctx, working).data["code"] == "locked"
    assert TOOL.run(_moves(working, (1, WEEK3_FRI, 1)), ctx, working).data["code"] == "order_broken"


def test_another_users_ids_are_unknown(ctx, working, other_user):
    working = _placed(ctx, working)
    result = TOOL.run(_moves(working, (1, WEEK3_THU, 1)), make_ctx(other_user), working)
    assert result.status == "failed" and result.data["code"] == "unknown_entry"
