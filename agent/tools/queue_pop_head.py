"""queue_pop_head: take the next entry of the queue as the current one (or keep the current one)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from agent.tools.support.queue import head_taken, snapshot


class QueuePopHeadTool(Tool):
    name = "queue_pop_head"
    label = gettext_lazy("Take the next queue item")
    pack = "schedule_write"
    description = ("取出队列的下一个条目作为当前条目（如果已有当前条目则继续用它）。"
                   "之后用 queue_apply_head_move 给它定位置，或用 queue_skip_head 跳过。")

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, _changed = common.board(ctx, working)
        new = current.with_queue(head_taken(current.queue))
        state = {"has_head": new.queue.current is not None, **snapshot(new)}
        return common.done(_("Took the next item from the work queue."), common.as_json(state), data=state,
                           working=new)


TOOL = QueuePopHeadTool()
