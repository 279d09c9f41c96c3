"""queue_apply_head_move: place or move the queue's current entry; success marks it done."""

from __future__ import annotations

import copy
from typing import Any, Mapping

from django.utils.translation import gettext as _

from agent.tools import common
from agent.tools import working_ops as ops
from agent.tools.base import Tool, ToolContext, ToolResult
from agent.tools.queue import queue_of, snapshot, with_queue


class QueueApplyHeadMoveTool(Tool):
    name = "queue_apply_head_move"
    description = ("把队列的当前条目放到（待安排的）或移到（已有位置的）指定日期和开始节次。"
                   "成功则标记完成；失败则日程不变、尝试次数加一，并给出冲突和可用位置。")
    parameters = {
        "type": "object",
        "properties": {"date": common.DATE_ARG, "start_section": common.START_ARG},
        "required": ["date", "start_section"],
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> str:
        current = common.entry_or_none(working, queue_of(working)["current"]) if working else None
        if current is None:
            return _("Move the current item to %(date)s.") % {"date": args.get("date")}
        return _("Move “%(name)s” to %(when)s.") % {
            "name": current["name"], "when": common.human_when(working, args["date"], args["start_section"],
                                                               current["sections"])}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> ToolResult:
        working, fresh = common.board(ctx, working)
        queue = copy.deepcopy(queue_of(working))
        if queue["current"] is None:
            return common.failed(_("There is no current item to move."),
                                 "没有当前条目；先用 queue_pop_head 取出一个。", code="no_current",
                                 working=working if fresh else None)
        try:
            entry = ops.entry_get(working, queue["current"])
            if entry["status"] != "pending":
                common.movable(entry)
            new = ops.edit(working, {entry["id"]: (args["date"], args["start_section"])}, now=ctx.now,
                           allow_reorder=ctx.allow_reorder)
        except ops.EditRefused as exc:
            queue["attempts"] += 1
            queue["last_error"] = exc.message
            result = common.refused(exc, working=with_queue(working, queue))
            state = {"success": False, "task_id": queue["current"], **snapshot(result.working)}
            return ToolResult(status="failed", summary=result.summary,
                              content=result.content + "\n" + common.as_json(state), data=state,
                              working=result.working)
        queue["completed"].append(entry["id"])
        queue["current"], queue["attempts"], queue["last_error"] = None, 0, ""
        new["queue"] = queue
        done = ops.entry_get(new, entry["id"])
        state = {"success": True, "task_id": entry["id"], "at": common.target_label(new, done), **snapshot(new)}
        return common.done(_("Moved “%(name)s” to %(when)s.") % {
            "name": done["name"], "when": common.human_when(new, done["at"]["date"], done["at"]["start"],
                                                          done["sections"])},
            common.as_json(state), data=state, working=new)


TOOL = QueueApplyHeadMoveTool()
