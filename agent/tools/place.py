"""place: put a pending study block or quick note at a day and section of the working schedule."""

from __future__ import annotations

from typing import Any, Mapping

from django.utils.translation import gettext as _

from agent.tools import common
from agent.tools import working_ops as ops
from agent.tools.base import Tool, ToolContext, ToolResult


class PlaceTool(Tool):
    name = "place"
    description = ("把一个待安排（pending）的条目放到某天某节开始的位置（只改工作日程，学生确认预览后才写入课表）。"
                   "时长由条目决定；开始节次须为奇数；遇到允许嵌入的水课会自动嵌入。"
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
            return _("Place item %(id)s on %(date)s.") % {"id": args.get("task_id"), "date": args.get("date")}
        return _("Place “%(name)s” on %(when)s.") % {
            "name": entry["name"], "when": common.human_when(working, args["date"], args["start_section"],
                                                             entry["sections"])}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> ToolResult:
        working, fresh = common.board(ctx, working)
        try:
            entry = ops.entry_get(working, args["task_id"])
            if entry["status"] != "pending":
                raise ops.EditRefused(f"{ops.entry_label(entry)} 已经有位置（{common.target_label(working, entry)}），"
                                      f"请用 move 移动它。", code="not_pending")
            new = ops.edit(working, {entry["id"]: (args["date"], args["start_section"])}, now=ctx.now,
                           allow_reorder=ctx.allow_reorder)
        except ops.EditRefused as exc:
            return common.refused(exc, working=working if fresh else None)
        placed = ops.entry_get(new, entry["id"])
        content = (f"已将 {ops.entry_label(placed)} 预排到 {common.target_label(new, placed)}。\n"
                   + common.after_edit(new, [placed["at"]["date"]]))
        summary = _("Suggested “%(name)s” for %(when)s.") % {
            "name": placed["name"], "when": common.human_when(new, placed["at"]["date"], placed["at"]["start"],
                                                            placed["sections"])}
        return common.done(summary, content, data={"id": placed["id"], "at": placed["at"]}, working=new)


TOOL = PlaceTool()
