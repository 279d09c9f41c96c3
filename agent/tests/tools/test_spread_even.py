"""spread_even: stacked blocks spread over their days through the core; refusals change nothing."""

from __future__ import annotations

from agent.tests.tools.conftest import WEEK3_THU, entry_named, item_entry, load_working, make_ctx
from agent.tools.place import TOOL as PLACE
from agent.tools.spread_even import TOOL


def _stacked(ctx, working):
    for order in range(1, 5):
        working = PLACE.run({"task_id": item_entry(working, order).id, "date": WEEK3_THU,
                             "start_section": 2 * order - 1}, ctx, working).working
    return working


def test_stacked_blocks_spread_over_separate_days_in_order(ctx, working):
    working = _stacked(ctx, working)
    ids = [item_entry(working, n).id for n in range(1, 5)]
    result = TOOL.run({"task_ids": ids}, ctx, working)
    assert result.status == "done" and result.summary == "Spread 4 blocks more evenly."
    places = [item_entry(result.working, n).place for n in range(1, 5)]
    assert len({p.day for p in places}) == 4 and places == sorted(places, key=lambda p: (p.day, p.start))
    assert result.data["most_per_day"] == [4, 1]


def test_the_card_names_the_blocks(ctx, working):
    working = _stacked(ctx, working)
    card = TOOL.confirmation({"task_ids": [item_entry(working, 1).id, item_entry(working, 2).id]}, ctx, working)
    assert card == "Spread these blocks evenly over their days: “概率论复习 #1”、“概率论复习 #2”."


def test_another_students_blocks_are_unknown_and_nothing_is_written(ctx, working, other_user):
    working = _stacked(ctx, working)
    theirs = load_working(other_user)
    result = TOOL.run({"task_ids": [item_entry(working, 1).id, item_entry(working, 2).id]}, make_ctx(other_user),
                      theirs)
    assert result.status == "failed" and result.data["code"] == "unknown_entry" and result.working is None


def test_a_course_is_fixed_and_nothing_moves(ctx, working):
    working = _stacked(ctx, working)
    result = TOOL.run({"task_ids": [item_entry(working, 1).id, entry_named(working, "高等数学").id]}, ctx, working)
    assert result.status == "failed" and result.summary == "“高等数学” is fixed: it cannot be moved or removed."
    assert result.working is None


def test_one_block_named_twice_is_too_few(ctx, working):
    working = _stacked(ctx, working)
    one = item_entry(working, 1).id
    result = TOOL.run({"task_ids": [one, one]}, ctx, working)
    assert result.data == {"code": "too_few_blocks"} and result.summary == "Choose at least two blocks to rearrange."
