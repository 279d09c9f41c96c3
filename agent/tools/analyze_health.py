"""analyze_health: is the schedule feasible and how full is it (capacity gap, tightness, fragmentation,
heavy days), with a decision and candidate moves or swaps the core accepts (a read tool)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import analysis_text as words
from agent.tools.support import board_text as text
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from board.catch_up import catch_up_count
from schedule.core.analysis import DIMENSIONS, Analysis
from schedule.core.board import Board

MAX_DAYS_LISTED = 14
MAX_DAYS_FULL = 62  # detail=full lists every day, up to about two months


class AnalyzeHealthTool(Tool):
    name = "analyze_health"
    pack = "analysis"
    label = gettext_lazy("Check how full the schedule is")
    description = ("分析日程的健康度：待安排的块能否放下（容量缺口）、紧张度（还有多少腾挪空间）、碎片化、"
                   "偏满的日子（默认已占节次达到一天的三分之二）及每天的负荷，也看科目切换和连续偏满。"
                   "可用 dimensions 只看某几项、threshold 调整判定松紧、detail=full 列出每一天。"
                   "返回结论 decision（是否值得继续优化、主要问题、建议操作 move/swap/close/ask_user）"
                   "和排程核心检验过的候选改动。"
                   "学生问“是不是太满了”“排得合理吗”时先调用它，再根据结论回答。只读。")
    parameters = {"type": "object", "properties": {
        **words.RANGE_PROPERTIES, "dimensions": words.dimensions_arg(DIMENSIONS), "threshold": words.THRESHOLD_ARG,
        "detail": words.DETAIL_ARG}, "additionalProperties": False}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, store, report = words.run_analysis(ctx, working, args)
        if isinstance(report, ToolResult):
            return report
        board, health, asked = current.board, report.health, set(words.chosen_dimensions(args))
        lines = [words.window_line(report)]
        if "capacity" in asked:
            lines.append(f"可行：{'是' if health.feasible else '否'}；待安排 {health.pending} 块，"
                         f"可用的空闲两节时段 {health.free_pairs} 个，缺口 {health.capacity_gap} 块。")
        if "tightness" in asked:
            lines.append(f"紧张度 {health.tightness}（{words.TIGHTNESS_TEXT[health.tightness_level]}；"
                         f"可移动的块 {health.movable} 个）。")
        if "fragmentation" in asked:
            lines.append(f"碎片化 {health.fragmentation}（零散到放不下一个两节块的空闲节次占比）。")
        if "heavy_days" in asked:
            lines += self._day_lines(board, report, full=args.get("detail") == "full")
        lines += words.rhythm_lines(board, report, asked)
        lines += words.decision_lines(board, report.decision)
        behind = catch_up_count(user=common.user_of(ctx), now=ctx.now)
        if behind:  # what the assistant can offer besides: "补上落下的 N 次复习"
            lines.append(f"另有 {behind} 个学习块已经过去还没标记完成：可以提出用 catch_up 补上落下的 {behind} 次复习。")
        summary = _("Checked how full the schedule is: %(verdict)s.") % {"verdict": words.verdict(report.decision)}
        data = {"window": {"first": report.window.first.isoformat(), "last": report.window.last.isoformat()},
                "dimensions": sorted(asked), "threshold": args.get("threshold") or "normal",
                "feasible": health.feasible, "capacity_gap": health.capacity_gap, "tightness": health.tightness,
                "tightness_level": health.tightness_level, "fragmentation": health.fragmentation,
                "heavy_days": [d.isoformat() for d in health.heavy_days],
                "score": report.score, "decision": words.decision_json(board, report.decision), "behind": behind}
        return common.done(summary, "\n".join(lines), data=data, working=store)

    @staticmethod
    def _day_lines(board: Board, report: Analysis, *, full: bool) -> list[str]:
        sections = board.calendar.sections
        heavy = [d for d in report.days if d.heavy]
        lines = [f"偏满的日子 {len(heavy)} 天" + ("：" if heavy else "。")]
        listed = report.days if full or len(report.days) <= MAX_DAYS_LISTED else heavy
        for load in listed[:MAX_DAYS_FULL if full else MAX_DAYS_LISTED]:
            lines.append(f"{text.day_label(load.day)} 已占 {load.busy}/{sections} 节（课程 {load.course}，"
                         f"学习块 {load.study}，随口记 {load.note}，日程 {load.event}）{'，偏满' if load.heavy else ''}")
        return lines


TOOL = AnalyzeHealthTool()
