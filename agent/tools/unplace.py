"""unplace: take a suggested block off the working schedule; it waits to be placed again."""

from __future__ import annotations

from typing import Any, Mapping

from django.utils.translation import gettext as _

from agent.tools import common
from agent.tools import working_ops as ops
from agent.tools.base import Tool, ToolContext, ToolResult


class UnplaceTool(Tool):
    name = "unplace"
    description = ("撤下一个本次对话中建议（suggested）的学习块或随口记，让它恢复为待安排。"
                   "课表里已有的条目不能撤下（可以用 move 移动），课程和固定日程不能操作。")
    parameters = {
        "type": "object",
        "properties": {"task_id": common.ID_ARG},
        "required": ["task_id"],
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> str:
        entry = common.entry_or_none(working, args.get("task_id"))
        name = entry["name"] if entry else str(args.get("task_id"))
        return _("Take “%(name)s” out of the suggestion.") % {"name": name}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> ToolResult:
        working, fresh = common.board(ctx, working)
        try:
            entry = ops.entry_get(working, args["task_id"])
            common.movable(entry)
            if entry["status"] == "pending":
                raise ops.EditRefused(f"{ops.entry_label(entry)} 本来就是待安排状态。", code="already_pending")
            before = entry["at"]["date"]
            new = ops.edit(working, {entry["id"]: None}, now=ctx.now, allow_reorder=ctx.allow_reorder)
        except ops.EditRefused as exc:
            return common.refused(exc, working=working if fresh else None)
        content = f"已将 {ops.entry_label(entry)} 撤下，恢复为待安排。\n" + common.after_edit(new, [before])
        return common.done(_("Took “%(name)s” out of the suggestion.") % {"name": entry["name"]}, content,
                           data={"id": entry["id"]}, working=new)


TOOL = UnplaceTool()
