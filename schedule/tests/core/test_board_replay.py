"""Replaying a conversation's edits onto the board as the database has it now (``schedule.core.board_replay``)."""

from __future__ import annotations

from dataclasses import replace

from schedule.core.board import Board, Entry
from schedule.core.board_edits import Move, OrderRule, Place, Swap, batch
from schedule.core.board_errors import EntryPinned, SlotTaken
from schedule.core.board_replay import Overtaken, pending_edits, replay
from schedule.tests.core.boards import (
    FRI,
    NOTE,
    PROB_1,
    PROB_2,
    PROB_3,
    THU,
    WED,
    at,
    custom,
    make_board,
    week_board,
    week_entries,
)

EXAM_TALK = 20  # an event the student added meanwhile


def entry(board: Board, entry_id: int) -> Entry:
    found = board.get(entry_id)
    assert found is not None, entry_id
    return found


def edited(board: Board) -> Board:
    """The conversation's board: two suggestions and a move."""
    return batch(board, [Place(PROB_2, at(THU, 3).spot), Place(NOTE, at(THU, 7, 7).spot),
                         Move(PROB_1, at(FRI, 5).spot)], order=OrderRule.ALLOW)


def with_entries(*changed: Entry, without: tuple[int, ...] = ()) -> Board:
    """The week as the database has it after the student's own changes elsewhere."""
    by_id = {e.id: e for e in week_entries() if e.id not in without}
    by_id.update({e.id: e for e in changed})
    return make_board(*by_id.values())


def test_every_edit_that_still_fits_is_replayed_onto_the_new_board() -> None:
    older = edited(week_board())
    newer = with_entries(custom(EXAM_TALK, "讲座", at(WED, 7)))

    result = replay(newer, older)

    assert result.dropped == ()
    assert [(e.id, e.place) for e in pending_edits(result.board)] == [(e.id, e.place) for e in pending_edits(older)]
    assert entry(result.board, EXAM_TALK).place == at(WED, 7)


def test_an_edit_whose_place_was_taken_meanwhile_is_dropped_with_the_refusal() -> None:
    older = edited(week_board())
    newer = with_entries(custom(EXAM_TALK, "讲座", at(THU, 3)))

    result = replay(newer, older)

    assert [(d.entry.id, type(d.why)) for d in result.dropped] == [(PROB_2, SlotTaken)]
    assert entry(result.board, PROB_2).place is None
    assert entry(result.board, PROB_1).place == at(FRI, 5)  # the others stay
    assert entry(result.board, NOTE).place == at(THU, 7, 7)


def test_a_suggestion_whose_item_was_placed_meanwhile_is_dropped_as_overtaken() -> None:
    older = edited(week_board())
    saved = replace(entry(week_board(), PROB_2), place=at(FRI, 1), origin=at(FRI, 1), event_id=300)
    result = replay(with_entries(saved), older)

    assert [(d.entry.id, d.why) for d in result.dropped] == [(PROB_2, Overtaken.PLACED_MEANWHILE)]
    assert entry(result.board, PROB_2).place == at(FRI, 1)


def test_a_block_the_student_dragged_herself_keeps_her_place() -> None:
    older = edited(week_board())
    dragged = replace(entry(week_board(), PROB_1), place=at(THU, 9), origin=at(THU, 9))

    result = replay(with_entries(dragged), older)

    assert [(d.entry.id, d.why) for d in result.dropped] == [(PROB_1, Overtaken.MOVED_MEANWHILE)]
    assert entry(result.board, PROB_1).place == at(THU, 9)


def test_an_edit_of_an_entry_gone_from_the_board_is_dropped_as_gone() -> None:
    older = edited(week_board())

    result = replay(with_entries(without=(NOTE,)), older)

    assert [(d.entry.id, d.why) for d in result.dropped] == [(NOTE, Overtaken.GONE)]


def test_a_block_pinned_meanwhile_is_not_moved_again() -> None:
    older = edited(week_board())
    pinned = replace(entry(week_board(), PROB_1), pinned=True)

    result = replay(with_entries(pinned), older)

    assert [(d.entry.id, type(d.why)) for d in result.dropped] == [(PROB_1, EntryPinned)]
    assert entry(result.board, PROB_1).place == pinned.place


def test_blocks_that_traded_places_trade_again() -> None:
    placed = batch(week_board(), [Place(PROB_2, at(THU, 3).spot), Place(PROB_3, at(FRI, 3).spot)],
                   order=OrderRule.ALLOW)
    older = batch(placed, [Swap(PROB_2, PROB_3)], order=OrderRule.ALLOW)

    result = replay(week_board(), older)

    assert result.dropped == ()
    assert (entry(result.board, PROB_2).place, entry(result.board, PROB_3).place) == (at(FRI, 3), at(THU, 3))
