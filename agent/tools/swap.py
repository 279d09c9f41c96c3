"""swap: two placed blocks of the same length trade places."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import board_text as text
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from schedule.core.board_edits import Swap


class SwapTool(Tool):
    name = "swap"
    label = gettext_lazy("Swap two items")
    pack = "schedule_write"
    description = ("交换两个已有位置、时长相同的学习块或随口记的位置。课程和固定日程不能交换。"
                   "同一任务类的两个块交换会打乱顺序，除非学生同意打乱顺序，否则会被拒绝。")
    parameters = {
        "type": "object",
        "properties": {"task_a": common.ID_ARG, "task_b": common.ID_ARG},
        "required": ["task_a", "task_b"],
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> str:
        current = common.readable(ctx, working)
        names = [getattr(common.entry_or_none(current, args.get(key)), "name", str(args.get(key)))
                 for key in ("task_a", "task_b")]
        return _("Swap “%(a)s” and “%(b)s”.") % {"a": names[0], "b": names[1]}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, changed = common.board(ctx, working)
        board = common.attempt(ctx, current, changed, lambda: Swap(args["task_a"], args["task_b"]))
        if isinstance(board, ToolResult):
            return board
        a, b = common.entry_on(board, args["task_a"]), common.entry_on(board, args["task_b"])
        content = (f"交换完成：{text.entry_label(a)} → {text.target_label(board, a)}；"
                   f"{text.entry_label(b)} → {text.target_label(board, b)}。\n"
                   + text.after_edit(board, [common.place_of(a).day, common.place_of(b).day]))
        return common.done(_("Swapped “%(a)s” and “%(b)s”.") % {"a": a.name, "b": b.name}, content,
                           data={"ids": [a.id, b.id]}, working=current.with_board(board))


TOOL = SwapTool()
