"""query_range: one day of the working schedule, or a run of its sections, in detail."""

from __future__ import annotations

from typing import Any, Mapping

from django.utils.translation import gettext as _

from agent.tools import common
from agent.tools import working_ops as ops
from agent.tools.base import Tool, ToolContext, ToolResult


class QueryRangeTool(Tool):
    name = "query_range"
    description = ("查看某一天（或这天的某几节）的详细占用：每一节是空闲还是被哪个条目占用，"
                   "以及水课是否可嵌入。只给 date 时看整天。")
    parameters = {
        "type": "object",
        "properties": {
            "date": common.DATE_ARG,
            "start_section": {"type": "integer", "minimum": 1, "maximum": 16, "description": "起始节次（可选）"},
            "end_section": {"type": "integer", "minimum": 1, "maximum": 16, "description": "结束节次（可选）"},
        },
        "required": ["date"],
        "additionalProperties": False,
    }

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> ToolResult:
        working, fresh = common.board(ctx, working)
        keep = working if fresh else None
        count = ops.section_count(working)
        try:
            day = ops.parse_date(working, args["date"]).isoformat()
            first, last = args.get("start_section", 1), args.get("end_section", count)
            if not 1 <= first <= last <= count:
                raise ops.EditRefused(f"节次范围要在 1-{count} 之间且开始不大于结束，收到 {first}-{last}。",
                                      code="invalid_section")
        except ops.EditRefused as exc:
            return common.failed(_("The day could not be read."), f"查询失败：{exc.message}", code=exc.code,
                                 working=keep)
        lines = [ops.occupancy_line(working, day)]
        for section in range(first, last + 1):
            here = ops.overlapping(working, day, section, section)
            who = "；".join(f"{ops.entry_label(e)}({ops.status_label(e)})" for e in here) or "空"
            lines.append(f"第{section}节 {ops.clock_label(working, section, section)}：{who}")
        return common.done(_("Looked at %(date)s.") % {"date": day}, "\n".join(lines), working=keep)


TOOL = QueryRangeTool()
