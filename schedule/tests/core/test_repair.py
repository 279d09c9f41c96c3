"""Minimum-churn repair on the editing core's board: displaced blocks placed again, as few others moved."""

from __future__ import annotations

from dataclasses import replace

from schedule.core.board import ClassRules, Clock, DateWindow, board_changes
from schedule.core.board_codec import board_to_json
from schedule.core.repair import lift, repair
from schedule.tests.core.boards import (
    CLASSES,
    FRI,
    LAST_WEEK,
    MON,
    PROB,
    READ,
    THU,
    TUE,
    WED,
    at,
    course,
    make_board,
    study,
)

MORNING_GONE = Clock(MON, started=4)


def test_a_displaced_block_takes_the_free_place_nearest_its_old_one_between_its_neighbours():
    board = make_board(study(1, PROB, 1, place=at(MON, 5), saved=True), study(2, PROB, 2),
                       study(3, PROB, 3, place=at(WED, 5), saved=True))
    result = repair(board, [2])
    assert result.placed == (2,) and result.shifted == () and result.unplaced == ()
    placed = result.board.get(2).place
    assert (MON, 5) < (placed.day, placed.start) < (WED, 5)
    assert result.reasons[2] == {"v": 1, "kind": "repair", "item": 2, "displaced": True}


def test_when_no_place_fits_between_the_next_block_shifts_and_order_holds():
    # Monday's sections 1-4 have begun: nothing fits before #1 either.
    board = make_board(study(1, PROB, 1, place=at(MON, 5), saved=True), study(2, PROB, 2),
                       study(3, PROB, 3, place=at(MON, 7), saved=True), clock=MORNING_GONE)
    result = repair(board, [2])
    assert result.placed == (2,) and result.shifted == (3,)
    two, three = result.board.get(2).place, result.board.get(3).place
    assert (two.day, two.start) == (MON, 7) and (three.day, three.start) > (MON, 7)
    assert result.moved_count == 2 and len(board_changes(result.board).moves) == 1


def test_a_pinned_block_is_never_moved():
    pinned = replace(study(3, PROB, 3, place=at(MON, 7), saved=True), pinned=True)
    board = make_board(study(1, PROB, 1, place=at(MON, 5), saved=True), study(2, PROB, 2), pinned,
                       clock=MORNING_GONE)
    result = repair(board, [2])
    assert result.board.get(3).place == at(MON, 7)
    assert result.unplaced == (2,) and result.placed == ()


def test_a_block_of_another_plan_steps_aside_when_that_is_the_only_way():
    one_day = (replace(CLASSES[0], window=replace(CLASSES[0].window, first=TUE, last=TUE)), *CLASSES[1:])
    timetable = [course(20 + n, f"课 {n}", at(TUE, start)) for n, start in enumerate((1, 3, 5, 9, 11))]
    board = make_board(*timetable, study(30, READ, 1, place=at(TUE, 7), saved=True), study(2, PROB, 1),
                       classes=one_day)
    result = repair(board, [2])
    assert result.placed == (2,) and result.shifted == (30,)
    assert result.board.get(2).place == at(TUE, 7) and result.board.get(30).place != at(TUE, 7)
    assert result.reasons[30]["kind"] == "repair" and "displaced" not in result.reasons[30]


def test_catch_up_moves_a_past_block_to_the_first_time_not_begun():
    board = make_board(study(1, PROB, 1, place=at(LAST_WEEK, 5), saved=True),
                       study(2, PROB, 2, place=at(WED, 5), saved=True))
    before = board_to_json(board)
    result = repair(lift(board, [1]), [1], catch_up=True)
    assert board_to_json(board) == before  # the board given never changes
    assert result.board.get(1).place.day == MON and result.board.get(1).place.start == 3  # sections 1-2 began
    assert result.reasons[1] == {"v": 1, "kind": "catch_up", "item": 1, "was": {"week": 2, "day": 4}}
    assert [e.id for e in board_changes(result.board).moves] == [1]


def test_a_repair_past_a_pinned_block_says_so_and_leaves_it():
    pinned = replace(study(30, READ, 1, place=at(MON, 7), saved=True), pinned=True)
    board = make_board(course(20, "社团活动", at(MON, 5)), pinned, study(2, PROB, 1), clock=MORNING_GONE)
    result = repair(board, [2], anchors={2: (MON, 5)})
    assert result.board.get(30).place == at(MON, 7) and result.placed == (2,)
    placed = result.board.get(2).place
    assert (placed.day, placed.start) > (MON, 7)
    assert result.reasons[2] == {"v": 1, "kind": "repair", "item": 1, "displaced": True, "pins": 1}


def test_a_full_board_still_places_the_block_when_four_plans_must_each_give_way():
    """Like an augmenting path of the oracle's maximum flow, longer than the bounded search goes."""
    needy, b, c, d = 40, 41, 42, 43
    windows = {needy: (TUE, TUE), b: (TUE, WED), c: (WED, THU), d: (THU, FRI)}
    classes = tuple(ClassRules(cls, DateWindow(first, last)) for cls, (first, last) in windows.items())
    timetable = [course(100 + n, "课", at(day, start))
                 for n, (day, start) in enumerate((day, start) for day in (TUE, WED, THU) for start in (1, 3, 5, 9, 11))]
    board = make_board(*timetable, study(1, needy, 1), study(2, b, 1, place=at(TUE, 7), saved=True),
                       study(3, c, 1, place=at(WED, 7), saved=True), study(4, d, 1, place=at(THU, 7), saved=True),
                       classes=classes)
    result = repair(board, [1], anchors={1: (TUE, 7)})
    assert result.placed == (1,) and result.shifted == (2, 3, 4) and result.unplaced == ()
    assert [result.board.get(n).place.day for n in (1, 2, 3, 4)] == [TUE, WED, THU, FRI]
