"""Edits that work: what they change, what they leave, and how the class order is kept."""

from schedule.core.board import Spot
from schedule.core.board_edits import (
    Move,
    OrderRule,
    Place,
    Resize,
    Swap,
    Unplace,
    apply,
    batch,
    embed,
    move,
    place,
    resize,
    swap,
    unplace,
)
from schedule.core.board_errors import OrderBroken, SlotTaken
from schedule.tests.core.boards import (
    ETHICS,
    LAST_WEEK,
    MON,
    NOTE,
    POLICY,
    PROB,
    PROB_1,
    PROB_2,
    PROB_3,
    PROB_4,
    READ_1,
    THU,
    TUE,
    WED,
    at,
    make_board,
    refused,
    study,
    week_board,
)


def test_place_returns_a_new_board_and_leaves_the_old_one_alone():
    board = week_board()
    new = place(board, PROB_2, Spot(THU, 1))
    assert new.get(PROB_2).place == at(THU, 1) and board.get(PROB_2).place is None
    assert [e for e in new.entries if e.id != PROB_2] == [e for e in board.entries if e.id != PROB_2]


def test_placing_on_a_filler_course_embeds_the_block():
    assert place(week_board(), PROB_2, Spot(TUE, 1)).get(PROB_2).place == at(TUE, 1, host=POLICY)


def test_embed_without_a_spot_takes_the_hosts_first_free_start():
    assert embed(week_board(), PROB_2, POLICY).get(PROB_2).place == at(TUE, 1, host=POLICY)


def test_a_guest_can_move_out_of_its_filler_course_and_back():
    out = move(week_board(), READ_1, Spot(THU, 1))
    assert out.get(READ_1).place == at(THU, 1) and out.get(READ_1).moved
    back = move(out, READ_1, Spot(WED, 1))
    assert back.get(READ_1).place == at(WED, 1, host=ETHICS) and not back.get(READ_1).moved


def test_moving_a_block_back_where_it_was_is_no_change():
    board = move(move(week_board(), PROB_1, Spot(THU, 7)), PROB_1, Spot(MON, 5))
    assert board == week_board()


def test_unplace_takes_a_suggestion_off_and_frees_its_sections():
    board = unplace(place(week_board(), PROB_2, Spot(THU, 1)), PROB_2)
    assert board.get(PROB_2).status == "pending" and board.on_day(THU) == ()


def test_swap_trades_places_and_recomputes_the_hosts():
    board = batch(week_board(), [Place(PROB_2, Spot(TUE, 1)), Place(PROB_3, Spot(THU, 1))])
    swapped = swap(board, PROB_2, PROB_3, order=OrderRule.ALLOW)
    assert swapped.get(PROB_2).place == at(THU, 1)
    assert swapped.get(PROB_3).place == at(TUE, 1, host=POLICY)


def test_a_batch_lifts_everything_first_so_three_blocks_can_rotate():
    board = batch(week_board(), [Place(PROB_2, Spot(THU, 1)), Place(PROB_3, Spot(THU, 3)),
                                 Place(PROB_4, Spot(THU, 5))])
    rotated = batch(board, [Move(PROB_2, Spot(THU, 3)), Move(PROB_3, Spot(THU, 5)), Move(PROB_4, Spot(THU, 7))])
    assert [rotated.get(i).place.start for i in (PROB_2, PROB_3, PROB_4)] == [3, 5, 7]


def test_a_batch_can_mix_every_kind_of_edit():
    board = place(week_board(), PROB_2, Spot(THU, 1))
    new = batch(board, [Unplace(PROB_2), Resize(PROB_3, 3), Place(NOTE, Spot(THU, 1)),
                        Swap(PROB_1, READ_1)], order=OrderRule.ALLOW)
    assert new.get(NOTE).place == at(THU, 1, 1) and new.get(PROB_2).place is None
    assert new.get(PROB_3).length == 3
    assert new.get(PROB_1).place == at(WED, 1, host=ETHICS) and new.get(READ_1).place == at(MON, 5)


def test_an_empty_batch_changes_nothing():
    board = week_board()
    assert batch(board, []) == board


def test_resize_of_a_pending_entry_changes_its_length_only():
    board = resize(week_board(), NOTE, 3)
    assert board.get(NOTE).length == 3 and board.get(NOTE).place is None


def test_resize_of_a_placed_entry_keeps_its_start_and_checks_the_new_end():
    board = place(week_board(), NOTE, Spot(THU, 3))
    assert resize(board, NOTE, 4).get(NOTE).place == at(THU, 3, 6)
    crowded = place(board, PROB_2, Spot(THU, 5))
    refused(crowded, lambda: resize(crowded, NOTE, 4), SlotTaken)


def test_apply_runs_any_single_edit():
    assert apply(week_board(), Place(NOTE, Spot(THU, 1))).get(NOTE).placed


def test_an_order_keeping_move_is_allowed():
    board = batch(week_board(), [Place(PROB_2, Spot(THU, 1)), Place(PROB_3, Spot(THU, 5))])
    assert move(board, PROB_3, Spot(THU, 3)).get(PROB_3).place.start == 3


def test_renumber_keeps_the_dropped_place_and_gives_the_blocks_to_the_items_in_time_order():
    board = batch(week_board(), [Place(PROB_2, Spot(THU, 1)), Place(PROB_3, Spot(THU, 3)),
                                 Place(PROB_4, Spot(THU, 5))])
    dragged = move(board, PROB_2, Spot(THU, 9), order=OrderRule.RENUMBER)
    starts = [dragged.get(i).place.start for i in (PROB_2, PROB_3, PROB_4)]
    assert starts == [3, 5, 9]


def test_renumber_never_touches_blocks_in_the_database():
    board = place(week_board(), PROB_2, Spot(THU, 1))
    error = refused(board, lambda: move(board, PROB_2, Spot(MON, 3), order=OrderRule.RENUMBER), OrderBroken)
    assert (error.entry, error.later, error.class_id) == (PROB_1, PROB_2, PROB)


def test_items_of_other_classes_are_not_held_to_each_others_order():
    board = place(week_board(), PROB_2, Spot(TUE, 7))  # before READ_1 (another class) on Wednesday
    assert board.get(PROB_2).place.day == TUE and board.get(READ_1).place.day == WED


def test_renumber_never_hands_an_item_a_place_gone_by():
    board = make_board(study(PROB_3, PROB, 3, place=at(LAST_WEEK, 3)), study(PROB_2, PROB, 2))
    error = refused(board, lambda: place(board, PROB_2, Spot(THU, 1), order=OrderRule.RENUMBER), OrderBroken)
    assert (error.entry, error.later) == (PROB_2, PROB_3)
