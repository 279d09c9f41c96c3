"""What the schedule tools share: the board for a call, argument parsing, and result builders.

A write tool is a thin adapter: it checks its arguments, runs one edit of the editing core
(``schedule.core.board_edits``) and formats what came back. A refusal is rendered by the one
message table (``schedule.board_messages``), so the student reads the same words as on the week
board; the model also gets the ids of the entries named and up to three places that would work.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from django.utils.translation import gettext as _

from accounts.models import User
from agent.flow.working import Working, working_for
from agent.tools.support import board_text as text
from agent.tools.support.base import ToolContext, ToolResult
from agent.tools.support.working_schedule import working_load
from schedule.board_messages import NAME_FIELDS, refusal_message
from schedule.core.board import Board, Entry, Position, Spot
from schedule.core.board_edits import Edit, OrderRule, apply, batch
from schedule.core.board_errors import BoardError, OrderBroken, SpotError
from schedule.core.board_suggest import suggest_places

DATE_ARG = {"type": "string", "description": "日期，YYYY-MM-DD，必须在规划窗口内", "format": "date"}
START_ARG = {"type": "integer", "minimum": 1, "maximum": 15, "description": "开始节次，奇数（1、3、5…）"}
ID_ARG = {"type": "integer", "minimum": 1, "description": "条目编号（get_overview / query_target_tasks 中的 [编号]）"}

# One entry to a day and section: the arguments of place and move.
SPOT_PARAMETERS = {
    "type": "object",
    "properties": {"task_id": ID_ARG, "date": DATE_ARG, "start_section": START_ARG},
    "required": ["task_id", "date", "start_section"],
    "additionalProperties": False,
}

# What the model should do next after a refusal, where the message alone does not say it.
NEXT_STEP = {
    "unknown_entry": "编号见 get_overview 或 query_target_tasks 的结果。",
    "not_placed": "它还没有位置，请用 place。",
    "not_pending": "它已经有位置，请用 move 移动它。",
    "order_broken": "请换一个不打乱顺序的位置；只有学生明确同意打乱顺序时才可以。",
}


class BadArgument(Exception):
    """An argument the schema lets through but the tool cannot use (a date that is no date)."""

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def user_of(ctx: ToolContext) -> User:
    """The student the server says is asking; never an id from the model."""
    return User.objects.get(pk=ctx.user_id)


def board(ctx: ToolContext, stored: Working | None) -> tuple[Working, bool]:
    """Return the working schedule for this call, and whether it must be stored again.

    It must when it was loaded just now (none yet, or someone else's).
    """
    working = working_for(stored, user_id=ctx.user_id, now=ctx.now)
    if working is None:
        return working_load(user=user_of(ctx), now=ctx.now, task_class_ids=ctx.task_class_ids), True
    return working, False


def readable(ctx: ToolContext, stored: Working | None) -> Working | None:
    """The working schedule for a confirmation card, without loading anything."""
    return working_for(stored, user_id=ctx.user_id, now=ctx.now)


def card_target(ctx: ToolContext, stored: Working | None, entry_id: Any,
                args: Mapping[str, Any]) -> dict[str, str] | None:
    """The name and the real time a confirmation card names for an entry going to ``args``' date and
    section; None when the entry is not on the board (the card then quotes the arguments)."""
    current = readable(ctx, stored)
    entry = entry_or_none(current, entry_id)
    if current is None or entry is None:
        return None
    return {"name": entry.name, "when": text.human_when(current.board, args["date"], args["start_section"],
                                                       entry.length)}


def order_rule(ctx: ToolContext) -> OrderRule:
    """Blocks of a class keep their order unless the student allowed reordering."""
    return OrderRule.ALLOW if ctx.allow_reorder else OrderRule.KEEP


def day_arg(raw: Any) -> date:
    try:
        return date.fromisoformat(str(raw))
    except ValueError:
        raise BadArgument(f"日期 {raw!r} 格式不对，请用 YYYY-MM-DD。", code="invalid_date") from None


def window_day(board: Board, raw: Any) -> date:
    """A date argument of a read tool: a date inside the board's window (what there is to read)."""
    day = day_arg(raw)
    if day not in board.window:
        raise BadArgument(f"{day.isoformat()} 不在规划窗口内（{board.window.first.isoformat()} 至 "
                          f"{board.window.last.isoformat()}）。", code="outside_window")
    return day


def spot_arg(args: Mapping[str, Any]) -> Spot:
    return Spot(day_arg(args["date"]), args["start_section"])


def at_json(entry: Entry) -> dict[str, Any] | None:
    """Where an entry sits, as JSON for the stored event."""
    where = entry.place
    return {"date": where.day.isoformat(), "start": where.start, "end": where.end} if where is not None else None


def entry_or_none(working: Working | None, entry_id: Any) -> Entry | None:
    return working.board.get(entry_id) if working is not None else None


def entry_on(board: Board, entry_id: Any) -> Entry:
    """An entry known to be on ``board``: an edit has just succeeded on it, or the board named it."""
    entry = board.get(entry_id)
    assert entry is not None, entry_id
    return entry


def place_of(entry: Entry) -> Position:
    """Where an entry that the edit placed (or found placed) sits."""
    assert entry.place is not None, entry.id
    return entry.place


# --- Results -----------------------------------------------------------------------------------------

def done(summary: str, content: str, *, data: Mapping[str, Any] | None = None,
         working: Working | None = None) -> ToolResult:
    return ToolResult(status="done", summary=summary, content=content, data=dict(data or {}), working=working)


def failed(summary: str, content: str, *, code: str, working: Working | None = None) -> ToolResult:
    return ToolResult(status="failed", summary=summary, content=content, data={"code": code}, working=working)


def kept(working: Working, changed: bool) -> Working | None:
    """The working schedule to store after a call that changed nothing: only when it must be stored."""
    return working if changed else None


def attempt(ctx: ToolContext, current: Working, changed: bool, make: Callable[[], Edit | list[Edit]], *,
            lead: str = "") -> Board | ToolResult:
    """Run the edit ``make()`` builds from the arguments (a list runs as one batch): the new board,
    or the failed result that says why (nothing changed)."""
    store, order = kept(current, changed), order_rule(ctx)
    try:
        edit = make()
        return batch(current.board, edit, order=order) if isinstance(edit, list) else apply(current.board, edit,
                                                                                           order=order)
    except BadArgument as error:
        return argument_failed(error, _("The change was not made."), store=store)
    except BoardError as error:
        return refused(error, current, edit=edit, order=order, store=store, lead=lead)


def refused(error: BoardError, working: Working, *, edit: Edit | list[Edit] | None = None,
            order: OrderRule = OrderRule.KEEP, store: Working | None = None, lead: str = "") -> ToolResult:
    """A refused edit: the board is unchanged; the student reads the shared message, the model also
    the ids it names and up to three places where the same edit would work."""
    board = working.board
    message = refusal_message(error, board)
    spots = suggest_places(board, edit, order=order) if edit is not None else ()
    lines = [f"操作失败，日程未改动：{lead}{message}", *_named(error, working)]
    if isinstance(error, (SpotError, OrderBroken)):
        lines.append(_places(board, error, spots))
    if error.code in NEXT_STEP:
        lines.append(NEXT_STEP[error.code])
    data = {"code": error.code, **error.data(), "message": message,
            "suggestions": [{"date": s.day.isoformat(), "start_section": s.start} for s in spots]}
    return ToolResult(status="failed", summary=message, content="\n".join(lines), data=data, working=store)


def _named(error: BoardError, working: Working) -> list[str]:
    values = error.data()
    named = [working.board.get(values[key]) for key in NAME_FIELDS if key in values]
    labels = list(dict.fromkeys(text.entry_label(e) for e in named if e is not None))
    return [f"涉及的条目：{'、'.join(labels)}"] if labels and error.code != "unknown_entry" else []


def _places(board: Board, error: BoardError, spots: tuple[Spot, ...]) -> str:
    if not spots:
        return "窗口内没有找到其他可用位置。"
    entry = board.get(error.data().get("entry"))
    length = entry.length if entry is not None else 2
    return "可用的位置例如：" + "、".join(
        f"{text.day_label(s.day)} {text.sections_label(s.start, s.start + length - 1)}" for s in spots) + "。"


def argument_failed(error: BadArgument, summary: str, *, store: Working | None = None) -> ToolResult:
    return failed(summary, f"操作失败，日程未改动：{error.message}", code=error.code, working=store)


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
