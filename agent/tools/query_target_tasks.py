"""query_target_tasks: list the entries to work on (by status, class, kind, dates), optionally queue them."""

from __future__ import annotations

from typing import Any, Mapping

from django.utils.translation import gettext as _

from agent.tools import common
from agent.tools import working_ops as ops
from agent.tools.base import Tool, ToolContext, ToolResult
from agent.tools.queue import enqueue, item_json, snapshot

DEFAULT_LIMIT = 16


class QueryTargetTasksTool(Tool):
    name = "query_target_tasks"
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

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> ToolResult:
        working, fresh = common.board(ctx, working)
        try:
            found = self._select(working, args)
        except ops.EditRefused as exc:
            return common.failed(_("The list could not be read."), f"查询失败：{exc.message}", code=exc.code,
                                 working=working if fresh else None)
        found = found[:args.get("limit", DEFAULT_LIMIT)]
        result: dict[str, Any] = {"count": len(found), "items": [item_json(working, e) for e in found]}
        new = working if fresh else None
        if args.get("enqueue"):
            new, added = enqueue(working, [e["id"] for e in found], reset=args.get("reset_queue", False))
            result.update(enqueued=added, queue=snapshot(new))
        return common.done(_("Listed %(count)s items.") % {"count": len(found)}, common.as_json(result),
                           data={"count": len(found)}, working=new)

    @staticmethod
    def _select(working: dict[str, Any], args: Mapping[str, Any]) -> list[dict[str, Any]]:
        first = ops.parse_date(working, args["date_from"]).isoformat() if "date_from" in args else None
        last = ops.parse_date(working, args["date_to"]).isoformat() if "date_to" in args else None
        status, ids = args.get("status", "all"), set(args.get("task_ids", ()))
        found = []
        for entry in working["entries"]:
            if entry["kind"] not in ("task_item", "quick_note"):
                continue
            shown = "moved" if ops.is_moved(entry) else entry["status"]
            if status not in ("all", shown) and not (status == "existing" and shown == "moved"):
                continue
            if ids and entry["id"] not in ids:
                continue
            if "task_class_id" in args and entry.get("class_id") != args["task_class_id"]:
                continue
            if "kind" in args and entry["kind"] != args["kind"]:
                continue
            if (first or last) and not (entry.get("at") and (first or "") <= entry["at"]["date"] <= (last or "9")):
                continue
            found.append(entry)
        return sorted(found, key=lambda e: (e.get("at") is None, (e.get("at") or {}).get("date", ""),
                                            (e.get("at") or {}).get("start", 0), e["id"]))


TOOL = QueryTargetTasksTool()
