"""The board itself: statuses, locks, the clock, reading, building and what it changes."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from schedule.core.board import (
    Board,
    Clock,
    DateWindow,
    Entry,
    InvalidBoardError,
    Kind,
    Spot,
    add_pending,
    board_changes,
    clock_at,
    occupied_sections,
    with_clock,
)
from schedule.core.board_edits import move, place
from schedule.tests.core.boards import (
    CALENDAR,
    CLASSES,
    CLUB,
    ETHICS,
    MATH,
    MON,
    NOTE,
    POLICY,
    PROB,
    PROB_0,
    PROB_1,
    PROB_2,
    READ,
    READ_1,
    TUE,
    WED,
    at,
    course,
    make_board,
    note,
    study,
    week_board,
)

SHANGHAI = ZoneInfo("Asia/Shanghai")


def test_status_follows_from_place_and_origin():
    board = place(move(week_board(), PROB_1, Spot(TUE, 7)), PROB_2, Spot(TUE, 9))
    assert [board.get(i).status for i in (PROB_2, PROB_1, NOTE)] == ["suggested", "existing", "pending"]
    assert board.get(PROB_1).moved and not board.get(READ_1).moved


def test_courses_events_and_begun_blocks_are_locked_but_suggestions_are_not():
    board = week_board()
    locked = {e.id for e in board.entries if board.is_locked(e)}
    assert locked == {MATH, POLICY, CLUB, ETHICS, PROB_0}


def test_a_block_in_the_database_locks_once_the_clock_reaches_it():
    later = with_clock(week_board(), Clock(MON, started=5))
    assert later.is_locked(later.get(PROB_1))


@pytest.mark.parametrize(("hour", "minute", "started"), [(7, 59, 0), (8, 0, 1), (10, 20, 3), (23, 0, 12)])
def test_clock_counts_a_section_as_begun_from_its_first_minute(hour, minute, started):
    assert clock_at(CALENDAR, datetime(2026, 9, 21, hour, minute, tzinfo=SHANGHAI)) == Clock(MON, started)


def test_clock_reads_the_moment_in_the_semesters_time_zone():
    assert clock_at(CALENDAR, datetime(2026, 9, 21, 2, 30, tzinfo=UTC)) == Clock(MON, 3)


def test_a_day_lists_hosts_before_their_guests():
    assert [e.id for e in week_board().on_day(WED)] == [ETHICS, READ_1]
    assert [e.id for e in week_board().guests_of(ETHICS)] == [READ_1]


def test_overlapping_names_what_holds_any_section_of_a_range():
    assert [e.id for e in week_board().overlapping(TUE, 2, 5)] == [POLICY, MATH, CLUB]


def test_the_planner_can_read_every_occupied_section():
    sections = [(day, n, e.id) for day, n, e in occupied_sections(week_board()) if day == TUE]
    assert sections[:3] == [(TUE, 1, POLICY), (TUE, 2, POLICY), (TUE, 3, MATH)]


def test_add_pending_gives_the_next_id_and_the_item_can_be_placed():
    board, new_id = add_pending(week_board(), note(0, length=2))
    assert new_id == 15 and board.next_id == 16
    assert place(board, new_id, Spot(TUE, 7)).get(new_id).place == at(TUE, 7)


def test_board_changes_split_placements_notes_and_moves_in_time_order():
    board = place(place(move(week_board(), PROB_1, Spot(TUE, 9)), PROB_2, Spot(TUE, 11)), NOTE, Spot(MON, 3))
    changes = board_changes(board)
    assert [e.id for e in changes.placements] == [PROB_2]
    assert [e.id for e in changes.notes] == [NOTE]
    assert [e.id for e in changes.moves] == [PROB_1]
    assert PROB_2 not in [e.id for e in changes.unplaced] and changes


def test_an_untouched_board_changes_nothing():
    assert not board_changes(week_board())


@pytest.mark.parametrize(("entries", "problem"), [
    ((course(1, "a", at(MON, 1)), course(1, "b", at(MON, 3))), "duplicate_id"),
    ((study(1, PROB, 1, place=at(MON, 1, host=9)),), "bad_host"),
    ((course(2, "filler", at(MON, 1), filler=True), study(1, PROB, 1, place=at(MON, 3, host=2))),
     "guest_outside_host"),
    ((study(1, 99, 1),), "unknown_class"),
    ((Entry(1, Kind.STUDY, 3, place=at(MON, 1)),), "length_mismatch"),
    ((Entry(1, Kind.NOTE, 13),), "bad_length"),
    ((Entry(1, Kind.CUSTOM, 2, place=at(MON, 1), filler=True),), "filler_not_a_course"),
])
def test_inconsistent_data_cannot_make_a_board(entries, problem):
    with pytest.raises(InvalidBoardError) as caught:
        make_board(*entries)
    assert caught.value.problem == problem


def test_a_window_outside_the_semester_cannot_make_a_board():
    with pytest.raises(InvalidBoardError) as caught:
        make_board(window=DateWindow(MON, datetime(2027, 9, 1).date()))
    assert caught.value.problem == "window_outside_semester"


def test_planned_classes_must_be_known():
    with pytest.raises(InvalidBoardError) as caught:
        Board(CALENDAR, DateWindow(MON, TUE), Clock(MON), classes=CLASSES, planned_class_ids=(77,))
    assert caught.value.problem == "bad_classes"


def test_boards_compare_by_content():
    assert week_board() == week_board()
    assert place(week_board(), PROB_2, Spot(TUE, 7)) != week_board()


def test_find_names_the_entry_of_a_database_row():
    board = week_board()
    assert board.find(item_id=1000 + PROB_2).id == PROB_2
    assert board.find(event_id=100 + MATH).id == MATH and board.find(task_id=500 + NOTE).id == NOTE
    assert board.find(item_id=1) is None and board.find() is None


def test_the_narrowing_accessors_read_what_the_kind_promises():
    board = week_board()
    block = board.get(READ_1)
    assert block.at == block.place == at(WED, 1, host=ETHICS)
    assert (block.study_class, block.study_order) == (READ, 1)
    assert board.place_of(READ_1) == block.place
    assert board.place_of(NOTE) is None and board.place_of(999) is None


@pytest.mark.parametrize(("accessor", "problem"), [
    ("at", "not_placed"), ("study_class", "no_class"), ("study_order", "no_order"),
])
def test_a_narrowing_accessor_on_the_wrong_shape_of_entry_is_a_bug_not_a_refusal(accessor, problem):
    with pytest.raises(InvalidBoardError) as caught:
        getattr(note(NOTE), accessor)
    assert (caught.value.problem, caught.value.detail) == (problem, {"entry": NOTE})
