"""analyze_rhythm: how the study blocks follow each other (switches per day, the longest same-subject
run, heavy days in a row), with the same decision as analyze_health (a read tool)."""

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
from schedule.core.board import Board


class AnalyzeRhythmTool(Tool):
    name = "analyze_rhythm"
    pack = "analysis"
    label = gettext_lazy("Check the study rhythm")
    description = ("分析学习节奏：每天学习块之间切换科目的次数、同一科目一天内最长连续几块、连续偏满的日子。"
                   "返回与 analyze_health 相同的结论 decision 和候选改动（swap 可减少切换）。只读。")
    parameters = {"type": "object", "properties": dict(words.RANGE_PROPERTIES), "additionalProperties": False}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, store, report = words.run_analysis(ctx, working, args)
        if isinstance(report, ToolResult):
            return report
        board, rhythm = current.board, report.rhythm
        switches = "；".join(f"{text.day_label(day)} {count} 次" for day, count in rhythm.switches) or "无"
        adjacent = "；".join(f"{text.day_label(a)} 与 {text.day_label(b)}" for a, b in rhythm.heavy_adjacent) or "无"
        lines = [words.window_line(report),
                 f"科目切换：共 {rhythm.total_switches} 次，单日最多 {rhythm.max_switches} 次（{switches}）。",
                 f"同一科目一天内最长连续 {rhythm.longest_run} 块{self._run_where(board, rhythm)}。",
                 f"连续偏满的日子：{adjacent}。",
                 *words.decision_lines(board, report.decision)]
        summary = _("Checked the study rhythm: %(verdict)s.") % {"verdict": words.verdict(report.decision)}
        data = {"window": {"first": report.window.first.isoformat(), "last": report.window.last.isoformat()},
                "total_switches": rhythm.total_switches, "max_switches": rhythm.max_switches,
                "switches": [{"date": day.isoformat(), "count": count} for day, count in rhythm.switches],
                "longest_run": rhythm.longest_run,
                "heavy_adjacent": [[a.isoformat(), b.isoformat()] for a, b in rhythm.heavy_adjacent],
                "decision": words.decision_json(board, report.decision)}
        return common.done(summary, "\n".join(lines), data=data, working=store)

    @staticmethod
    def _run_where(board: Board, rhythm: Any) -> str:
        if rhythm.longest_run_day is None:
            return ""
        rules = board.class_rules(rhythm.longest_run_class) if rhythm.longest_run_class else None
        name = f"「{rules.name}」" if rules is not None else ""
        return f"（{text.day_label(rhythm.longest_run_day)}{name}）"


TOOL = AnalyzeRhythmTool()
