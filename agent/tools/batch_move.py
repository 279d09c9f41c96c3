"""batch_move: move several placed blocks at once; all succeed or nothing changes."""

from __future__ import annotations

from typing import Any, Mapping

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from agent.tools import common
from agent.tools import working_ops as ops
from agent.tools.base import Tool, ToolContext, ToolResult

MAX_MOVES = 20


class BatchMoveTool(Tool):
    name = "batch_move"
    description = ("一次移动多个已有位置的条目（最多 20 个），原子操作：全部成功才生效，任何一个失败则全部不变。"
                   "各条目先一起拿起再逐个放下，所以可以互相占用对方原来的位置。")
    parameters = {
        "type": "object",
        "properties": {
            "moves": {
                "type": "array", "minItems": 1, "maxItems": MAX_MOVES,
                "items": {
                    "type": "object",
                    "properties": {"task_id": common.ID_ARG, "date": common.DATE_ARG,
                                   "start_section": common.START_ARG},
                    "required": ["task_id", "date", "start_section"],
                    "additionalProperties": False,
                },
            },
        },
        "required": ["moves"],
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> str:
        lines = []
        for move in args.get("moves", []):
            entry = common.entry_or_none(working, move.get("task_id"))
            name = entry["name"] if entry else str(move.get("task_id"))
            when = common.human_when(working, move.get("date"), move.get("start_section"),
                                     entry["sections"] if entry else 2) if working else move.get("date")
            lines.append(_("“%(name)s” to %(when)s") % {"name": name, "when": when})
        return _("Move these blocks: %(list)s.") % {"list": "; ".join(lines)}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> ToolResult:
        working, fresh = common.board(ctx, working)
        moves = list(args["moves"])
        try:
            ids = [m["task_id"] for m in moves]
            if len(set(ids)) != len(ids):
                raise ops.EditRefused("同一个条目在 moves 里出现了多次，每个条目只能移动一次。", code="duplicate_entry")
            for move in moves:
                entry = ops.entry_get(working, move["task_id"])
                common.movable(entry)
                common.placed(entry)
            new = ops.edit(working, {m["task_id"]: (m["date"], m["start_section"]) for m in moves}, now=ctx.now,
                           allow_reorder=ctx.allow_reorder)
        except ops.EditRefused as exc:
            exc.message = "批量移动失败，全部回滚，无任何变更。原因：" + exc.message
            return common.refused(exc, working=working if fresh else None)
        days = [ops.entry_get(working, i)["at"]["date"] for i in ids] + [ops.entry_get(new, i)["at"]["date"]
                                                                          for i in ids]
        lines = [f"{ops.entry_label(ops.entry_get(new, i))} → {common.target_label(new, ops.entry_get(new, i))}"
                 for i in ids]
        content = f"批量移动完成，{len(ids)} 个条目全部成功：\n" + "\n".join(lines) + "\n" + common.after_edit(new, days)
        summary = ngettext("Moved %(count)s block.", "Moved %(count)s blocks.", len(ids)) % {"count": len(ids)}
        return common.done(summary, content, data={"ids": ids}, working=new)


TOOL = BatchMoveTool()
