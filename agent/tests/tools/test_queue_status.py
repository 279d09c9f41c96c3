"""queue_status: counts, the current entry and the next ids."""

from __future__ import annotations

import json

from agent.tests.tools.conftest import make_ctx
from agent.tools.query_target_tasks import TOOL as QUERY
from agent.tools.queue_status import TOOL


def test_an_empty_queue_says_so(ctx, working):
    state = json.loads(TOOL.run({}, ctx, working).content)
    assert (state["pending_count"], state["current"], state["next_task_ids"]) == (0, None, [])


def test_queued_ids_are_listed_in_order(ctx, working):
    queued = QUERY.run({"status": "pending", "enqueue": True}, ctx, working).working
    state = json.loads(TOOL.run({}, ctx, queued).content)
    assert state["pending_count"] == 4 and state["next_task_ids"] == list(queued.queue.pending)


def test_another_users_queue_is_not_shown(ctx, working, other_user):
    queued = QUERY.run({"status": "pending", "enqueue": True}, ctx, working).working
    assert json.loads(TOOL.run({}, make_ctx(other_user), queued).content)["pending_count"] == 0
