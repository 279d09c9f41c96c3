"""queue_apply_head_move: the current entry is placed or moved; failures count attempts."""

from __future__ import annotations

import json

from agent.tests.tools.conftest import WEEK3_MON, WEEK3_THU, item_entry, make_ctx
from agent.tools.query_target_tasks import TOOL as QUERY
from agent.tools.queue_apply_head_move import TOOL
from agent.tools.queue_pop_head import TOOL as POP


def _current(ctx, working):
    return POP.run({}, ctx, QUERY.run({"status": "pending", "enqueue": True}, ctx, working).working).working


def test_the_current_entry_is_placed_and_completed(ctx, working):
    result = TOOL.run({"date": WEEK3_THU, "start_section": 3}, ctx, _current(ctx, working))
    state = json.loads(result.content)
    assert state["success"] and item_entry(result.working, 1).status == "suggested"
    assert result.working.queue.completed == (item_entry(working, 1).id,)


def test_a_conflict_counts_an_attempt_and_keeps_the_board(ctx, working):
    current = _current(ctx, working)
    result = TOOL.run({"date": WEEK3_MON, "start_section": 1}, ctx, current)
    assert result.status == "failed" and result.working.queue.attempts == 1
    assert "高等数学" in result.working.queue.last_error
    assert item_entry(result.working, 1).status == "pending"


def test_without_a_current_entry_nothing_moves(ctx, working):
    assert TOOL.run({"date": WEEK3_THU, "start_section": 3}, ctx, working).status == "failed"


def test_another_users_queue_is_not_used(ctx, working, other_user):
    result = TOOL.run({"date": WEEK3_THU, "start_section": 3}, make_ctx(other_user), _current(ctx, working))
    assert result.status == "failed" and result.working.user_id == other_user.pk
