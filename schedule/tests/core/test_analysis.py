"""The board's analysis: load per day, feasibility, rhythm, and candidates the core accepts."""

from datetime import date

import pytest

from schedule.core.analysis import THRESHOLDS, EmptyWindowError, UnknownDimensionError, analyze, day_loads, switches_of
from schedule.core.board import ClassRules, DateWindow
from schedule.core.board_edits import OrderRule, apply
from schedule.tests.core.boards import (
    CALENDAR,
    CLASSES,
    ENG,
    FRI,
    MON,
    PROB,
    READ,
    SAT,
    THU,
    TUE,
    WED,
    at,
    course,
    custom,
    make_board,
    note,
    study,
    week_board,
)


def _switch_day_board():
    """Thursday alternates two classes: 概率论, 英语, 概率论, 英语 (three switches)."""
    return make_board(study(20, PROB, 1, place=at(THU, 1)), study(21, ENG, 1, place=at(THU, 3)),
                      study(22, PROB, 2, place=at(THU, 5)), study(23, ENG, 2, place=at(THU, 7)))


def test_day_loads_count_each_kind_and_a_guest_once():
    board = week_board()
    loads = {d.day: d for d in day_loads(board, DateWindow(MON, WED))}
    assert (loads[TUE].course, loads[TUE].event, loads[TUE].study, loads[TUE].free) == (4, 2, 0, 6)
    assert (loads[WED].course, loads[WED].study) == (2, 2)  # 读书 sits inside the 4-section filler course
    assert loads[MON].study == 4 and loads[MON].blocks == 2


def test_a_day_two_thirds_full_is_heavy():
    board = make_board(course(1, "A", at(FRI, 1, 4)), course(2, "B", at(FRI, 5, 8)), course(3, "C", at(SAT, 1)))
    loads = {d.day: d.heavy for d in day_loads(board, DateWindow(FRI, SAT))}
    assert loads == {FRI: True, SAT: False}


def test_more_waiting_blocks_than_free_pairs_is_a_capacity_gap_to_ask_about():
    narrow = ClassRules(PROB, DateWindow(SAT, SAT), name="概率论复习")
    board = make_board(course(1, "A", at(SAT, 1, 8)), *(study(10 + n, PROB, n) for n in range(4)),
                       classes=(narrow,))
    report = analyze(board)
    assert (report.health.pending, report.health.free_pairs, report.health.capacity_gap) == (4, 2, 2)
    assert not report.health.feasible
    assert report.decision.to_json() == {"should_continue": False, "primary_problem": "capacity_gap",
                                         "recommended_operation": "ask_user", "candidates": [],
                                         "forced_imperfection": False}


def test_an_empty_window_is_refused():
    with pytest.raises(EmptyWindowError):
        analyze(week_board(), first=date(2026, 9, 1), last=date(2026, 9, 10))
    with pytest.raises(EmptyWindowError):
        analyze(week_board(), first=FRI, last=THU)


def test_alternating_classes_are_counted_as_switches():
    report = analyze(_switch_day_board())
    assert report.rhythm.switches == ((THU, 3),) and report.rhythm.max_switches == 3
    assert switches_of([1, 1, 2, 2]) == 1


def test_switches_recommend_a_swap_the_core_accepts_and_that_cuts_them():
    board = _switch_day_board()
    decision = analyze(board, order=OrderRule.ALLOW).decision
    assert (decision.primary_problem, decision.recommended_operation, decision.should_continue) == (
        "context_switches", "swap", True)
    best = decision.candidates[0]
    after = apply(board, best.edit(), order=OrderRule.ALLOW)
    assert analyze(after).rhythm.total_switches < 3


def test_candidates_keep_class_order_unless_reordering_is_allowed():
    board = _switch_day_board()
    for candidate in analyze(board).decision.candidates:
        apply(board, candidate.edit(), order=OrderRule.KEEP)  # never refused


def test_heavy_days_get_a_move_to_a_lighter_day_nearby():
    board = make_board(course(1, "A", at(THU, 1, 6)), study(20, READ, 1, place=at(THU, 7)),
                       course(2, "B", at(FRI, 1, 6)), study(21, READ, 2, place=at(FRI, 7)))
    report = analyze(board, last=SAT)
    assert report.rhythm.heavy_adjacent == ((THU, FRI),)
    decision = report.decision
    assert decision.recommended_operation == "move" and decision.primary_problem == "heavy_days"
    moved = apply(board, decision.candidates[0].edit())
    assert analyze(moved, last=SAT).score < report.score


def test_locked_and_saved_blocks_are_never_candidates_when_only_suggestions_may_move():
    board = make_board(course(1, "A", at(THU, 1, 6)), study(20, READ, 1, place=at(THU, 7), saved=True),
                       course(2, "B", at(FRI, 1, 6)), study(21, READ, 2, place=at(FRI, 7), saved=True),
                       custom(3, "社团", at(THU, 9)))
    decision = analyze(board, last=SAT, only_suggested=True).decision
    assert decision.candidates == () and decision.recommended_operation == "close"
    assert decision.forced_imperfection


def test_a_calm_week_needs_nothing():
    board = make_board(study(20, PROB, 1, place=at(THU, 1)), note(11, place=at(FRI, 3, 3)))
    decision = analyze(board).decision
    assert (decision.should_continue, decision.primary_problem, decision.recommended_operation) == (
        False, "none", "close")


def test_fragmentation_counts_free_sections_no_block_can_use():
    board = make_board(course(1, "A", at(THU, 1, 1)), classes=CLASSES)
    report = analyze(board, first=THU, last=THU)
    assert report.health.fragmentation == pytest.approx(1 / 11, abs=0.001)
    assert CALENDAR.sections == 12


def test_a_long_same_class_run_suggests_moving_its_last_block():
    board = make_board(*(study(20 + n, READ, n, place=at(THU, 1 + 2 * n)) for n in range(3)))
    report = analyze(board, last=SAT)
    assert report.rhythm.longest_run == 3 and report.rhythm.longest_run_class == READ
    assert report.decision.primary_problem == "long_run"
    assert report.decision.candidates[0].entry == 22


def test_a_stricter_threshold_finds_a_heavy_day_the_normal_one_does_not():
    board = make_board(course(1, "A", at(FRI, 1, 6)), course(2, "B", at(SAT, 1)))  # Friday: half of its 12 sections
    normal = analyze(board, first=FRI, last=SAT)
    strict = analyze(board, first=FRI, last=SAT, thresholds=THRESHOLDS["strict"])
    relaxed = analyze(board, first=FRI, last=SAT, thresholds=THRESHOLDS["relaxed"])
    assert normal.health.heavy_days == () and relaxed.health.heavy_days == ()
    assert strict.health.heavy_days == (FRI,)


def test_two_switches_in_a_day_are_choppy_only_for_the_strict_judge():
    board = make_board(study(20, PROB, 1, place=at(THU, 1)), study(21, ENG, 1, place=at(THU, 3)),
                       study(22, PROB, 2, place=at(THU, 5)))
    strict, normal = analyze(board, thresholds=THRESHOLDS["strict"]), analyze(board)
    assert strict.rhythm.max_switches == normal.rhythm.max_switches == 2
    assert strict.score == normal.score + 3  # the same day counts as choppy for the stricter judge only


def test_the_decision_weighs_only_the_dimensions_asked():
    board = _switch_day_board()
    assert analyze(board, dimensions=["context_switches"]).decision.primary_problem == "context_switches"
    only_load = analyze(board, dimensions=["capacity", "fragmentation"]).decision
    assert (only_load.primary_problem, only_load.recommended_operation, only_load.candidates) == ("none", "close", ())


def test_an_unknown_or_empty_dimension_list_is_refused():
    with pytest.raises(UnknownDimensionError):
        analyze(week_board(), dimensions=["mood"])
    with pytest.raises(UnknownDimensionError):
        analyze(week_board(), dimensions=[])
