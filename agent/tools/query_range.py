"""query_range: one day of the working schedule, or a run of its sections, in detail."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import board_text as text
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from schedule.selectors import day_notes_get


class QueryRangeTool(Tool):
    name = "query_range"
    label = gettext_lazy("Look at one day's sections")
    pack = "schedule_read"
    description = ("查看某一天（或这天的某几节）的详细占用：每一节是空闲还是被哪个条目占用，"
                   "以及水课是否可嵌入。只给 date 时看整天。")
    parameters = {
        "type": "object",
        "properties": {
            "date": common.DATE_ARG,
            "start_section": {"type": "integer", "minimum": 1, "maximum": 16, "description": "起始节次（可选）"},
            "end_section": {"type": "integer", "minimum": 1, "maximum": 16, "description": "结束节次（可选）"},
        },
        "required": ["date"],
        "additionalProperties": False,
    }

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, changed = common.board(ctx, working)
        board, store = current.board, common.kept(current, changed)
        count = board.calendar.sections
        first, last = args.get("start_section", 1), args.get("end_section", count)
        try:
            day = common.window_day(board, args["date"])
            if not 1 <= first <= last <= count:
                raise common.BadArgument(f"节次范围要在 1-{count} 之间且开始不大于结束，收到 {first}-{last}。",
                                         code="invalid_section")
        except common.BadArgument as error:
            return common.failed(_("The day could not be read."), f"查询失败：{error.message}", code=error.code,
                                 working=store)
        lines = [text.occupancy_line(board, day), *school_calendar_lines(ctx, day)]
        for section in range(first, last + 1):
            here = board.overlapping(day, section, section)
            who = "；".join(f"{text.entry_label(e)}({text.status_label(board, e)})" for e in here) or "空"
            lines.append(f"第{section}节 {text.clock_label(board, section, section)}：{who}")
        return common.done(_("Looked at %(date)s.") % {"date": day.isoformat()}, "\n".join(lines), working=store)


TOOL = QueryRangeTool()


def school_calendar_lines(ctx: ToolContext, day: date) -> list[str]:
    """What the school calendar says about the day ("校历：国庆节 · 停课"), so the model can name a holiday."""
    with translation.override("zh-hans"):  # the tools speak Chinese to the model
        notes = [note.long for note in day_notes_get(user=common.user_of(ctx), on=day)]
    return [f"校历：{'；'.join(notes)}"] if notes else []
