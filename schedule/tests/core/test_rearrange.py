"""spread_even and min_context_switch: moves planned here, run through the core as one batch."""

import pytest

from schedule.core.board_codec import board_to_json
from schedule.core.board_edits import OrderRule
from schedule.core.board_errors import EntryLocked, OrderBroken, UnknownEntry
from schedule.core.rearrange import TooFewBlocksError, min_context_switch, spread_even
from schedule.tests.core.boards import ENG, MATH, PROB, READ, THU, TUE, at, make_board, study, week_board


def _stacked_board():
    """Four 读书 blocks all on Thursday; the class runs to 2026-10-04."""
    return make_board(*(study(20 + n, READ, n, place=at(THU, 1 + 2 * n)) for n in range(4)))


def test_spread_even_puts_stacked_blocks_on_separate_days_in_order():
    board = _stacked_board()
    result = spread_even(board, [20, 21, 22, 23])
    places = [result.board.get(20 + n).place for n in range(4)]
    assert result.before == 4 and result.after == 1
    assert len({p.day for p in places}) == 4
    assert [(p.day, p.start) for p in places] == sorted((p.day, p.start) for p in places)  # class order kept


def test_spread_even_keeps_the_days_of_other_blocks_light():
    board = make_board(*(study(20 + n, READ, n, place=at(THU, 1 + 2 * n)) for n in range(2)),
                       study(30, PROB, 1, place=at(TUE, 5)))
    result = spread_even(board, [20, 21], last=TUE.replace(day=27))
    assert all(result.board.get(i).place.day != TUE for i in (20, 21))


def test_spread_even_refuses_a_course_an_unknown_id_and_a_single_block_without_changing_anything():
    board = week_board()
    before = board_to_json(board)
    with pytest.raises(EntryLocked):
        spread_even(board, [MATH, 5])
    with pytest.raises(UnknownEntry):
        spread_even(board, [5, 9999])
    with pytest.raises(TooFewBlocksError):
        spread_even(board, [5, 5])
    assert board_to_json(board) == before


def test_min_context_switch_groups_alternating_classes_in_their_own_places():
    board = make_board(study(20, PROB, 1, place=at(THU, 1)), study(21, ENG, 1, place=at(THU, 3)),
                       study(22, PROB, 2, place=at(THU, 5)), study(23, ENG, 2, place=at(THU, 7)))
    result = min_context_switch(board, [20, 21, 22, 23])
    assert (result.before, result.after) == (3, 1)
    assert [result.board.get(i).place.start for i in (20, 22, 21, 23)] == [1, 3, 5, 7]
    assert {result.board.get(i).place for i in (20, 21, 22, 23)} == {board.get(i).place for i in (20, 21, 22, 23)}


def test_min_context_switch_refuses_to_break_an_order_unless_allowed():
    # 概率论 #1 stays at section 5; grouping hands the larger class (概率论 #2, #3) the set's first
    # place, section 1, so #2 would come before #1: refused under KEEP, done when reordering is allowed.
    board = make_board(study(20, ENG, 1, place=at(THU, 1)), study(21, PROB, 1, place=at(THU, 5)),
                       study(22, PROB, 2, place=at(THU, 7)), study(23, PROB, 3, place=at(THU, 9)))
    with pytest.raises(OrderBroken):
        min_context_switch(board, [20, 22, 23])
    allowed = min_context_switch(board, [20, 22, 23], order=OrderRule.ALLOW)
    assert [allowed.board.get(i).place.start for i in (22, 23, 20)] == [1, 7, 9]


def test_blocks_already_near_their_fair_share_stay_where_they_are():
    # 读书 runs 2026-09-14 .. 10-04 and today is 09-21: two blocks belong near 09-24 and 10-01.
    board = make_board(study(20, READ, 1, place=at(THU, 3)), study(21, READ, 2, place=at(THU.replace(day=1, month=10), 3)))
    result = spread_even(board, [20, 21])
    assert result.moves == () and result.board is board
