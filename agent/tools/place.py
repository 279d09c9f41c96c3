"""place: put a pending study block or quick note at a day and section of the working schedule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import board_text as text
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from schedule.core.board_edits import Place


class PlaceTool(Tool):
    name = "place"
    label = gettext_lazy("Place a block")
    pack = "schedule_write"
    description = ("把一个待安排（pending）的条目放到某天某节开始的位置（只改工作日程，学生确认预览后才写入课表）。"
                   "时长由条目决定；开始节次须为奇数；遇到允许嵌入的水课会自动嵌入。"
                   "失败时日程不变，并告诉你冲突和可用位置。")
    parameters = common.SPOT_PARAMETERS
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> str:
        target = common.card_target(ctx, working, args.get("task_id"), args)
        if target is None:
            return _("Place item %(id)s on %(date)s.") % {"id": args.get("task_id"), "date": args.get("date")}
        return _("Place “%(name)s” on %(when)s.") % target

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, changed = common.board(ctx, working)
        board = common.attempt(ctx, current, changed, lambda: Place(args["task_id"], common.spot_arg(args)))
        if isinstance(board, ToolResult):
            return board
        placed = common.entry_on(board, args["task_id"])
        where = common.place_of(placed)
        content = (f"已将 {text.entry_label(placed)} 预排到 {text.target_label(board, placed)}。\n"
                   + text.after_edit(board, [where.day]))
        summary = _("Suggested “%(name)s” for %(when)s.") % {
            "name": placed.name, "when": text.human_when(board, where.day, where.start, placed.length)}
        return common.done(summary, content, data={"id": placed.id, "at": common.at_json(placed)},
                           working=current.with_board(board))


TOOL = PlaceTool()
