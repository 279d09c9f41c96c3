"""queue_skip_head: give up on the current queue entry (with a reason) and leave it as it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from agent.tools.support.queue import head_skipped, snapshot


class QueueSkipHeadTool(Tool):
    name = "queue_skip_head"
    label = gettext_lazy("Skip the current queue item")
    pack = "schedule_write"
    description = "跳过队列的当前条目（保持它现在的位置不变），并写明原因。"
    parameters = {
        "type": "object",
        "properties": {"reason": {"type": "string", "maxLength": 200, "description": "为什么跳过"}},
        "required": ["reason"],
        "additionalProperties": False,
    }

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, changed = common.board(ctx, working)
        skipped = current.queue.current
        if skipped is None:
            return common.failed(_("There is no current item to skip."),
                                 "没有当前条目；先用 queue_pop_head 取出一个。", code="no_current",
                                 working=common.kept(current, changed))
        new = current.with_queue(head_skipped(current.queue))
        state = {"success": True, "skipped_task_id": skipped, "reason": args["reason"], **snapshot(new)}
        return common.done(_("Skipped an item of the work queue."), common.as_json(state), data=state, working=new)


TOOL = QueueSkipHeadTool()
