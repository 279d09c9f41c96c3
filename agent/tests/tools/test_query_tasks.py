"""query_tasks: quick notes by quadrant, keyword and deadline."""

from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo

from agent.tests.tools.conftest import make_ctx
from agent.tools.query_tasks import TOOL
from taskclasses.models import Task

ZONE = ZoneInfo("Asia/Shanghai")


def _tasks(user):
    Task.objects.create(user=user, title="交作业", quadrant=1, deadline=datetime(2026, 9, 16, 23, 59, tzinfo=ZONE))
    Task.objects.create(user=user, title="读论文", quadrant=2, deadline=datetime(2026, 9, 30, 12, 0, tzinfo=ZONE))
    Task.objects.create(user=user, title="买牙膏", quadrant=3)


def test_tasks_are_listed_by_deadline(ctx, user):
    _tasks(user)
    result = json.loads(TOOL.run({}, ctx, None).content)
    assert result["total"] == 3 and [i["title"] for i in result["items"]] == ["交作业", "读论文", "买牙膏"]


def test_filters_by_quadrant_keyword_and_deadline(ctx, user):
    _tasks(user)
    assert [i["title"] for i in json.loads(TOOL.run({"quadrant": 2}, ctx, None).content)["items"]] == ["读论文"]
    assert json.loads(TOOL.run({"keyword": "牙膏"}, ctx, None).content)["total"] == 1
    window = {"deadline_after": "2026-09-16", "deadline_before": "2026-09-16"}
    assert [i["title"] for i in json.loads(TOOL.run(window, ctx, None).content)["items"]] == ["交作业"]


def test_a_reversed_range_is_refused(ctx):
    result = TOOL.run({"deadline_after": "2026-09-20", "deadline_before": "2026-09-10"}, ctx, None)
    assert result.status == "failed" and "晚于" in result.content


def test_another_users_tasks_are_not_listed(user, other_user):
    _tasks(user)
    assert json.loads(TOOL.run({}, make_ctx(other_user), None).content)["total"] == 0
