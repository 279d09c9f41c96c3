"""queue_apply_head_move: place or move the queue's current entry; success marks it done."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import board_text as text
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from agent.tools.support.queue import head_completed, head_refused, snapshot
from schedule.core.board_edits import Edit, Move, Place, apply
from schedule.core.board_errors import BoardError


class QueueApplyHeadMoveTool(Tool):
    name = "queue_apply_head_move"
    label = gettext_lazy("Place the current queue item")
    pack = "schedule_write"
    description = ("把队列的当前条目放到（待安排的）或移到（已有位置的）指定日期和开始节次。"
                   "成功则标记完成；失败则日程不变、尝试次数加一，并给出冲突和可用位置。")
    parameters = {
        "type": "object",
        "properties": {"date": common.DATE_ARG, "start_section": common.START_ARG},
        "required": ["date", "start_section"],
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> str:
        current = common.readable(ctx, working)
        target = common.card_target(ctx, working, current.queue.current, args) if current else None
        if target is None:
            return _("Move the current item to %(date)s.") % {"date": args.get("date")}
        return _("Move “%(name)s” to %(when)s.") % target

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        current, changed = common.board(ctx, working)
        head = current.board.get(current.queue.current) if current.queue.current is not None else None
        if head is None:
            return common.failed(_("There is no current item to move."),
                                 "没有当前条目；先用 queue_pop_head 取出一个。", code="no_current",
                                 working=common.kept(current, changed))
        try:
            spot = common.spot_arg(args)
            edit = Place(head.id, spot) if head.place is None else Move(head.id, spot)
            board = apply(current.board, edit, order=common.order_rule(ctx))
        except (common.BadArgument, BoardError) as error:
            return self._failed(error, current, edit if isinstance(error, BoardError) else None, ctx)
        new = current.with_board(board).with_queue(head_completed(current.queue))
        done = common.entry_on(board, head.id)
        where = common.place_of(done)
        state = {"success": True, "task_id": head.id, "at": text.target_label(board, done), **snapshot(new)}
        return common.done(_("Moved “%(name)s” to %(when)s.") % {
            "name": done.name, "when": text.human_when(board, where.day, where.start, done.length)},
            common.as_json(state), data=state, working=new)

    @staticmethod
    def _failed(error: common.BadArgument | BoardError, current: Working, edit: Edit | None,
                ctx: ToolContext) -> ToolResult:
        """A refusal counts an attempt: the queue changes, the board does not."""
        if isinstance(error, common.BadArgument):
            result = common.argument_failed(error, _("The change was not made."))
            reason = error.message
        else:
            result = common.refused(error, current, edit=edit, order=common.order_rule(ctx))
            reason = result.data["message"]
        new = current.with_queue(head_refused(current.queue, reason))
        state = {"success": False, "task_id": new.queue.current, **snapshot(new)}
        return ToolResult(status="failed", summary=result.summary, content=result.content + "\n" + common.as_json(state),
                          data={**result.data, **state}, working=new)


TOOL = QueueApplyHeadMoveTool()
