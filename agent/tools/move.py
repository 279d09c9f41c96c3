"""move: move a placed study block or quick note (suggested, or already on the board) elsewhere."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import board_text as text
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from schedule.core.board_edits import Move


class MoveTool(Tool):
    name = "move"
    label = gettext_lazy("Move a block")
    pack = "schedule_write"
    description = ("把一个已有位置的学习块或随口记（建议的，或课表里已有的）移到新的日期和开始节次。"
                   "课程、学生自己的日程、水课本身和已开始的条目不能移动。未安排的条目请用 place。"
                   "失败时日程不变，并告诉你冲突和可用位置。")
    parameters = common.SPOT_PARAMETERS
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> str:
        target = common.card_target(ctx, working, args.get("task_id"), args)
        if target is None:
            return _("Move item %(id)s to %(date)s.") % {"id": args.get("task_id"), "date": args.get("date")}
        return _("Move “%(name)s” to %(when)s.") % target

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, changed = common.board(ctx, working)
        board = common.attempt(ctx, current, changed, lambda: Move(args["task_id"], common.spot_arg(args)))
        if isinstance(board, ToolResult):
            return board
        before, moved = common.entry_on(current.board, args["task_id"]), common.entry_on(board, args["task_id"])
        was, now = common.place_of(before), common.place_of(moved)
        content = (f"已将 {text.entry_label(moved)} 从 {text.target_label(current.board, before)} "
                   f"移到 {text.target_label(board, moved)}。\n"
                   + text.after_edit(board, [was.day, now.day]))
        summary = _("Moved “%(name)s” to %(when)s.") % {
            "name": moved.name, "when": text.human_when(board, now.day, now.start, moved.length)}
        return common.done(summary, content, data={"id": moved.id, "at": common.at_json(moved)},
                           working=current.with_board(board))


TOOL = MoveTool()
