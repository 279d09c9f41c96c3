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

from agent.flow.working import Working
from agent.tools.support import board_text as text
from agent.tools.support import common
from agent.tools.support.base import ToolContext, ToolResult
from schedule.core.analysis import (
    DIMENSIONS,
    THRESHOLDS,
    Analysis,
    Candidate,
    Decision,
    EmptyWindowError,
    UnknownDimensionError,
    analyze,
)
from schedule.core.board import Board

RANGE_PROPERTIES = {
    "date_from": {"type": "string", "format": "date", "description": "从哪天开始分析（YYYY-MM-DD，默认今天）"},
    "date_to": {"type": "string", "format": "date", "description": "分析到哪天（YYYY-MM-DD，默认规划窗口最后一天）"},
    "suggested_only": {"type": "boolean",
                       "description": "只为还没写入课表的建议块给出候选（粗排后的优化只动建议；默认 false）"},
}

THRESHOLD_ARG = {"type": "string", "enum": list(THRESHOLDS),
                 "description": "判定有多严：strict（半天占满就算偏满，一天切换超过 1 次就算频繁，同一科目连续 2 块就算太久）、"
                                "normal（默认：三分之二、2 次、3 块）、relaxed（四分之三、3 次、4 块）"}
DETAIL_ARG = {"type": "string", "enum": ["summary", "full"],
              "description": "summary（默认）：天数多时只列偏满的日子；full：列出每一天的负荷"}
DIMENSION_TEXT = {"capacity": "容量缺口", "tightness": "紧张度", "fragmentation": "碎片化", "heavy_days": "偏满的日子",
                  "context_switches": "科目切换", "longest_run": "同一科目最长连续", "heavy_adjacent": "连续偏满的日子"}


def dimensions_arg(names: tuple[str, ...]) -> dict[str, Any]:
    """The ``dimensions`` argument: which of ``names`` to look at (none given: all of them)."""
    return {"type": "array", "minItems": 1, "maxItems": len(names), "items": {"type": "string", "enum": list(names)},
            "description": "要分析的维度（默认全部）：" + "、".join(f"{n}={DIMENSION_TEXT[n]}" for n in names)
                           + "。结论只考虑这些维度的问题。"}


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
        first, last = _range(args)
        report = analyze(current.board, first=first, last=last, order=common.order_rule(ctx),
                         only_suggested=bool(args.get("suggested_only")),
                         thresholds=THRESHOLDS[args.get("threshold") or "normal"],
                         dimensions=chosen_dimensions(args))
    except common.BadArgument as error:
        return current, store, common.argument_failed(error, _("Nothing was analysed."), store=store)
    except UnknownDimensionError:
        unknown = common.BadArgument(f"dimensions 只能取 {', '.join(DIMENSIONS)} 中的值。", code="unknown_dimension")
        return current, store, common.argument_failed(unknown, _("Nothing was analysed."), store=store)
    except EmptyWindowError as error:
        return current, store, empty_window(current.board, error, store)
    return current, store, report


def chosen_dimensions(args: Mapping[str, Any]) -> tuple[str, ...]:
    """The dimensions asked for, once each, in the order they are known (none asked: all)."""
    asked = set(args.get("dimensions") or DIMENSIONS)
    return tuple(name for name in DIMENSIONS if name in asked) or tuple(asked)


def _range(args: Mapping[str, Any]) -> tuple[date | None, date | None]:
    first, last = date_or_none(args.get("date_from")), date_or_none(args.get("date_to"))
    if first is not None and last is not None and first > last:
        raise common.BadArgument(f"date_from（{first.isoformat()}）晚于 date_to（{last.isoformat()}），"
                                 "请把开始日期放在前面。", code="reversed_range")
    return first, last


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


def rhythm_lines(board: Board, report: Analysis, asked: set[str]) -> list[str]:
    """The rhythm figures of the dimensions asked for, one line each."""
    rhythm, lines = report.rhythm, []
    if "context_switches" in asked:
        switches = "；".join(f"{text.day_label(day)} {count} 次" for day, count in rhythm.switches) or "无"
        lines.append(f"科目切换：共 {rhythm.total_switches} 次，单日最多 {rhythm.max_switches} 次（{switches}）。")
    if "longest_run" in asked:
        where = ""
        if rhythm.longest_run_day is not None:
            rules = board.class_rules(rhythm.longest_run_class) if rhythm.longest_run_class else None
            where = f"（{text.day_label(rhythm.longest_run_day)}{f'「{rules.name}」' if rules is not None else ''}）"
        lines.append(f"同一科目一天内最长连续 {rhythm.longest_run} 块{where}。")
    if "heavy_adjacent" in asked:
        adjacent = "；".join(f"{text.day_label(a)} 与 {text.day_label(b)}" for a, b in rhythm.heavy_adjacent) or "无"
        lines.append(f"连续偏满的日子：{adjacent}。")
    return lines


def window_line(report: Analysis) -> str:
    first, last = report.window.first, report.window.last
    return f"分析范围 {text.day_label(first)} 至 {text.day_label(last)}，共 {len(report.days)} 天。"
