"""catch_up: place the study blocks gone by and not marked done again, from now on (a write tool).

The same action as the board's "补上落下的 N 次复习" button (``board.catch_up``): each
such block goes to the nearest free time before its plan ends, class order kept, as few other blocks
moved as possible. Here the result becomes the conversation's working schedule, so the turn ends with
the ordinary preview the student applies (or discards) in the chat; nothing is written before that.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from agent.flow.working import Working, WorkQueue
from agent.tools.support import board_text as text
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from board.catch_up import CatchUp, catch_up_board, catch_up_count
from schedule.core.board import Board
from smartmate.platform.exceptions import AppError, NotFoundError


class CatchUpTool(Tool):
    name = "catch_up"
    pack = "schedule_write"
    label = gettext_lazy("Catch up missed blocks")
    description = ("补上落下的复习：把已经过去、还没标记完成的学习块重新安排到从现在起、任务类结束日期之前最近的空闲时间，"
                   "保持同一任务类的先后顺序，尽量少动其它块。学生说漏了、没做、落下了复习，或分析结果里有落下的块时，"
                   "可以主动提出“补上落下的 N 次复习”。不给 task_class_id 就补上所有任务类的。"
                   "结果是预览，学生应用后才生效；对话里还有未生效的调整时不能用。")
    parameters = {
        "type": "object",
        "properties": {"task_class_id": {**common.ID_ARG, "description": "只补这个任务类（可选，任务类编号）"}},
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> str:
        try:
            count = catch_up_count(user=common.user_of(ctx), now=ctx.now, task_class_id=args.get("task_class_id"))
        except NotFoundError:
            return _("Catch up the missed blocks of a plan you do not have.")
        return ngettext("Catch up %(count)s missed block: place it again from now on, before its plan ends.",
                        "Catch up %(count)s missed blocks: place them again from now on, before their plans end.",
                        count) % {"count": count}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current = common.readable(ctx, working)
        if current is not None and _has_changes(current.board):
            return common.failed(_("Apply or discard the changes of this conversation first, then catch up."),
                                 "操作失败，日程未改动：这次对话里还有未应用的调整。请学生先应用或放弃预览，再补上落下的块。",
                                 code="pending_changes")
        try:
            found = catch_up_board(user=common.user_of(ctx), now=ctx.now, task_class_id=args.get("task_class_id"),
                                   previous=current.board if current is not None else None)
        except NotFoundError:
            return common.failed(_("That plan was not found; nothing was changed."),
                                 "操作失败，日程未改动：没有这个任务类。任务类编号见 get_overview。",
                                 code="unknown_task_class")
        except AppError as error:
            return common.failed(error.message, f"操作失败，日程未改动：{error.message}", code=error.code)
        if not found.result.placed:
            return common.failed(_("No free place keeps these blocks before their plans end; nothing was changed."),
                                 "操作失败，日程未改动：在任务类结束前找不到保持顺序的空闲位置。可以建议学生延长结束日期、"
                                 "允许使用水课，或减少排除的时间。", code="no_room_to_repair")
        queue = current.queue if current is not None else WorkQueue()
        earlier = current.reasons if current is not None else {}
        working = Working(found.result.board, ctx.user_id, queue, earlier).with_reasons(_reasons_by_item(found))
        return _done(found, working)


def _reasons_by_item(found: CatchUp) -> dict[int, dict]:
    """The repair's reasons (by entry: "was due in week 3 on Tuesday…") by the blocks' item ids."""
    board = found.result.board
    return {entry.item_id: reason for entry_id, reason in found.result.reasons.items()
            if (entry := board.get(entry_id)) is not None and entry.item_id is not None}


def _has_changes(board: Board) -> bool:
    """Suggestions or moves the conversation made that are not applied yet."""
    return any(entry.suggested or entry.moved for entry in board.entries)


def _done(found: CatchUp, working: Working) -> ToolResult:
    board, result = working.board, found.result
    lines = [f"补上落下的 {len(result.placed)} 次复习（预览，学生应用后生效）："]
    for entry_id in (*result.placed, *result.shifted):
        entry = common.entry_on(board, entry_id)
        lines.append(f"{text.entry_label(entry)} → {text.target_label(board, entry)}"
                     + ("（为腾出位置顺移）" if entry_id in result.shifted else ""))
    for entry_id in result.unplaced:
        lines.append(f"{text.entry_label(common.entry_on(board, entry_id))}：结束日期前没有保持顺序的空闲位置，仍未安排")
    summary = ngettext("Caught up %(count)s missed block.", "Caught up %(count)s missed blocks.",
                       len(result.placed)) % {"count": len(result.placed)}
    data = {"placed": list(result.placed), "shifted": list(result.shifted), "unplaced": list(result.unplaced),
            "moves": [{"id": i, **(common.at_json(common.entry_on(board, i)) or {})}
                      for i in (*result.placed, *result.shifted)]}
    return common.done(summary, "\n".join(lines), data=data, working=working)


TOOL = CatchUpTool()
