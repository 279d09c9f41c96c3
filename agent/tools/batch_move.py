"""batch_move: move several placed blocks at once; all succeed or nothing changes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from agent.flow.working import Working
from agent.tools.support import board_text as text
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from schedule.core.board_edits import Move

MAX_MOVES = 20


class BatchMoveTool(Tool):
    name = "batch_move"
    label = gettext_lazy("Move several blocks")
    pack = "schedule_write"
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

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> str:
        current = common.readable(ctx, working)
        lines = []
        for move in args.get("moves", []):
            entry = common.entry_or_none(current, move.get("task_id"))
            when = text.human_when(current.board, move.get("date"), move.get("start_section"),
                                   entry.length if entry else 2) if current else move.get("date")
            lines.append(_("“%(name)s” to %(when)s") % {"name": entry.name if entry else move.get("task_id"),
                                                         "when": when})
        return _("Move these blocks: %(list)s.") % {"list": pgettext("list separator", "; ").join(lines)}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, changed = common.board(ctx, working)
        board = common.attempt(ctx, current, changed, lambda: [Move(move["task_id"], common.spot_arg(move))
                                                               for move in args["moves"]],
                               lead="批量移动失败，全部回滚，无任何变更。原因：")
        if isinstance(board, ToolResult):
            return board
        ids = [move["task_id"] for move in args["moves"]]
        moved = [common.entry_on(board, i) for i in ids]
        days = ([common.place_of(common.entry_on(current.board, i)).day for i in ids]
                + [common.place_of(entry).day for entry in moved])
        lines = [f"{text.entry_label(entry)} → {text.target_label(board, entry)}" for entry in moved]
        content = f"批量移动完成，{len(ids)} 个条目全部成功：\n" + "\n".join(lines) + "\n" + text.after_edit(board, days)
        summary = ngettext("Moved %(count)s block.", "Moved %(count)s blocks.", len(ids)) % {"count": len(ids)}
        return common.done(summary, content, data={"ids": ids}, working=current.with_board(board))


TOOL = BatchMoveTool()
