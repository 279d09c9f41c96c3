"""query_tasks: list the student's quick notes by quadrant, keyword or deadline."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date, datetime, time, timedelta
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.quick_note_create import QUADRANTS
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from taskclasses.models import Task
from taskclasses.notes.selectors import TaskFilters, task_list

# Notes without a deadline come last whatever the order.
_ORDERINGS: dict[str, Callable[[Task], tuple[Any, ...]]] = {
    "deadline": lambda t: (*_deadline_last(t), t.quadrant, t.pk),
    "quadrant": lambda t: (t.quadrant, *_deadline_last(t), t.pk),
    "created": lambda t: (-t.created_at.timestamp(), t.pk),
}


def _deadline_last(task: Task) -> tuple[bool, float]:
    return task.deadline is None, task.deadline.timestamp() if task.deadline else 0.0


class QueryTasksTool(Tool):
    name = "query_tasks"
    label = gettext_lazy("Look up quick notes")
    pack = "notes"
    description = ("查询学生的随口记任务（四象限）：可按象限、关键词、截止日期范围筛选，按截止时间或象限排序。"
                   "默认不含已完成的，最多返回 limit 条（默认 5，最多 20）。")
    parameters = {
        "type": "object",
        "properties": {
            "quadrant": {"type": "integer", "enum": [1, 2, 3, 4]},
            "keyword": {"type": "string", "maxLength": 100},
            "deadline_after": {"type": "string", "format": "date", "description": "截止不早于这天 00:00（YYYY-MM-DD）"},
            "deadline_before": {"type": "string", "format": "date", "description": "截止不晚于这天 23:59（YYYY-MM-DD）"},
            "include_completed": {"type": "boolean", "description": "默认 false"},
            "sort_by": {"type": "string", "enum": ["deadline", "quadrant", "created"], "description": "默认 deadline"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 20},
        },
        "additionalProperties": False,
    }

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        user = common.user_of(ctx)
        try:
            after = self._day(args, "deadline_after")
            before = self._day(args, "deadline_before")
        except ValueError as exc:
            return common.failed(_("The quick notes could not be listed."), f"查询失败：{exc}", code="invalid_date")
        if after and before and after > before:
            return common.failed(_("The quick notes could not be listed."),
                                 "查询失败：deadline_after 晚于 deadline_before。", code="invalid_range")
        zone = user.zone
        # Quadrants as they stand at ctx.now (a due promotion counts); reading writes nothing.
        tasks = task_list(user=user, now=ctx.now, filters=TaskFilters(
            quadrant=args.get("quadrant"), keyword=args.get("keyword", ""),
            completed=None if args.get("include_completed") else False,
            deadline_after=datetime.combine(after, time.min, tzinfo=zone) if after else None,
            deadline_before=datetime.combine(before + timedelta(days=1), time.min, tzinfo=zone) if before else None))
        total = len(tasks)
        shown = sorted(tasks, key=_ORDERINGS[args.get("sort_by", "deadline")])[:args.get("limit", 5)]
        items = [{"id": t.pk, "title": t.title, "quadrant": t.quadrant, "quadrant_label": QUADRANTS[t.quadrant],
                  "completed": t.completed,
                  "deadline": t.deadline.astimezone(zone).strftime("%Y-%m-%d %H:%M") if t.deadline else None}
                 for t in shown]
        result = {"total": total, "items": items}
        return common.done(_("Listed %(count)s quick notes.") % {"count": len(items)}, common.as_json(result),
                           data={"total": total})

    @staticmethod
    def _day(args: Mapping[str, Any], key: str) -> date | None:
        if key not in args:
            return None
        try:
            return date.fromisoformat(args[key])
        except ValueError:
            raise ValueError(f"{key}={args[key]!r} 不是 YYYY-MM-DD 日期。") from None


TOOL = QueryTasksTool()
