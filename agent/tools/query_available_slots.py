"""query_available_slots: where a block of a given length could go: free time first, then filler courses."""

from __future__ import annotations

from datetime import date
from typing import Any, Mapping

from django.utils.translation import gettext as _

from agent.tools import common
from agent.tools import working_ops as ops
from agent.tools.base import Tool, ToolContext, ToolResult

DEFAULT_LIMIT = 12
MAX_LIMIT = 50


class QueryAvailableSlotsTool(Tool):
    name = "query_available_slots"
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

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> ToolResult:
        working, fresh = common.board(ctx, working)
        keep = working if fresh else None
        try:
            probe = self._probe(working, args)
            days = self._days(working, args)
        except ops.EditRefused as exc:
            return common.failed(_("The search for free time failed."), f"查询失败：{exc.message}", code=exc.code,
                                 working=keep)
        limit = args.get("limit", DEFAULT_LIMIT)
        free, embed = self._scan(working, probe, days, args, ctx)
        chosen = free[:limit] + (embed[:limit - len(free[:limit])] if args.get("allow_embed", True) else [])
        lines = [f"时长 {probe['sections']} 节；空闲 {len(free)} 处，可嵌入水课 {len(embed)} 处；列出 {len(chosen)} 处："]
        lines += [f"- {ops.day_label(day)} {ops.sections_label(start, start + probe['sections'] - 1)}"
                  f" {ops.clock_label(working, start, start + probe['sections'] - 1)} {what}"
                  for day, start, what in chosen]
        if not chosen:
            lines.append("没有符合条件的位置，可以放宽筛选条件（日期、节次、是否允许水课）。")
        return common.done(_("Looked for free time."), "\n".join(lines),
                           data={"free": len(free), "embeddable": len(embed)}, working=keep)

    @staticmethod
    def _probe(working: dict[str, Any], args: Mapping[str, Any]) -> dict[str, Any]:
        if "task_id" in args:
            entry = dict(ops.entry_get(working, args["task_id"]))
            if "duration" in args and args["duration"] != entry["sections"]:
                raise ops.EditRefused(f"{ops.entry_label(entry)} 的时长是 {entry['sections']} 节，不要同时给不同的 duration。",
                                      code="duration_mismatch")
            return entry
        class_id = args.get("task_class_id")
        if class_id is not None and str(class_id) not in working["classes"]:
            raise ops.EditRefused(f"工作日程里没有任务类 #{class_id}；已加载的任务类："
                                  + ("、".join(f"#{k}" for k in working["classes"]) or "无") + "。",
                                  code="unknown_task_class")
        length = args.get("duration", 2)
        if length > ops.section_count(working):
            raise ops.EditRefused(f"一天只有 {ops.section_count(working)} 节。", code="invalid_duration")
        return {"id": -1, "kind": "task_item" if class_id else "probe", "class_id": class_id, "sections": length,
                "name": "", "filler": False, "locked": False}

    @staticmethod
    def _days(working: dict[str, Any], args: Mapping[str, Any]) -> list[date]:
        days = ops.window_dates(working)
        if "date" in args:
            days = [ops.parse_date(working, args["date"])]
        if "date_from" in args:
            days = [d for d in days if d >= ops.parse_date(working, args["date_from"])]
        if "date_to" in args:
            days = [d for d in days if d <= ops.parse_date(working, args["date_to"])]
        scope = args.get("day_scope", "all")
        days = [d for d in days if scope == "all" or (d.isoweekday() >= 6) == (scope == "weekend")]
        if args.get("weekdays"):
            days = [d for d in days if d.isoweekday() in set(args["weekdays"])]
        start = date.fromisoformat(working["semester"]["start"])
        week = lambda d: (d - start).days // 7 + 1  # noqa: E731
        return [d for d in days if args.get("week_from", 0) <= week(d) <= args.get("week_to", 99)]

    @staticmethod
    def _scan(working: dict[str, Any], probe: dict[str, Any], days: list[date], args: Mapping[str, Any],
              ctx: ToolContext) -> tuple[list, list]:
        length, free, embed = probe["sections"], [], []
        low, high = args.get("section_from", 1), args.get("section_to", ops.section_count(working))
        meta = working["classes"].get(str(probe.get("class_id")))
        for day in days:
            for start in range(1, ops.section_count(working) - length + 2, 2):
                end = start + length - 1
                if start < low or end > high or ops.starts_at(working, day, start) <= ctx.now:
                    continue
                try:
                    ops.class_rules_check(working, probe, day, start, end)
                except ops.EditRefused:
                    continue
                found = ops.overlapping(working, day.isoformat(), start, end, ignore={probe["id"]})
                if not found:
                    free.append((day, start, "空闲"))
                elif (len(found) == 1 and found[0]["filler"] and found[0]["at"]["start"] <= start
                      and end <= found[0]["at"]["end"] and probe["kind"] in ("task_item", "probe")
                      and (meta is None or meta["allow_filler"])):
                    embed.append((day, start, f"可嵌入水课{ops.entry_label(found[0])}"))
        return free, embed


TOOL = QueryAvailableSlotsTool()
