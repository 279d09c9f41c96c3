"""query_available_slots: where a block of a given length could go: free time first, then filler courses."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import board_text as text
from agent.tools.support import common, rules_text
from agent.tools.support.base import Tool, ToolContext, ToolResult
from schedule.core.board import Board, Entry
from schedule.core.board_errors import UnknownEntry
from schedule.core.board_suggest import openings, probe

DEFAULT_LIMIT = 12
MAX_LIMIT = 50


class QueryAvailableSlotsTool(Tool):
    name = "query_available_slots"
    label = gettext_lazy("Find free time")
    pack = "schedule_read"
    description = ("查找可以放下一个块的位置：先列空闲时段，再列可嵌入的水课。开始节次都是奇数。"
                   "给 task_id 时按该条目的时长和所属任务类的约束（窗口、排除节次/星期、是否允许水课）查找；"
                   "也可以用 task_class_id 套用某任务类的约束。可按日期、工作日/周末、星期、教学周范围、节次范围、时长筛选。")
    parameters = {
        "type": "object",
        "properties": {
            "task_id": {**common.ID_ARG, "description": "按这个条目的时长和任务类约束查找（可选）"},
            "task_class_id": {"type": "integer", "minimum": 1, "description": "套用这个任务类的约束（可选）"},
            "duration": {"type": "integer", "minimum": 1, "maximum": 16, "description": "块的节数，默认 2"},
            "date": {**common.DATE_ARG, "description": "只查这一天（可选）"},
            "date_from": {**common.DATE_ARG, "description": "从这天起（可选）"},
            "date_to": {**common.DATE_ARG, "description": "到这天止（可选）"},
            "day_scope": {"type": "string", "enum": ["all", "weekday", "weekend"], "description": "默认 all"},
            "weekdays": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 7},
                         "description": "只要这些星期（1=周一…7=周日）"},
            "week_from": {"type": "integer", "minimum": 1, "maximum": 30, "description": "教学周起"},
            "week_to": {"type": "integer", "minimum": 1, "maximum": 30, "description": "教学周止"},
            "section_from": {"type": "integer", "minimum": 1, "maximum": 16, "description": "块不早于这一节开始"},
            "section_to": {"type": "integer", "minimum": 1, "maximum": 16, "description": "块不晚于这一节结束"},
            "allow_embed": {"type": "boolean", "description": "是否也列出可嵌入的水课，默认 true"},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "description": "最多返回几个，默认 12"},
        },
        "additionalProperties": False,
    }

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, changed = common.board(ctx, working)
        board, store = current.board, common.kept(current, changed)
        try:
            subject = self._subject(board, args)
            days = self._days(board, args)
        except common.BadArgument as error:
            return common.failed(_("The search for free time failed."), f"查询失败：{error.message}", code=error.code,
                                 working=store)
        except UnknownEntry as error:
            return common.refused(error, current, store=store)
        low, high = args.get("section_from", 1), args.get("section_to", board.calendar.sections)
        found = [o for o in openings(board, subject, days=days) if low <= o.start and o.end <= high]
        free = [o for o in found if o.host is None]
        embed = [o for o in found if o.host is not None] if args.get("allow_embed", True) else []
        limit = args.get("limit", DEFAULT_LIMIT)
        chosen = (free + embed)[:limit]
        lines = [f"时长 {subject.length} 节；空闲 {len(free)} 处，可嵌入水课 "
                 f"{sum(1 for o in found if o.host is not None)} 处；列出 {len(chosen)} 处："]
        lines += [f"- {text.day_label(o.day)} {text.sections_label(o.start, o.end)} {text.clock_label(board, o.start, o.end)} "
                  + ("空闲" if o.host is None else f"可嵌入水课{text.entry_label(common.entry_on(board, o.host))}")
                  for o in chosen]
        if not chosen:
            lines.append("没有符合条件的位置，可以放宽筛选条件（日期、节次、是否允许水课）。")
        lines += self._why_not(board, subject, days, ctx)
        return common.done(_("Looked for free time."), "\n".join(lines),
                           data={"free": len(free), "embeddable": len(found) - len(free)}, working=store)

    @staticmethod
    def _why_not(board: Board, subject: Entry, days: list[date], ctx: ToolContext) -> list[str]:
        """What besides the plan's own limits keeps times out: a pin, the student's rules, the school calendar."""
        lines = []
        if subject.pinned:
            lines.append(f"{text.entry_label(subject)} 已固定：在学生取消固定之前不能移动。")
        lines += [line for line in (rules_text.rules_line(board),) if line]
        return lines + rules_text.calendar_lines(common.user_of(ctx), tuple(days))

    @staticmethod
    def _subject(board: Board, args: Mapping[str, Any]) -> Entry:
        """The block to find room for: an entry of the board, or a stand-in of a length and class."""
        if "task_id" in args:
            entry = board.get(args["task_id"])
            if entry is None:
                raise UnknownEntry(entry=args["task_id"])
            if "duration" in args and args["duration"] != entry.length:
                raise common.BadArgument(f"{text.entry_label(entry)} 的时长是 {entry.length} 节，不要同时给不同的 duration。",
                                         code="duration_mismatch")
            return entry
        class_id = args.get("task_class_id")
        if class_id is not None and board.class_rules(class_id) is None:
            loaded = "、".join(f"#{c.id}" for c in board.classes) or "无"
            raise common.BadArgument(f"工作日程里没有任务类 #{class_id}；已加载的任务类：{loaded}。",
                                     code="unknown_task_class")
        length = args.get("duration", 2)
        if length > board.calendar.sections:
            raise common.BadArgument(f"一天只有 {board.calendar.sections} 节。", code="invalid_duration")
        return probe(length, class_id=class_id)

    @staticmethod
    def _days(board: Board, args: Mapping[str, Any]) -> list[date]:
        days = list(board.days())
        if "date" in args:
            days = [common.window_day(board, args["date"])]
        if "date_from" in args:
            days = [d for d in days if d >= common.window_day(board, args["date_from"])]
        if "date_to" in args:
            days = [d for d in days if d <= common.window_day(board, args["date_to"])]
        scope = args.get("day_scope", "all")
        days = [d for d in days if scope == "all" or (d.isoweekday() >= 6) == (scope == "weekend")]
        if args.get("weekdays"):
            days = [d for d in days if d.isoweekday() in set(args["weekdays"])]
        weeks = range(args.get("week_from", 0), args.get("week_to", 99) + 1)
        return [d for d in days if board.calendar.week_day(d)[0] in weeks]


TOOL = QueryAvailableSlotsTool()
