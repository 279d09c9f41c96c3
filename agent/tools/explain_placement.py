"""explain_placement: why one block of the working schedule sits where it sits (a read tool).

The reason was computed when the block was placed (the planner, a catch-up, a repair, or the
student's own hand: ``schedule.core.planning.reasons``) and kept with it: on the study item once
applied, in the preview's rows before, and in the conversation's working schedule before that. It
is read here for the student's own blocks only, and rendered in the student's language by the same
table the week board uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import board_text as text
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from board.placement_reasons import placement_reason_text
from schedule.core.board import FIXED_KINDS, Entry, Kind
from schedule.core.board_errors import UnknownEntry
from schedule.models import PlanPreview
from taskclasses.models import TaskItem


class ExplainPlacementTool(Tool):
    name = "explain_placement"
    label = gettext_lazy("Say why a block is where it is")
    pack = "schedule_read"
    description = ("说明一个条目为什么放在现在的位置：计划器的理由（在第几项之后最早的空闲时段、避开了哪些排除的时间、"
                   "均匀分布每周几项）、学生手动放置、补上落下的复习或修复时的挪动。只读。")
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
        why = _explanation(entry, ctx.user_id, current.reason_of(entry))
        lines = [f"{text.entry_label(entry)}：{text.target_label(board, entry)}", why]
        return common.done(_("Looked at why “%(name)s” is there.") % {"name": entry.name}, "\n".join(lines),
                           data={"id": entry.id}, working=store)


def _explanation(entry: Entry, user_id: int, suggested_reason: dict | None) -> str:
    if entry.kind in FIXED_KINDS or entry.filler:
        return "这是课表里的课程或学生自己的日程，位置是固定的，不是计划器安排的。"
    if entry.kind is not Kind.STUDY or entry.item_id is None:
        return "这是随口记任务，放在学生或助手选的时间，没有记录计划器的理由。"
    if entry.place is None:
        return "这一项还没有位置。"
    if entry.suggested or entry.moved:
        # This conversation's own reason (its rough build or catch-up), else an open preview's.
        found = placement_reason_text(suggested_reason) or _preview_reason(entry.item_id, user_id)
        return found or "这是本次对话中的建议，还没有写入课表，没有记录计划器的理由。"
    reason = (TaskItem.objects.filter(pk=entry.item_id, task_class__user_id=user_id)
              .values_list("placement_reason", flat=True).first())
    return placement_reason_text(reason) or "这一项放置时没有记录理由（可能是较早安排的）。"


def _preview_reason(item_id: int, user_id: int) -> str:
    """The reason in the student's newest open preview that holds the block, if any."""
    for preview in PlanPreview.objects.filter(user_id=user_id, status=PlanPreview.Status.OPEN).order_by("-created_at")[:5]:
        rows = [*preview.placements, *(m for m in preview.moves or [] if m.get("item_id"))]
        for row in rows:
            if row.get("item_id") == item_id and row.get("reason"):
                return placement_reason_text(row["reason"])
    return ""


TOOL = ExplainPlacementTool()
