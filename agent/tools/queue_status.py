"""queue_status: how far the model is through its queue of blocks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from agent.tools.support.queue import snapshot


class QueueStatusTool(Tool):
    name = "queue_status"
    label = gettext_lazy("Check the queue")
    pack = "schedule_write"
    description = "查看逐个处理队列的状态：待处理、已完成、已跳过的数量，当前条目，接下来的编号和上一次的错误。"

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, changed = common.board(ctx, working)
        state = snapshot(current)
        return common.done(_("Looked at the work queue."), common.as_json(state), data=state,
                           working=common.kept(current, changed))


TOOL = QueueStatusTool()
