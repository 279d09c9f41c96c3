"""quick_note_create: write a quick note (a four-quadrant task) from what the student said."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from agent.tools.support.once import call_once
from board.boards import note_entry
from schedule.core.board import add_pending
from smartmate.platform.exceptions import AppError
from taskclasses.models import Task
from taskclasses.notes.services import task_create_from_text

# The original product's four queues (QUICK-ADD.md), as the model reads and writes them.
QUADRANTS = {1: "重要并紧急", 2: "重要不紧急", 3: "简单不重要", 4: "不简单不重要"}


class QuickNoteCreateTool(Tool):
    name = "quick_note_create"
    label = gettext_lazy("Jot down a quick note")
    pack = "notes"
    description = ("新建一条随口记任务（四象限）。text 写学生的原话（含时间说法，如「下周日之前交概率论作业」），"
                   "系统会解析标题、截止时间和象限；确有把握时可以用 quadrant 指定象限（1 重要并紧急：重要且48小时内到期或尽快，"
                   "2 重要不紧急，3 简单不重要：不费时的小事，如跑腿、琐事、聚餐、参加社团例会，"
                   "4 不简单不重要：费时费力的事，如长游戏、拼乐高、学乐器）。新任务会作为待安排条目出现在工作日程里。")
    parameters = {
        "type": "object",
        "properties": {
            "text": {"type": "string", "minLength": 1, "maxLength": 500, "description": "随口记原文"},
            "quadrant": {"type": "integer", "enum": [1, 2, 3, 4], "description": "象限（可选）"},
        },
        "required": ["text"],
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> str:
        return _("Save the quick note “%(text)s”.") % {"text": args.get("text", "")}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        user = common.user_of(ctx)
        overrides = {"quadrant": args["quadrant"]} if "quadrant" in args else {}

        def write() -> dict[str, Any]:
            task = task_create_from_text(user=user, text=args["text"], now=ctx.now, **overrides)
            return {"task_id": task.pk}

        try:
            body, _again = call_once(user=user, call_id=ctx.call_id, name=self.name, args=args, now=ctx.now,
                                     write=write)
        except AppError as exc:
            return common.failed(_("The quick note was not saved."), f"创建失败：{exc.message}", code=exc.code)
        task = Task.objects.filter(user=user, pk=body["task_id"]).first()
        if task is None:
            return common.failed(_("The quick note was not saved."), "这条随口记已被删除。", code="task_gone")
        new = self._with_note(common.readable(ctx, working), task)
        result = {"task_id": task.pk, "title": task.title, "quadrant": task.quadrant,
                  "quadrant_label": QUADRANTS[task.quadrant],
                  "deadline": task.deadline.astimezone(user.zone).strftime("%Y-%m-%d %H:%M")
                  if task.deadline else None}
        if new is not None:
            note = new.board.find(task_id=task.pk)
            assert note is not None, task.pk  # _with_note has just put it there
            result["entry_id"] = note.id
        return common.done(_("Saved the quick note “%(title)s”.") % {"title": task.title}, common.as_json(result),
                           data=result, working=new)

    @staticmethod
    def _with_note(working: Working | None, task: Task) -> Working | None:
        """The conversation's board with the new note waiting on it (None: no board yet, or already there)."""
        if working is None or working.board.find(task_id=task.pk) is not None:
            return None
        board, _entry_id = add_pending(working.board, note_entry(task, working.board.calendar))
        return working.with_board(board)


TOOL = QuickNoteCreateTool()
