"""What the schedule tools share: the board for a call, result builders, and the write path."""

from __future__ import annotations

import json
from typing import Any, Mapping

from django.utils.translation import gettext as _

from accounts.models import User
from agent.tools import working_ops as ops
from agent.tools.base import ToolContext, ToolResult
from agent.tools.working_schedule import working_load

DATE_ARG = {"type": "string", "description": "日期，YYYY-MM-DD，必须在规划窗口内", "format": "date"}
START_ARG = {"type": "integer", "minimum": 1, "maximum": 15, "description": "开始节次，奇数（1、3、5…）"}
ID_ARG = {"type": "integer", "minimum": 1, "description": "条目编号（get_overview / query_target_tasks 中的 [编号]）"}


def user_of(ctx: ToolContext) -> User:
    """The student the server says is asking; never an id from the model."""
    return User.objects.get(pk=ctx.user_id)


def board(ctx: ToolContext, working: dict[str, Any] | None) -> tuple[dict[str, Any], bool]:
    """Return the working schedule for this call and whether it was loaded just now.

    A missing schedule, or one that belongs to someone else, is loaded from the student's data.
    """
    if working and working.get("user_id") == ctx.user_id and working.get("version") == 1:
        return working, False
    return working_load(user=user_of(ctx), now=ctx.now, task_class_ids=ctx.task_class_ids), True


def done(summary: str, content: str, *, data: Mapping[str, Any] | None = None,
         working: dict[str, Any] | None = None) -> ToolResult:
    return ToolResult(status="done", summary=summary, content=content, data=dict(data or {}), working=working)


def failed(summary: str, content: str, *, code: str, working: dict[str, Any] | None = None,
           status: str = "failed") -> ToolResult:
    return ToolResult(status=status, summary=summary, content=content, data={"code": code},  # type: ignore[arg-type]
                      working=working)


def refused(exc: ops.EditRefused, *, working: dict[str, Any] | None = None) -> ToolResult:
    """A refused edit: the model reads why and what would work; the board is unchanged."""
    return ToolResult(status="failed", summary=_("The change was refused: nothing was changed."),
                      content=f"操作失败，日程未改动：{exc.message}", data={"code": exc.code, **exc.detail},
                      working=working)


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def entry_or_none(working: dict[str, Any] | None, state_id: Any) -> dict[str, Any] | None:
    try:
        return ops.entry_get(working, state_id) if working else None
    except ops.EditRefused:
        return None


def movable(entry: Mapping[str, Any]) -> None:
    """Refuse courses, custom events, filler hosts and blocks that have begun."""
    if entry["locked"] or entry["filler"]:
        why = "是课程或学生自己的日程" if entry["kind"] in ("course", "custom") else "已经开始或被锁定"
        raise ops.EditRefused(f"{ops.entry_label(entry)} {why}，不能移动或删除。", code="locked")


def placed(entry: Mapping[str, Any]) -> None:
    if entry.get("at") is None:
        raise ops.EditRefused(f"{ops.entry_label(entry)} 还没有安排位置，请用 place。", code="not_placed")


def target_label(working: Mapping[str, Any], entry: Mapping[str, Any]) -> str:
    """Where an entry sits now, for the model: day, sections, times, host."""
    if not entry.get("at"):
        return "未安排"
    text = ops.where_label(working, entry["at"])
    if entry.get("host") is not None:
        host = ops.entry_get(working, entry["host"])
        text += f"，嵌入水课{ops.entry_label(host)}"
    return text


def human_when(working: Mapping[str, Any], raw_day: Any, start: Any, length: int) -> str:
    """An English-neutral label of a target for confirmation cards: 2026-09-24 (Thu) 10:15-11:55."""
    try:
        from datetime import date

        day = date.fromisoformat(str(raw_day))
        end = int(start) + length - 1
        sections = working["sections"]
        return f"{day.isoformat()} ({day.strftime('%a')}) {sections[int(start) - 1][0]}-{sections[end - 1][1]}"
    except (ValueError, IndexError, TypeError):
        return f"{raw_day}, section {start}"


def after_edit(working: dict[str, Any], days: list[str]) -> str:
    """The days an edit touched, and how many entries still wait."""
    lines = [ops.occupancy_line(working, day) for day in dict.fromkeys(days)]
    waiting = sum(1 for e in working["entries"] if e["status"] == "pending")
    lines.append(f"待安排条目剩余：{waiting} 个。")
    return "\n".join(lines)
