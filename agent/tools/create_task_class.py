"""create_task_class: write a study plan (a task class with ordered blocks) from the conversation."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from agent.tools.support.once import call_once
from agent.tools.support.working_schedule import working_load
from schedule.exams.selectors import exam_list
from smartmate.platform.exceptions import AppError
from taskclasses.models import TaskClass
from taskclasses.plans.services import task_class_create


class CreateTaskClassTool(Tool):
    name = "create_task_class"
    label = gettext_lazy("Create a task class")
    pack = "task_classes"
    description = ("新建一个任务类（学习计划）：名称、起止日期、按顺序的学习块（items 给出每块内容，或 item_count 给出块数），"
                   "策略 steady（均匀分布）或 rapid（集中突击），可排除节次对（1=1-2节…）和星期（1=周一…7=周日），"
                   "是否允许嵌入水课。策略 spaced（间隔复习）须用 exam 指定一场考试（考试 id 或标题）：复习块按 1、2、4、7、14…"
                   "天倒推排在考试前。学生确认后才写入；之后可以对它做粗排。")
    parameters = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 100},
            "start_date": {"type": "string", "format": "date", "description": "YYYY-MM-DD"},
            "end_date": {"type": "string", "format": "date", "description": "YYYY-MM-DD"},
            "items": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 200},
                      "minItems": 1, "maxItems": 200},
            "item_count": {"type": "integer", "minimum": 1, "maximum": 200},
            "strategy": {"type": "string", "enum": ["steady", "rapid", "spaced"]},
            "exam": {"type": ["integer", "string"], "description": "spaced 的考试：考试 id，或考试标题"},
            "excluded_pairs": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 8}},
            "excluded_days": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 7}},
            "allow_filler": {"type": "boolean"},
        },
        "required": ["name", "start_date", "end_date"],
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> str:
        count = len(args.get("items") or []) or args.get("item_count") or 0
        return _("Create the study plan “%(name)s” with %(count)s blocks, %(start)s to %(end)s.") % {
            "name": args.get("name"), "count": count, "start": args.get("start_date"), "end": args.get("end_date")}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        user = common.user_of(ctx)
        if "items" in args and "item_count" in args:
            return common.failed(_("The study plan was not created."), "items 和 item_count 只能给一个。",
                                 code="items_and_count")
        if "items" not in args and "item_count" not in args:
            return common.failed(_("The study plan was not created."), "请给出 items（每块内容）或 item_count（块数）。",
                                 code="empty_class")
        try:
            start, end = date.fromisoformat(args["start_date"]), date.fromisoformat(args["end_date"])
        except ValueError:
            return common.failed(_("The study plan was not created."), "日期请用 YYYY-MM-DD。", code="invalid_date")
        exam_id, problem = _exam_id(user, args.get("exam"))
        if problem:
            return common.failed(_("The study plan was not created."), problem, code="exam_not_found")

        def write() -> dict[str, Any]:
            task_class = task_class_create(
                user=user, name=args["name"], start_date=start, end_date=end,
                strategy=args.get("strategy", TaskClass.Strategy.STEADY),
                excluded_pairs=args.get("excluded_pairs", ()), excluded_days=args.get("excluded_days", ()),
                allow_filler=args.get("allow_filler", True), items=args.get("items"),
                item_count=args.get("item_count"), exam_id=exam_id)
            return {"task_class_id": task_class.pk}

        try:
            body, _again = call_once(user=user, call_id=ctx.call_id, name=self.name, args=args, now=ctx.now,
                                     write=write)
        except AppError as exc:
            return common.failed(_("The study plan was not created."), f"创建失败：{exc.message}", code=exc.code)
        task_class = TaskClass.objects.filter(user=user, pk=body["task_class_id"]).first()
        if task_class is None:
            return common.failed(_("The study plan was not created."), "这个任务类已被删除。", code="task_class_gone")
        new, current = None, common.readable(ctx, working)
        if current is not None:
            new = working_load(user=user, now=ctx.now, previous=current,
                               task_class_ids=[*current.board.planned_class_ids, task_class.pk])
        result = {"task_class_id": task_class.pk, "name": task_class.name, "items": task_class.items.count(),
                  "start_date": task_class.start_date.isoformat(), "end_date": task_class.end_date.isoformat(),
                  "strategy": task_class.strategy}
        if task_class.exam is not None:
            result["exam"] = {"id": task_class.exam.pk, "title": task_class.exam.title,
                              "date": task_class.exam.date.isoformat()}
        return common.done(_("Created the study plan “%(name)s”.") % {"name": task_class.name},
                           common.as_json(result), data=result, working=new)


def _exam_id(user: Any, exam: int | str | None) -> tuple[int | None, str]:
    """The student's exam named by id or by title (exactly one), else why not (for the model, in Chinese)."""
    if exam is None or exam == "":
        return None, ""
    exams = exam_list(user=user)
    if isinstance(exam, int) and not isinstance(exam, bool):
        found = list(exams.filter(pk=exam)) if 0 < exam < 2**63 else []
    else:
        found = list(exams.filter(title__iexact=str(exam).strip()))
    if len(found) == 1:
        return found[0].pk, ""
    if not found:
        return None, f"没有找到考试“{exam}”：先用考试 id，或先在考试页面添加它。"
    return None, f"有 {len(found)} 场考试叫“{exam}”：请用考试 id 指定。"


TOOL = CreateTaskClassTool()
