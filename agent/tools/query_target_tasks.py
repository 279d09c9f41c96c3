"""query_target_tasks: list the entries to work on (by status, class, kind, dates), optionally queue them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import board_text as text
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from agent.tools.support.queue import enqueue, item_json, snapshot
from schedule.core.board import Board, Entry, Kind

DEFAULT_LIMIT = 16
WORKABLE = (Kind.STUDY, Kind.NOTE)


class QueryTargetTasksTool(Tool):
    name = "query_target_tasks"
    label = gettext_lazy("List study blocks and notes")
    pack = "schedule_read"
    description = ("列出可以操作的学习块和随口记（不含课程），可按状态（existing 已有 / moved 待移动 / suggested 建议 / "
                   "pending 待安排 / all）、任务类、类型、日期范围筛选；按时间排序。enqueue=true 时把结果加入逐个处理队列。")
    parameters = {
        "type": "object",
        "properties": {
            "status": {"type": "string", "enum": ["all", "existing", "moved", "suggested", "pending"],
                       "description": "默认 all"},
            "task_class_id": {"type": "integer", "minimum": 1},
            "kind": {"type": "string", "enum": ["task_item", "quick_note"]},
            "date_from": common.DATE_ARG,
            "date_to": common.DATE_ARG,
            "task_ids": {"type": "array", "items": {"type": "integer", "minimum": 1}, "maxItems": 100},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "默认 16"},
            "enqueue": {"type": "boolean", "description": "把结果加入处理队列，默认 false"},
            "reset_queue": {"type": "boolean", "description": "先清空队列，默认 false"},
        },
        "additionalProperties": False,
    }

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, changed = common.board(ctx, working)
        try:
            found = self._select(current.board, args)
        except common.BadArgument as error:
            return common.failed(_("The list could not be read."), f"查询失败：{error.message}", code=error.code,
                                 working=common.kept(current, changed))
        found = found[:args.get("limit", DEFAULT_LIMIT)]
        result: dict[str, Any] = {"count": len(found), "items": [item_json(current, e) for e in found]}
        new = common.kept(current, changed)
        if args.get("enqueue"):
            new, added = enqueue(current, [e.id for e in found], reset=args.get("reset_queue", False))
            result.update(enqueued=added, queue=snapshot(new))
        return common.done(_("Listed %(count)s items.") % {"count": len(found)}, common.as_json(result),
                           data={"count": len(found)}, working=new)

    @staticmethod
    def _select(board: Board, args: Mapping[str, Any]) -> list[Entry]:
        first = common.window_day(board, args["date_from"]) if "date_from" in args else None
        last = common.window_day(board, args["date_to"]) if "date_to" in args else None
        status, ids = args.get("status", "all"), set(args.get("task_ids", ()))

        def wanted(entry: Entry) -> bool:
            shown = text.status_of(entry)
            return (entry.kind in WORKABLE
                    and (status in ("all", shown) or (status == "existing" and shown == "moved"))
                    and (not ids or entry.id in ids)
                    and ("task_class_id" not in args or entry.class_id == args["task_class_id"])
                    and ("kind" not in args or entry.kind.value == args["kind"])
                    and (not (first or last) or (entry.place is not None and (first or entry.place.day)
                                                 <= entry.place.day <= (last or entry.place.day))))

        return sorted(filter(wanted, board.entries), key=lambda e: (
            e.place is None, (e.place.day, e.place.start) if e.place else (board.window.first, 0), e.id))


TOOL = QueryTargetTasksTool()
