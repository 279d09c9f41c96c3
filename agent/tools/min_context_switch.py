"""min_context_switch: hand chosen blocks' own places out again class by class, so fewer switches
between subjects (a write tool)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from agent.flow.working import Working
from agent.tools.support import common, rearranging
from agent.tools.support.base import Tool, ToolContext, ToolResult
from schedule.core.rearrange import min_context_switch


class MinContextSwitchTool(Tool):
    name = "min_context_switch"
    pack = "analysis"
    label = gettext_lazy("Group blocks by subject")
    description = ("在选定的学习块自己占着的位置之间重新分配，让同一科目的块挨在一起，减少一天内切换科目的次数"
                   "（只交换这些块之间的位置，不占用新的时间）。保持同一任务类的先后顺序（除非学生同意打乱顺序），"
                   "否则会被拒绝；全部成功才生效。")
    parameters = {
        "type": "object",
        "properties": {"task_ids": rearranging.TASK_IDS},
        "required": ["task_ids"],
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> str:
        return _("Regroup these blocks by subject in the places they hold: %(list)s.") % {
            "list": rearranging.card_names(ctx, working, args.get("task_ids"))}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, result = rearranging.rearranged(
            ctx, working, lambda board, order: min_context_switch(board, args["task_ids"], order=order))
        if isinstance(result, ToolResult):
            return result
        if not result.moves:
            return common.done(_("These blocks are already grouped by subject; nothing was moved."),
                               f"这些块已经按科目归在一起（切换 {result.before} 次），没有需要移动的。",
                               data={"moves": []}, working=current)
        summary = ngettext("Regrouped %(count)s block by subject.", "Regrouped %(count)s blocks by subject.",
                           len(result.moves)) % {"count": len(result.moves)}
        headline = f"最少上下文切换重排完成：移动了 {len(result.moves)} 个块；科目切换次数 {result.before} → {result.after}。"
        return rearranging.rearranged_done(current, result, headline=headline, summary=summary, figures="switches")


TOOL = MinContextSwitchTool()
