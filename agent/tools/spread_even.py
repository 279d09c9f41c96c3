"""spread_even: move chosen study blocks so each class's blocks spread evenly over its days (a write tool)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from agent.flow.working import Working
from agent.tools.support import analysis_text as words
from agent.tools.support import common, rearranging
from agent.tools.support.base import Tool, ToolContext, ToolResult
from schedule.core.rearrange import spread_even


class SpreadEvenTool(Tool):
    name = "spread_even"
    pack = "analysis"
    label = gettext_lazy("Spread blocks evenly")
    description = ("把选定的已有位置的学习块或随口记重新均匀分布：每个任务类的块按顺序分散到它的日期范围内，"
                   "避开已经偏满的日子。保持同一任务类的先后顺序（除非学生同意打乱顺序）；课程、固定日程和已开始的条目不能动。"
                   "全部成功才生效，任何一步不行则日程不变。")
    parameters = {
        "type": "object",
        "properties": {"task_ids": rearranging.TASK_IDS, **words.RANGE_PROPERTIES},
        "required": ["task_ids"],
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> str:
        return _("Spread these blocks evenly over their days: %(list)s.") % {
            "list": rearranging.card_names(ctx, working, args.get("task_ids"))}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, result = rearranging.rearranged(ctx, working, lambda board, order: spread_even(
            board, args["task_ids"], first=words.date_or_none(args.get("date_from")),
            last=words.date_or_none(args.get("date_to")), order=order))
        if isinstance(result, ToolResult):
            return result
        if not result.moves:
            return common.done(_("These blocks are already spread evenly; nothing was moved."),
                               "这些块已经分布均匀，没有需要移动的。", data={"moves": []}, working=current)
        summary = ngettext("Spread %(count)s block more evenly.", "Spread %(count)s blocks more evenly.",
                           len(result.moves)) % {"count": len(result.moves)}
        headline = f"均匀化调整完成：移动了 {len(result.moves)} 个块；单日最多 {result.before} 块 → {result.after} 块。"
        return rearranging.rearranged_done(current, result, headline=headline, summary=summary,
                                           figures="most_per_day")


TOOL = SpreadEvenTool()
