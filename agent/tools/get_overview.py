"""get_overview: the whole working schedule at a glance: days, blocks, what waits, class rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import board_text as text
from agent.tools.support import common, rules_text
from agent.tools.support.base import Tool, ToolContext, ToolResult
from schedule.core.board import Board, Kind

STRATEGIES = {"steady": "均匀分布", "rapid": "集中突击", "spaced": "考前间隔复习"}


class GetOverviewTool(Tool):
    name = "get_overview"
    label = gettext_lazy("Look at the schedule overview")
    pack = "schedule_read"
    description = ("查看整个规划窗口的工作日程概览：每天的课程、学习块、随口记和空闲节次，待安排条目，"
                   "以及各任务类的约束（时间窗口、排除的节次和星期、是否允许嵌入水课）、学生的规则、已固定的块和校历的假日/调休。"
                   "编号 [n] 用于其他工具。")

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, changed = common.board(ctx, working)
        board = current.board
        placed = [e for e in board.entries if e.placed]
        counts = {status: sum(1 for e in board.entries if e.status == status and e.kind is not Kind.COURSE)
                  for status in ("existing", "suggested", "pending")}
        header = (f"共 {len(board.days())} 天；已占用条目 {len(placed)} 个"
                  f"（课程 {sum(1 for e in placed if e.kind is Kind.COURSE)} 个）；"
                  f"非课程条目：已有 {counts['existing']}（其中待移动 {sum(1 for e in board.entries if e.moved)}），"
                  f"建议 {counts['suggested']}，待安排 {counts['pending']}。")
        lines = [header, text.day_index(board), *self._class_lines(board)]
        lines += [line for line in (rules_text.rules_line(board), rules_text.pinned_line(board)) if line]
        lines += rules_text.calendar_lines(common.user_of(ctx), board.days())
        return common.done(_("Looked at the schedule overview."), "\n".join(lines),
                           data={"entries": len(board.entries), "pending": counts["pending"]},
                           working=common.kept(current, changed))

    @staticmethod
    def _class_lines(board: Board) -> list[str]:
        lines = []
        for rules in board.classes:
            parts = [f"{rules.window.first.isoformat()} 至 {rules.window.last.isoformat()}",
                     STRATEGIES.get(rules.strategy, rules.strategy), "允许嵌入水课" if rules.allow_filler else "不嵌入水课"]
            if rules.excluded_pairs:
                parts.append("排除节次 " + "、".join(f"{2 * p - 1}-{2 * p}" for p in sorted(rules.excluded_pairs)))
            if rules.excluded_days:
                parts.append("排除 " + "、".join(f"周{text.WEEKDAYS[d - 1]}" for d in sorted(rules.excluded_days)))
            lines.append(f"任务类 #{rules.id}「{rules.name}」：" + "，".join(parts))
        return lines


TOOL = GetOverviewTool()
