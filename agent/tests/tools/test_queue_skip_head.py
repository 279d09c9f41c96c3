"""queue_skip_head: the current entry is skipped, with its reason."""

from __future__ import annotations

import json

from agent.tools.query_target_tasks import TOOL as QUERY
from agent.tools.queue_pop_head import TOOL as POP
from agent.tools.queue_skip_head import TOOL


def test_the_current_entry_is_skipped(ctx, working):
    current = POP.run({}, ctx, QUERY.run({"status": "pending", "enqueue": True}, ctx, working).working).working
    result = TOOL.run({"reason": "没有合适位置"}, ctx, current)
    state = json.loads(result.content)
    assert state["skipped_task_id"] == current.queue.current and result.working.queue.current is None


def test_without_a_current_entry_nothing_is_skipped(ctx, working):
    result = TOOL.run({"reason": "x"}, ctx, working)
    assert result.status == "failed" and "queue_pop_head" in result.content
