"""swap: two placed blocks of the same length trade places."""

from __future__ import annotations

from typing import Any, Mapping

from django.utils.translation import gettext as _

from agent.tools import common
from agent.tools import working_ops as ops
from agent.tools.base import Tool, ToolContext, ToolResult


class SwapTool(Tool):
    name = "swap"
    description = ("交换两个已有位置、时长相同的学习块或随口记的位置。课程和固定日程不能交换。"
                   "同一任务类的两个块交换会打乱顺序，除非学生同意打乱顺序，否则会被拒绝。")
    parameters = {
        "type": "object",
        "properties": {"task_a": common.ID_ARG, "task_b": common.ID_ARG},
        "required": ["task_a", "task_b"],
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> str:
        a, b = (common.entry_or_none(working, args.get(key)) for key in ("task_a", "task_b"))
        names = [e["name"] if e else str(args.get(k)) for e, k in ((a, "task_a"), (b, "task_b"))]
        return _("Swap “%(a)s” and “%(b)s”.") % {"a": names[0], "b": names[1]}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> ToolResult:
        working, fresh = common.board(ctx, working)
        try:
            a, b = ops.entry_get(working, args["task_a"]), ops.entry_get(working, args["task_b"])
            if a["id"] == b["id"]:
                raise ops.EditRefused("task_a 和 task_b 是同一个条目，请给出两个不同的编号。", code="same_entry")
            for entry in (a, b):
                common.movable(entry)
                common.placed(entry)
            if a["sections"] != b["sections"]:
                raise ops.EditRefused(f"只能交换时长相同的条目：{ops.entry_label(a)} {a['sections']} 节，"
                                      f"{ops.entry_label(b)} {b['sections']} 节。可以分别用 move。",
                                      code="different_lengths")
            new = ops.edit(working, {a["id"]: (b["at"]["date"], b["at"]["start"]),
                                     b["id"]: (a["at"]["date"], a["at"]["start"])},
                           now=ctx.now, allow_reorder=ctx.allow_reorder)
        except ops.EditRefused as exc:
            return common.refused(exc, working=working if fresh else None)
        na, nb = ops.entry_get(new, a["id"]), ops.entry_get(new, b["id"])
        content = (f"交换完成：{ops.entry_label(na)} → {common.target_label(new, na)}；"
                   f"{ops.entry_label(nb)} → {common.target_label(new, nb)}。\n"
                   + common.after_edit(new, [na["at"]["date"], nb["at"]["date"]]))
        return common.done(_("Swapped “%(a)s” and “%(b)s”.") % {"a": na["name"], "b": nb["name"]}, content,
                           data={"ids": [na["id"], nb["id"]]}, working=new)


TOOL = SwapTool()
