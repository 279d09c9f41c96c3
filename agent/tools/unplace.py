"""unplace: take a suggested block off the working schedule; it waits to be placed again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import board_text as text
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from schedule.core.board_edits import Unplace


class UnplaceTool(Tool):
    name = "unplace"
    label = gettext_lazy("Take a block off the schedule")
    pack = "schedule_write"
    description = ("撤下一个本次对话中建议（suggested）的学习块或随口记，让它恢复为待安排。"
                   "课表里已有的条目不能撤下（可以用 move 移动），课程和固定日程不能操作。")
    parameters = {
        "type": "object",
        "properties": {"task_id": common.ID_ARG},
        "required": ["task_id"],
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> str:
        entry = common.entry_or_none(common.readable(ctx, working), args.get("task_id"))
        name = entry.name if entry is not None else str(args.get("task_id"))
        return _("Take “%(name)s” out of the suggestion.") % {"name": name}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, changed = common.board(ctx, working)
        board = common.attempt(ctx, current, changed, lambda: Unplace(args["task_id"]))
        if isinstance(board, ToolResult):
            return board
        before = common.entry_on(current.board, args["task_id"])
        content = (f"已将 {text.entry_label(before)} 撤下，恢复为待安排。\n"
                   + text.after_edit(board, [common.place_of(before).day]))
        return common.done(_("Took “%(name)s” out of the suggestion.") % {"name": before.name}, content,
                           data={"id": before.id}, working=current.with_board(board))


TOOL = UnplaceTool()
