"""analyze_health: is the schedule feasible and how full is it (capacity gap, tightness, fragmentation,
heavy days), with a decision and candidate moves or swaps the core accepts (a read tool)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.tools import analysis_text as words
from agent.tools import board_text as text
from agent.tools import common
from agent.tools.base import Tool, ToolContext, ToolResult
from agent.working import Working
from schedule.core.analysis import Analysis
from schedule.core.board import Board

MAX_DAYS_LISTED = 14


class AnalyzeHealthTool(Tool):
    name = "analyze_health"
    pack = "analysis"
    label = gettext_lazy("Check how full the schedule is")
    description = ("分析日程的健康度：待安排的块能否放下（容量缺口）、紧张度（还有多少腾挪空间）、碎片化、"
                   "偏满的日子（已占节次达到一天的三分之二）及每天的负荷。返回结论 decision（是否值得继续优化、"
                   "主要问题、建议操作 move/swap/close/ask_user）和排程核心检验过的候选改动。"
                   "学生问“是不是太满了”“排得合理吗”时先调用它，再根据结论回答。只读。")
    parameters = {"type": "object", "properties": dict(words.RANGE_PROPERTIES), "additionalProperties": False}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, store, report = words.run_analysis(ctx, working, args)
        if isinstance(report, ToolResult):
            return report
        board, health = current.board, report.health
        lines = [words.window_line(report),
                 f"可行：{'是' if health.feasible else '否'}；待安排 {health.pending} 块，"
                 f"可用的空闲两节时段 {health.free_pairs} 个，缺口 {health.capacity_gap} 块。",
                 f"紧张度 {health.tightness}（{words.TIGHTNESS_TEXT[health.tightness_level]}；可移动的块 "
                 f"{health.movable} 个）；碎片化 {health.fragmentation}（零散到放不下一个两节块的空闲节次占比）。",
                 *self._day_lines(board, report),
                 *words.decision_lines(board, report.decision)]
        summary = _("Checked how full the schedule is: %(verdict)s.") % {"verdict": words.verdict(report.decision)}
        data = {"window": {"first": report.window.first.isoformat(), "last": report.window.last.isoformat()},
                "feasible": health.feasible, "capacity_gap": health.capacity_gap, "tightness": health.tightness,
                "tightness_level": health.tightness_level, "fragmentation": health.fragmentation,
                "heavy_days": [d.isoformat() for d in health.heavy_days],
                "score": report.score, "decision": words.decision_json(board, report.decision)}
        return common.done(summary, "\n".join(lines), data=data, working=store)

    @staticmethod
    def _day_lines(board: Board, report: Analysis) -> list[str]:
        sections = board.calendar.sections
        heavy = [d for d in report.days if d.heavy]
        lines = [f"偏满的日子 {len(heavy)} 天" + ("：" if heavy else "。")]
        for load in (heavy if len(report.days) > MAX_DAYS_LISTED else report.days)[:MAX_DAYS_LISTED]:
            lines.append(f"{text.day_label(load.day)} 已占 {load.busy}/{sections} 节（课程 {load.course}，"
                         f"学习块 {load.study}，随口记 {load.note}，日程 {load.event}）{'，偏满' if load.heavy else ''}")
        return lines


TOOL = AnalyzeHealthTool()
