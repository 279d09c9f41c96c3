"""The upgrade path: a working schedule stored in the current dict format reads into a board that
means the same (ids, places, moves, locks, preview content), and the core refuses what it refused."""

from __future__ import annotations

from datetime import date

import pytest

from agent.tests.tools.conftest import NOW, WEEK3_MON, WEEK3_THU, WEEK3_TUE, entry_named, item_entry, make_ctx
from agent.tools import working_ops as ops
from agent.tools.registry import arguments_check, tool_get
from agent.tools.working_schedule import working_load, working_to_preview
from schedule.core.board import Spot, board_changes
from schedule.core.board_codec import board_from_json, board_from_legacy_working, board_to_json
from schedule.core.board_edits import move, place
from schedule.core.board_errors import BoardError
from schedule.models import ScheduleEvent
from schedule.services.events import Span, event_create


def run_tool(name: str, args: dict, ctx, working: dict) -> dict:
    tool = tool_get(name)
    result = tool.run(arguments_check(tool, args), ctx, working)
    assert result.status == "done", result.content
    return result.working


@pytest.fixture
def edited(plan):
    """Item 4 already on the board (Wed 7-8) and moved to Friday; item 1 placed in the filler course
    (Tue 1-2), item 2 after it (Tue 3-4); item 3 waits."""
    item = plan.items.get(order=4)
    event_create(user=plan.user, title=item.content, span=Span(3, 3, 7, 8), kind=ScheduleEvent.Kind.TASK_ITEM,
                 task_item=item)
    working = working_load(user=plan.user, now=NOW, task_class_ids=[plan.pk])
    ctx = make_ctx(plan.user)
    working = run_tool("move", {"task_id": item_entry(working, 4)["id"], "date": "2026-09-25", "start_section": 9},
                       ctx, working)
    working = run_tool("place", {"task_id": item_entry(working, 1)["id"], "date": WEEK3_TUE, "start_section": 1},
                       ctx, working)
    return run_tool("place", {"task_id": item_entry(working, 2)["id"], "date": WEEK3_TUE, "start_section": 3},
                    ctx, working)


def test_every_entry_keeps_its_id_place_status_and_lock(edited):
    board = board_from_legacy_working(edited, now=NOW).board
    for old in edited["entries"]:
        new = board.get(old["id"])
        at = old["at"]
        assert (new.status, new.moved) == (old["status"], ops.is_moved(old))
        assert (new.place.day.isoformat(), new.place.start, new.place.end) == (at["date"], at["start"], at["end"]) \
            if at else new.place is None
        assert board.is_locked(new) == (old["locked"] or old["filler"])
    assert board.get(item_entry(edited, 1)["id"]).place.host == entry_named(edited, "形势与政策")["id"]


def test_the_board_makes_the_same_preview(plan, edited):
    preview = working_to_preview(user=plan.user, working=edited, conversation_id=7, now=NOW)
    board = board_from_legacy_working(edited, now=NOW).board
    changes = board_changes(board)
    assert [e.item_id for e in changes.placements] == [p["item_id"] for p in preview.placements]
    assert [board.calendar.week_day(e.place.day) + (e.place.start,) for e in changes.placements] == [
        (p["week"], p["day"], p["start_section"]) for p in preview.placements]
    assert [(e.item_id, e.event_id) for e in changes.moves] == [(m["item_id"], m["event_id"]) for m in preview.moves]
    assert [e.item_id for e in changes.unplaced] == [u["item_id"] for u in preview.unplaced]


def test_the_conversation_carries_on_after_the_upgrade(edited):
    board = board_from_legacy_working(edited, now=NOW).board
    third = item_entry(edited, 3)["id"]
    board = place(board, third, Spot(date.fromisoformat(WEEK3_THU), 7))
    assert board_from_json(board_to_json(board)) == board


@pytest.mark.parametrize(("target", "code"), [
    ((WEEK3_MON, 1), "slot_taken"),  # 高等数学
    (("2026-10-05", 1), "outside_window"),
    (("2026-09-21", 3), "order_broken"),  # item 3 before items 1 and 2
])
def test_the_core_refuses_what_the_dict_engine_refused(edited, target, code):
    entry = item_entry(edited, 3)
    with pytest.raises(ops.EditRefused) as old:
        ops.edit(edited, {entry["id"]: target}, now=NOW, allow_reorder=False)
    board = board_from_legacy_working(edited, now=NOW).board
    with pytest.raises(BoardError) as new:
        place(board, entry["id"], Spot(date.fromisoformat(target[0]), target[1]))
    assert old.value.code == new.value.code == code


def test_a_moved_block_moves_again_on_the_board(edited):
    board = board_from_legacy_working(edited, now=NOW).board
    block = item_entry(edited, 4)["id"]
    back = move(board, block, Spot(date(2026, 9, 23), 7))
    assert not back.get(block).moved and board_changes(back).moves == ()
