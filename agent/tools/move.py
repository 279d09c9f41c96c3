"""move: move a placed study block or quick note (suggested, or already on the board) elsewhere."""

from __future__ import annotations

from typing import Any, Mapping

from django.utils.translation import gettext as _

from agent.tools import common
from agent.tools import working_ops as ops
from agent.tools.base import Tool, ToolContext, ToolResult


class MoveTool(Tool):
    name = "move"
    description = ("把一个已有位置的学习块或随口记（建议的，或课表里已有的）移到新的日期和开始节次。"
                   "课程、学生自己的日程、水课本身和已开始的条目不能移动。未安排的条目请用 place。"
                   "失败时日程不变，并告诉你冲突和可用位置。")
    parameters = {
        "type": "object",
        "properties": {"task_id": common.ID_ARG, "date": common.DATE_ARG, "start_section": common.START_ARG},
        "required": ["task_id", "date", "start_section"],
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> str:
        entry = common.entry_or_none(working, args.get("task_id"))
        if entry is None:
            return _("Move item %(id)s to %(date)s.") % {"id": args.get("task_id"), "date": args.get("date")}
        return _("Move “%(name)s” to %(when)s.") % {
            "name": entry["name"], "when": common.human_when(working, args["date"], args["start_section"],
                                                             entry["sections"])}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> ToolResult:
        working, fresh = common.board(ctx, working)
        try:
            entry = ops.entry_get(working, args["task_id"])
            common.movable(entry)
            common.placed(entry)
            before = common.target_label(working, entry)
            new = ops.edit(working, {entry["id"]: (args["date"], args["start_section"])}, now=ctx.now,
                           allow_reorder=ctx.allow_reorder)
        except ops.EditRefused as exc:
            return common.refused(exc, working=working if fresh else None)
        moved = ops.entry_get(new, entry["id"])
        content = (f"已将 {ops.entry_label(moved)} 从 {before} 移到 {common.target_label(new, moved)}。\n"
                   + common.after_edit(new, [entry["at"]["date"], moved["at"]["date"]]))
        summary = _("Moved “%(name)s” to %(when)s.") % {
            "name": moved["name"], "when": common.human_when(new, moved["at"]["date"], moved["at"]["start"],
                                                           moved["sections"])}
        return common.done(summary, content, data={"id": moved["id"], "at": moved["at"]}, working=new)


TOOL = MoveTool()
