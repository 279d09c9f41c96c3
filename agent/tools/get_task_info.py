"""get_task_info: everything about one entry of the working schedule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import board_text as text
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from schedule.core.board import Kind
from schedule.core.board_errors import UnknownEntry

KINDS = {Kind.COURSE: "课程（来自课表）", Kind.CUSTOM: "学生自己的日程", Kind.STUDY: "任务类学习块",
         Kind.NOTE: "随口记任务"}


class GetTaskInfoTool(Tool):
    name = "get_task_info"
    label = gettext_lazy("Look at one item's details")
    pack = "schedule_read"
    description = "查看一个条目的详情：名称、类型、状态、是否固定、时长、位置（含真实日期时间）、所属任务类和顺序、嵌入关系。"
    parameters = {
        "type": "object",
        "properties": {"task_id": common.ID_ARG},
        "required": ["task_id"],
        "additionalProperties": False,
    }

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, changed = common.board(ctx, working)
        board, store = current.board, common.kept(current, changed)
        entry = board.get(args["task_id"])
        if entry is None:
            return common.refused(UnknownEntry(entry=args["task_id"]), current, store=store)
        lines = [f"{text.entry_label(entry)}：{KINDS[entry.kind]}，{text.status_label(board, entry)}，时长 {entry.length} 节",
                 f"位置：{text.target_label(board, entry)}"]
        if entry.moved and entry.origin is not None:
            lines.append(f"课表中原位置：{text.where_label(board, entry.origin)}")
        rules = board.rules_of(entry)
        if rules is not None:
            lines.append(f"任务类 #{rules.id}「{rules.name}」第 {entry.order} 项")
        guests = board.guests_of(entry.id)
        if guests:
            lines.append("嵌入其中的学习块：" + "、".join(text.entry_label(g) for g in guests))
        if entry.deadline is not None:
            lines.append(f"截止时间：{entry.deadline.astimezone(board.calendar.semester.zone):%Y-%m-%d %H:%M}")
        if board.is_locked(entry):
            lines.append("不能移动或删除。")
        return common.done(_("Looked at “%(name)s”.") % {"name": entry.name}, "\n".join(lines),
                           data={"id": entry.id}, working=store)


TOOL = GetTaskInfoTool()
