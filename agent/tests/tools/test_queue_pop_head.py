"""queue_pop_head: the next entry becomes the current one."""

from __future__ import annotations

import json

from agent.tools.query_target_tasks import TOOL as QUERY
from agent.tools.queue_pop_head import TOOL


def test_the_head_becomes_current_and_stays_until_done(ctx, working):
    queued = QUERY.run({"status": "pending", "enqueue": True}, ctx, working).working
    first = TOOL.run({}, ctx, queued)
    again = TOOL.run({}, ctx, first.working)
    state = json.loads(again.content)
    assert state["has_head"] and state["current"]["order"] == 1 and state["pending_count"] == 3


def test_an_empty_queue_has_no_head(ctx, working):
    assert json.loads(TOOL.run({}, ctx, working).content)["has_head"] is False
