"""query_target_tasks: the entries to work on, filtered, sorted and optionally queued."""

from __future__ import annotations

import json

from agent.tests.tools.conftest import WEEK3_THU, item_entry, make_ctx
from agent.tools.place import TOOL as PLACE
from agent.tools.query_target_tasks import TOOL


def test_entries_are_filtered_by_status_and_sorted_by_time(ctx, working):
    working = PLACE.run({"task_id": item_entry(working, 1).id, "date": WEEK3_THU, "start_section": 3}, ctx,
                        working).working
    result = json.loads(TOOL.run({"status": "suggested"}, ctx, working).content)
    assert result["count"] == 1 and result["items"][0]["at"].startswith("2026-09-24(周四) 3-4节")
    pending = json.loads(TOOL.run({"status": "pending", "limit": 2}, ctx, working).content)
    assert [i["order"] for i in pending["items"]] == [2, 3]


def test_enqueue_adds_ids_once(ctx, working):
    result = TOOL.run({"status": "pending", "enqueue": True}, ctx, working)
    again = TOOL.run({"status": "pending", "enqueue": True}, ctx, result.working)
    assert json.loads(again.content)["enqueued"] == 0 and len(again.working.queue.pending) == 4


def test_a_bad_date_is_refused(ctx, working):
    assert TOOL.run({"date_from": "2030-01-01"}, ctx, working).status == "failed"


def test_another_user_sees_only_their_own(working, other_user):
    assert json.loads(TOOL.run({}, make_ctx(other_user), working).content)["count"] == 0
