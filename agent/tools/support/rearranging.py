"""What spread_even and min_context_switch share: their arguments, the card, and running a rearrangement.

A rearrangement (``schedule.core.rearrange``) plans its moves and runs them through the editing core
as one batch, so it is all or nothing: a refusal leaves the working schedule exactly as it was and
says why in the same words as every other edit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from agent.flow.working import Working
from agent.tools.support import board_text as text
from agent.tools.support import common
from agent.tools.support.base import ToolContext, ToolResult
from schedule.core.analysis import EmptyWindowError
from schedule.core.board import Board
from schedule.core.board_edits import OrderRule
from schedule.core.board_errors import BoardError
from schedule.core.rearrange import NoRoomError, Rearrangement, TooFewBlocksError

MAX_BLOCKS = 60
TASK_IDS = {"type": "array", "minItems": 2, "maxItems": MAX_BLOCKS, "items": common.ID_ARG,
            "description": "要调整的学习块或随口记的编号（至少 2 个，来自 get_overview / query_target_tasks）"}


def card_names(ctx: ToolContext, working: Working | None, ids: Any) -> str:
    """The blocks a card names, by name where the board knows them."""
    current = common.readable(ctx, working)
    names = [getattr(common.entry_or_none(current, i), "name", None) or str(i) for i in (ids or [])]
    return "、".join(f"“{name}”" for name in names)


def rearranged(ctx: ToolContext, working: Working | None, plan: Callable[[Board, OrderRule], Rearrangement],
               ) -> tuple[Working, Rearrangement | ToolResult]:
    """Run ``plan`` on the working schedule: the rearrangement, or the failed result (nothing changed)."""
    current, changed = common.board(ctx, working)
    store = common.kept(current, changed)
    order = common.order_rule(ctx)
    try:
        return current, plan(current.board, order)
    except common.BadArgument as error:
        return current, common.argument_failed(error, _("The change was not made."), store=store)
    except BoardError as error:
        return current, common.refused(error, current, order=order, store=store)
    except TooFewBlocksError:
        return current, common.failed(_("Choose at least two blocks to rearrange."),
                                      "操作失败，日程未改动：请至少给出两个不同的、已有位置的块。",
                                      code="too_few_blocks", working=store)
    except NoRoomError as error:
        name = common.entry_on(current.board, error.entry).name
        return current, common.failed(
            _("“%(name)s” found no free place in the window; nothing was changed.") % {"name": name},
            f"操作失败，日程未改动：{name} 在窗口内找不到不打乱顺序的空闲位置。可以缩小范围或先腾出时间。",
            code="no_room", working=store)
    except EmptyWindowError as error:
        return current, common.failed(
            _("There are no days to analyse between %(first)s and %(last)s.") % {
                "first": error.first.isoformat(), "last": error.last.isoformat()},
            "操作失败，日程未改动：这个日期范围内没有今天及以后的日子。", code="empty_window", working=store)


def moves_text(before: Board, after: Board, result: Rearrangement) -> list[str]:
    """One line per moved block: where it was, where it is now."""
    lines = []
    for move in result.moves:
        was, now = common.entry_on(before, move.entry), common.entry_on(after, move.entry)
        lines.append(f"{text.entry_label(now)}：{text.target_label(before, was)} → {text.target_label(after, now)}")
    return lines


def changed_days(before: Board, after: Board, result: Rearrangement) -> list:
    days = []
    for move in result.moves:
        days += [common.place_of(common.entry_on(before, move.entry)).day,
                 common.place_of(common.entry_on(after, move.entry)).day]
    return sorted(set(days))


def moves_json(result: Rearrangement) -> list[dict[str, Any]]:
    return [{"id": m.entry, "date": m.spot.day.isoformat(), "start_section": m.spot.start} for m in result.moves]


def rearranged_done(current: Working, result: Rearrangement, *, headline: str, summary: str,
                    figures: str) -> ToolResult:
    """The answer of a rearranging tool that moved blocks: its headline, each move, the days after.

    ``figures`` names the before/after pair in the result's data ("switches", "most_per_day").
    """
    before, after = current.board, result.board
    content = "\n".join([headline, *moves_text(before, after, result),
                         text.after_edit(after, changed_days(before, after, result))])
    return common.done(summary, content, data={"moves": moves_json(result), figures: [result.before, result.after]},
                       working=current.with_board(after))

