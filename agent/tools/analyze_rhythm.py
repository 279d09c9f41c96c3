"""analyze_rhythm: how the study blocks follow each other (switches per day, the longest same-subject
run, heavy days in a row), with the same decision as analyze_health (a read tool)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import analysis_text as words
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from schedule.core.analysis import RHYTHM_DIMENSIONS


class AnalyzeRhythmTool(Tool):
    name = "analyze_rhythm"
    pack = "analysis"
    label = gettext_lazy("Check the study rhythm")
    description = ("分析学习节奏：每天学习块之间切换科目的次数、同一科目一天内最长连续几块、连续偏满的日子。"
                   "可用 dimensions 只看某几项（结论只考虑它们；不给则与 analyze_health 相同）、threshold 调整判定松紧。"
                   "返回结论 decision 和候选改动（swap 可减少切换）。只读。")
    parameters = {"type": "object", "properties": {
        **words.RANGE_PROPERTIES, "dimensions": words.dimensions_arg(RHYTHM_DIMENSIONS),
        "threshold": words.THRESHOLD_ARG}, "additionalProperties": False}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, store, report = words.run_analysis(ctx, working, args)
        if isinstance(report, ToolResult):
            return report
        board, rhythm = current.board, report.rhythm
        asked = set(words.chosen_dimensions(args)) & set(RHYTHM_DIMENSIONS)
        lines = [words.window_line(report), *words.rhythm_lines(board, report, asked),
                 *words.decision_lines(board, report.decision)]
        summary = _("Checked the study rhythm: %(verdict)s.") % {"verdict": words.verdict(report.decision)}
        data = {"window": {"first": report.window.first.isoformat(), "last": report.window.last.isoformat()},
                "dimensions": sorted(asked), "threshold": args.get("threshold") or "normal",
                "total_switches": rhythm.total_switches, "max_switches": rhythm.max_switches,
                "switches": [{"date": day.isoformat(), "count": count} for day, count in rhythm.switches],
                "longest_run": rhythm.longest_run,
                "heavy_adjacent": [[a.isoformat(), b.isoformat()] for a, b in rhythm.heavy_adjacent],
                "decision": words.decision_json(board, report.decision)}
        return common.done(summary, "\n".join(lines), data=data, working=store)


TOOL = AnalyzeRhythmTool()
