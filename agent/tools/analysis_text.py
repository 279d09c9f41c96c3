"""What the analysis tools share: their date arguments, running the analysis, and its text for the model.

The figures come from ``schedule.core.analysis``; this module only words them (compact Chinese with
real dates and the ``[id]`` of each entry) and turns the decision into JSON the model can act on.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.tools import board_text as text
from agent.tools import common
from agent.tools.base import ToolContext, ToolResult
from agent.working import Working
from schedule.core.analysis import Analysis, Candidate, Decision, EmptyWindowError, analyze
from schedule.core.board import Board

RANGE_PROPERTIES = {
    "date_from": {"type": "string", "format": "date", "description": "从哪天开始分析（YYYY-MM-DD，默认今天）"},
    "date_to": {"type": "string", "format": "date", "description": "分析到哪天（YYYY-MM-DD，默认规划窗口最后一天）"},
    "suggested_only": {"type": "boolean",
                       "description": "只为还没写入课表的建议块给出候选（粗排后的优化只动建议；默认 false）"},
}

PROBLEMS = {
    "capacity_gap": gettext_lazy("not every block fits in the free time left"),
    "heavy_days": gettext_lazy("some days are very full"),
    "context_switches": gettext_lazy("some days switch subjects often"),
    "long_run": gettext_lazy("one subject runs long on one day"),
    "none": gettext_lazy("nothing needs changing"),
}
PROBLEM_TEXT = {"capacity_gap": "容量不足：待安排的块放不下", "heavy_days": "有偏满的日子（尤其是连续几天都满）",
                "context_switches": "一天内频繁切换科目", "long_run": "同一科目一天内连续太久", "none": "没有需要处理的问题"}
TIGHTNESS_TEXT = {"loose": "宽松", "tight": "偏紧", "locked": "几乎没有腾挪空间"}


def date_or_none(raw: Any) -> date | None:
    return common.day_arg(raw) if raw else None


def run_analysis(ctx: ToolContext, working: Working | None, args: Mapping[str, Any],
                 ) -> tuple[Working, Working | None, Analysis | ToolResult]:
    """Return the working schedule, what to store, and the analysis (or the failed result saying why)."""
    current, changed = common.board(ctx, working)
    store = common.kept(current, changed)
    try:
        report = analyze(current.board, first=date_or_none(args.get("date_from")),
                         last=date_or_none(args.get("date_to")), order=common.order_rule(ctx),
                         only_suggested=bool(args.get("suggested_only")))
    except common.BadArgument as error:
        return current, store, common.argument_failed(error, _("Nothing was analysed."), store=store)
    except EmptyWindowError as error:
        return current, store, empty_window(current.board, error, store)
    return current, store, report


def empty_window(board: Board, error: EmptyWindowError, store: Working | None) -> ToolResult:
    """An analysis asked about no day it can look at: say which days it can."""
    summary = _("There are no days to analyse between %(first)s and %(last)s.") % {
        "first": error.first.isoformat(), "last": error.last.isoformat()}
    content = (f"分析失败：{error.first.isoformat()} 至 {error.last.isoformat()} 之间没有可以分析的日子。"
               f"可分析的范围是 {max(board.clock.today, board.window.first).isoformat()} 至 "
               f"{board.window.last.isoformat()}（今天以前的日子不分析）。")
    return common.failed(summary, content, code="empty_window", working=store)


def verdict(decision: Decision) -> str:
    """The decision in the student's language, for the timeline."""
    return str(PROBLEMS.get(decision.primary_problem, PROBLEMS["none"]))


def candidate_line(board: Board, candidate: Candidate) -> str:
    entry = common.entry_on(board, candidate.entry)
    if candidate.operation == "swap":
        other = common.entry_on(board, candidate.other)
        return (f"swap {text.entry_label(entry)}（{text.target_label(board, entry)}）与 "
                f"{text.entry_label(other)}（{text.target_label(board, other)}）")
    assert candidate.spot is not None
    end = candidate.spot.start + entry.length - 1
    return (f"move {text.entry_label(entry)}（{text.target_label(board, entry)}）→ "
            f"{text.day_label(candidate.spot.day)} {text.sections_label(candidate.spot.start, end)}"
            f"({text.clock_label(board, candidate.spot.start, end)})")


def decision_lines(board: Board, decision: Decision) -> list[str]:
    lines = [f"结论：{PROBLEM_TEXT.get(decision.primary_problem, decision.primary_problem)}；"
             f"建议操作 {decision.recommended_operation}；"
             f"{'值得继续优化' if decision.should_continue else '不必再调整'}"
             f"{'（问题仍在，但排程核心接受的改动都无法缓解它）' if decision.forced_imperfection else ''}。"]
    if decision.candidates:
        lines.append("候选改动（已由排程核心检验，可以直接用 move / swap 执行，执行前会请学生确认）：")
        lines += [f"{n}. {candidate_line(board, c)}" for n, c in enumerate(decision.candidates, start=1)]
    if decision.primary_problem == "capacity_gap":
        lines.append("请询问学生：延长任务类的结束日期、允许使用水课，或减少块数。")
    lines.append("decision=" + common.as_json(decision_json(board, decision)))
    return lines


def decision_json(board: Board, decision: Decision) -> dict[str, Any]:
    """The decision with each candidate's entry names (for the stored event and the model)."""
    data = decision.to_json()
    for candidate in data["candidates"]:
        for key in ("entry", "other"):
            if key in candidate:
                candidate[f"{key}_name"] = common.entry_on(board, candidate[key]).name
    return data


def window_line(report: Analysis) -> str:
    first, last = report.window.first, report.window.last
    return f"分析范围 {text.day_label(first)} 至 {text.day_label(last)}，共 {len(report.days)} 天。"
