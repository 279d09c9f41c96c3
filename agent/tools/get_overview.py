"""get_overview: the whole working schedule at a glance: days, blocks, what waits, class rules."""

from __future__ import annotations

from typing import Any, Mapping

from django.utils.translation import gettext as _

from agent.tools import common
from agent.tools import working_ops as ops
from agent.tools.base import Tool, ToolContext, ToolResult
from agent.tools.working_schedule import working_day_index

STRATEGIES = {"steady": "均匀分布", "rapid": "集中突击"}


class GetOverviewTool(Tool):
    name = "get_overview"
    description = ("查看整个规划窗口的工作日程概览：每天的课程、学习块、随口记和空闲节次，待安排条目，"
                   "以及各任务类的约束（时间窗口、排除的节次和星期、是否允许嵌入水课）。编号 [n] 用于其他工具。")

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> ToolResult:
        working, fresh = common.board(ctx, working)
        entries = working["entries"]
        placed = [e for e in entries if e.get("at")]
        counts = {status: sum(1 for e in entries if e["status"] == status and e["kind"] != "course")
                  for status in ("existing", "suggested", "pending")}
        moved = sum(1 for e in entries if ops.is_moved(e))
        header = (f"共 {len(ops.window_dates(working))} 天；已占用条目 {len(placed)} 个"
                  f"（课程 {sum(1 for e in placed if e['kind'] == 'course')} 个）；"
                  f"非课程条目：已有 {counts['existing']}（其中待移动 {moved}），建议 {counts['suggested']}，"
                  f"待安排 {counts['pending']}。")
        lines = [header, working_day_index(working), *self._class_lines(working)]
        return common.done(_("Looked at the schedule overview."), "\n".join(lines),
                           data={"entries": len(entries), "pending": counts["pending"]},
                           working=working if fresh else None)

    @staticmethod
    def _class_lines(working: dict[str, Any]) -> list[str]:
        lines = []
        for meta in working["classes"].values():
            rules = [f"{meta['start']} 至 {meta['end']}", STRATEGIES.get(meta["strategy"], meta["strategy"]),
                     "允许嵌入水课" if meta["allow_filler"] else "不嵌入水课"]
            if meta["excluded_pairs"]:
                rules.append("排除节次 " + "、".join(f"{2 * p - 1}-{2 * p}" for p in meta["excluded_pairs"]))
            if meta["excluded_days"]:
                rules.append("排除 " + "、".join(f"周{ops.WEEKDAYS[d - 1]}" for d in meta["excluded_days"]))
            lines.append(f"任务类 #{meta['id']}「{meta['name']}」：" + "，".join(rules))
        return lines


TOOL = GetOverviewTool()
