"""get_task_info: everything about one entry of the working schedule."""

from __future__ import annotations

from typing import Any, Mapping

from django.utils.translation import gettext as _

from agent.tools import common
from agent.tools import working_ops as ops
from agent.tools.base import Tool, ToolContext, ToolResult

KINDS = {"course": "课程（来自课表）", "custom": "学生自己的日程", "task_item": "任务类学习块", "quick_note": "随口记任务"}


class GetTaskInfoTool(Tool):
    name = "get_task_info"
    description = "查看一个条目的详情：名称、类型、状态、是否固定、时长、位置（含真实日期时间）、所属任务类和顺序、嵌入关系。"
    parameters = {
        "type": "object",
        "properties": {"task_id": common.ID_ARG},
        "required": ["task_id"],
        "additionalProperties": False,
    }

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: dict[str, Any] | None) -> ToolResult:
        working, fresh = common.board(ctx, working)
        keep = working if fresh else None
        try:
            entry = ops.entry_get(working, args["task_id"])
        except ops.EditRefused as exc:
            return common.failed(_("No such item."), f"查询失败：{exc.message}", code=exc.code, working=keep)
        lines = [f"{ops.entry_label(entry)}：{KINDS[entry['kind']]}，{ops.status_label(entry)}，时长 {entry['sections']} 节",
                 f"位置：{common.target_label(working, entry)}"]
        if ops.is_moved(entry):
            lines.append(f"课表中原位置：{ops.where_label(working, entry['origin'])}")
        meta = working["classes"].get(str(entry.get("class_id")))
        if meta:
            lines.append(f"任务类 #{meta['id']}「{meta['name']}」第 {entry['order']} 项")
        guests = [e for e in working["entries"] if e.get("host") == entry["id"]]
        if guests:
            lines.append("嵌入其中的学习块：" + "、".join(ops.entry_label(g) for g in guests))
        if entry.get("deadline"):
            lines.append(f"截止时间：{entry['deadline'][:16].replace('T', ' ')}")
        if entry["locked"] or entry["filler"]:
            lines.append("不能移动或删除。")
        return common.done(_("Looked at “%(name)s”.") % {"name": entry["name"]}, "\n".join(lines),
                           data={"id": entry["id"]}, working=keep)


TOOL = GetTaskInfoTool()
