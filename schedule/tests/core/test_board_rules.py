"""Every refusal: its code, its data, and a board left exactly as it was."""

import json
from datetime import date
from pathlib import Path

import pytest

from schedule.core.board import Spot
from schedule.core.board_edits import Embed, Move, OrderRule, Place, batch, embed, move, place, resize, swap, unplace
from schedule.core.board_errors import (
    ERROR_CODES,
    ERROR_TYPES,
    BeyondLastSection,
    ClassRuleError,
    DifferentLengths,
    DuplicateEntry,
    EntryLocked,
    ExcludedBlock,
    ExcludedDay,
    FillerNotAllowed,
    HostHasGuest,
    InThePast,
    InvalidLength,
    NotAHost,
    NotAPair,
    NotEmbeddable,
    NotInsideHost,
    NotPending,
    NotPlaced,
    NotRemovable,
    OccupiedError,
    OrderBroken,
    OutsideClassWindow,
    OutsideWindow,
    SameEntry,
    SlotTaken,
    SpotError,
    UnknownEntry,
)
from schedule.tests.core.boards import (
    CLUB,
    ENG,
    ENG_1,
    ETHICS,
    FRI,
    LAST_WEEK,
    MATH,
    MON,
    NOTE,
    POLICY,
    PROB,
    PROB_0,
    PROB_1,
    PROB_2,
    PROB_3,
    READ_1,
    READ_2,
    SUN,
    THU,
    TUE,
    WED,
    at,
    make_board,
    refused,
    study,
    week_board,
    week_entries,
)

DOCS = Path(__file__).resolve().parents[3] / "docs" / "editing-rules.md"


# --- The "bad input" list -------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda b: move(b, 99, Spot(TUE, 7)),
    lambda b: place(b, "5", Spot(TUE, 7)),  # type: ignore[arg-type]  # the bad input under test
    lambda b: place(b, [5], Spot(TUE, 7)),  # type: ignore[arg-type]  # the bad input under test
    lambda b: swap(b, PROB_1, 99),
    lambda b: unplace(b, 99),
    lambda b: embed(b, PROB_2, 99),
])
def test_unknown_ids_are_refused(call):
    board = week_board()
    refused(board, lambda: call(board), UnknownEntry)


def test_a_move_onto_a_course_names_the_course_and_the_sections():
    board = week_board()
    error = refused(board, lambda: move(board, PROB_1, Spot(TUE, 3)), SlotTaken)
    assert error.data() == {"entry": PROB_1, "day": "2026-09-22", "sections": [3, 4], "occupant": MATH}


def test_a_move_onto_another_block_names_it():
    board = place(week_board(), PROB_2, Spot(THU, 3))
    error = refused(board, lambda: move(board, PROB_1, Spot(THU, 3)), SlotTaken)
    assert error.occupant == PROB_2


def test_a_longer_block_names_the_first_occupant_and_only_the_sections_it_holds():
    board = resize(place(week_board(), NOTE, Spot(THU, 5)), PROB_2, 4)
    error = refused(board, lambda: place(board, PROB_2, Spot(THU, 3)), SlotTaken)
    assert (error.occupant, error.sections) == (NOTE, (5,))


def test_a_move_into_an_earlier_day_is_the_past():
    board = week_board()
    error = refused(board, lambda: move(board, PROB_1, Spot(LAST_WEEK, 3)), InThePast)
    assert error.data() == {"entry": PROB_1, "day": "2026-09-17", "start": 3}


def test_a_section_of_today_that_has_begun_is_the_past_and_the_next_one_is_not():
    board = make_board(*(e for e in week_entries() if e.id != PROB_0))
    error = refused(board, lambda: place(board, NOTE, Spot(MON, 1)), InThePast)
    assert (error.day, error.start) == (MON, 1)
    assert place(board, NOTE, Spot(MON, 3)).get(NOTE).place.start == 3


def test_a_move_outside_the_window_is_refused_with_the_window():
    board = week_board()
    error = refused(board, lambda: move(board, PROB_1, Spot(date(2026, 10, 5), 1)), OutsideWindow)
    assert (error.data()["first"], error.data()["last"]) == ("2026-09-14", "2026-10-04")


def test_a_move_outside_the_classs_own_dates_is_refused():
    board = week_board()
    error = refused(board, lambda: place(board, ENG_1, Spot(MON, 3)), OutsideClassWindow)
    assert error.data() | {} == {"entry": ENG_1, "day": "2026-09-21", "class_id": ENG, "first": "2026-09-22",
                                 "last": "2026-10-02"}


def test_an_excluded_section_is_refused_naming_the_sections():
    board = week_board()
    error = refused(board, lambda: place(board, ENG_1, Spot(THU, 11)), ExcludedBlock)
    assert (error.class_id, error.sections) == (ENG, (11, 12))


def test_a_longer_block_touching_an_excluded_pair_is_refused():
    board = resize(week_board(), ENG_1, 3)
    error = refused(board, lambda: place(board, ENG_1, Spot(THU, 9)), ExcludedBlock)
    assert error.sections == (11,)


def test_an_excluded_day_is_refused_naming_the_weekday():
    board = week_board()
    assert refused(board, lambda: place(board, ENG_1, Spot(SUN, 3)), ExcludedDay).weekday == 7


def test_a_filler_host_already_holding_a_guest_is_refused_naming_both():
    board = week_board()
    error = refused(board, lambda: place(board, READ_2, Spot(WED, 1)), HostHasGuest)
    assert (error.host, error.guest, error.sections) == (ETHICS, READ_1, (1, 2))


def test_the_other_sections_of_a_hosting_filler_course_still_take_a_guest():
    assert place(week_board(), READ_2, Spot(WED, 3)).get(READ_2).place.host == ETHICS


def test_a_swap_of_unequal_lengths_is_refused():
    board = place(resize(week_board(), NOTE, 2), NOTE, Spot(THU, 1))
    board = place(resize(board, PROB_2, 4), PROB_2, Spot(THU, 5))
    error = refused(board, lambda: swap(board, NOTE, PROB_2), DifferentLengths)
    assert error.data() == {"entry": NOTE, "other": PROB_2, "length": 2, "other_length": 4}


def test_a_batch_whose_second_edit_conflicts_with_its_first_changes_nothing():
    board = week_board()
    error = refused(board, lambda: batch(board, [Place(PROB_2, Spot(THU, 3)), Move(PROB_1, Spot(THU, 3))]),
                    SlotTaken)
    assert (error.occupant, error.edit_index) == (PROB_2, 1)
    assert error.data()["edit_index"] == 1


# --- The entry itself -----------------------------------------------------------------------------

@pytest.mark.parametrize("entry_id", [MATH, POLICY, CLUB, PROB_0])
def test_courses_events_filler_hosts_and_begun_blocks_never_move(entry_id):
    board = week_board()
    refused(board, lambda: move(board, entry_id, Spot(THU, 7)), EntryLocked)


def test_placing_a_placed_entry_is_refused():
    board = week_board()
    refused(board, lambda: place(board, PROB_1, Spot(THU, 7)), NotPending)


def test_moving_or_taking_off_a_pending_entry_is_refused():
    board = week_board()
    refused(board, lambda: move(board, PROB_2, Spot(THU, 7)), NotPlaced)
    refused(board, lambda: unplace(board, PROB_2), NotPlaced)


def test_a_block_in_the_database_can_move_but_not_come_off():
    board = week_board()
    refused(board, lambda: unplace(board, PROB_1), NotRemovable)


def test_a_swap_with_itself_is_refused():
    board = week_board()
    refused(board, lambda: swap(board, PROB_1, PROB_1), SameEntry)


def test_a_batch_editing_one_entry_twice_is_refused():
    board = week_board()
    error = refused(board, lambda: batch(board, [Place(PROB_2, Spot(THU, 1)), Place(PROB_2, Spot(THU, 3))]),
                    DuplicateEntry)
    assert error.edit_index == 1


@pytest.mark.parametrize("length", [0, 13])
def test_a_length_outside_the_day_is_refused(length):
    board = week_board()
    assert refused(board, lambda: resize(board, NOTE, length), InvalidLength).longest == 12


# --- The place's shape -----------------------------------------------------------------------------

def test_a_block_starts_on_the_first_section_of_a_pair():
    board = week_board()
    refused(board, lambda: place(board, NOTE, Spot(THU, 2)), NotAPair)


def test_a_block_ends_by_the_days_last_section():
    board = resize(week_board(), PROB_2, 4)
    error = refused(board, lambda: place(board, PROB_2, Spot(THU, 11)), BeyondLastSection)
    assert (error.start, error.end, error.last) == (11, 14, 12)


# --- Filler courses -------------------------------------------------------------------------------

def test_a_quick_note_cannot_sit_in_a_filler_course():
    board = week_board()
    assert refused(board, lambda: place(board, NOTE, Spot(TUE, 1)), NotEmbeddable).host == POLICY


def test_a_class_without_filler_courses_is_refused_naming_the_course():
    board = week_board()
    error = refused(board, lambda: place(board, ENG_1, Spot(TUE, 1)), FillerNotAllowed)
    assert (error.host, error.class_id) == (POLICY, ENG)


def test_a_block_sticking_out_of_a_filler_course_is_refused():
    board = resize(week_board(), PROB_2, 4)
    error = refused(board, lambda: place(board, PROB_2, Spot(WED, 3)), NotInsideHost)
    assert (error.host, error.sections) == (ETHICS, (3, 4))


def test_embedding_into_a_course_that_is_not_filler_is_refused():
    board = week_board()
    refused(board, lambda: embed(board, PROB_2, MATH), NotAHost)


def test_embedding_into_free_time_is_refused():
    board = week_board()
    refused(board, lambda: embed(board, PROB_2, POLICY, Spot(THU, 1)), NotAHost)


# --- Order ------------------------------------------------------------------------------------------

def test_a_later_item_may_not_go_before_an_earlier_one():
    board = batch(week_board(), [Place(PROB_2, Spot(THU, 1)), Place(PROB_3, Spot(THU, 3))])
    error = refused(board, lambda: move(board, PROB_3, Spot(WED, 7)), OrderBroken)
    assert error.data() == {"entry": PROB_2, "later": PROB_3, "class_id": PROB}


def test_a_batch_breaking_the_order_names_the_edit_of_the_later_item():
    board = week_board()
    edits = [Place(NOTE, Spot(THU, 1)), Place(PROB_3, Spot(WED, 7)), Place(PROB_2, Spot(THU, 3))]
    error = refused(board, lambda: batch(board, edits), OrderBroken)
    assert (error.entry, error.later, error.edit_index) == (PROB_2, PROB_3, 1)


def test_placing_an_earlier_item_after_a_later_one_is_refused():
    board = place(week_board(), PROB_3, Spot(WED, 7))
    refused(board, lambda: place(board, PROB_2, Spot(THU, 1)), OrderBroken)


def test_a_swap_inside_one_class_breaks_its_order():
    board = batch(week_board(), [Place(PROB_2, Spot(THU, 1)), Place(PROB_3, Spot(THU, 3))])
    refused(board, lambda: swap(board, PROB_2, PROB_3), OrderBroken)


def test_reordering_is_allowed_when_the_student_agreed():
    board = batch(week_board(), [Place(PROB_2, Spot(THU, 1)), Place(PROB_3, Spot(THU, 3))])
    swapped = swap(board, PROB_2, PROB_3, order=OrderRule.ALLOW)
    assert swapped.get(PROB_3).place.start == 1


def test_an_order_already_broken_in_the_database_does_not_block_other_edits():
    board = make_board(study(PROB_1, PROB, 1, place=at(THU, 1), saved=True),
                       study(PROB_2, PROB, 2, place=at(MON, 7), saved=True), study(PROB_3, PROB, 3))
    still_broken = move(board, PROB_2, Spot(WED, 7))
    assert place(still_broken, PROB_3, Spot(FRI, 1)).get(PROB_3).placed
    refused(board, lambda: place(board, PROB_3, Spot(WED, 1)), OrderBroken)


# --- The error catalogue ------------------------------------------------------------------------------

def test_every_error_has_its_own_code():
    assert len(ERROR_CODES) == len(ERROR_TYPES)


def test_error_groups_tell_the_edge_how_to_answer():
    assert issubclass(SlotTaken, OccupiedError) and issubclass(HostHasGuest, OccupiedError)
    assert issubclass(ExcludedDay, ClassRuleError) and issubclass(InThePast, SpotError)
    assert not issubclass(UnknownEntry, SpotError)


def test_error_data_is_plain_json():
    board = week_board()
    error = refused(board, lambda: move(board, PROB_1, Spot(TUE, 3)), SlotTaken)
    assert json.loads(json.dumps(error.data())) == error.data()


def test_every_code_is_explained_in_the_editing_rules():
    text = DOCS.read_text("utf-8")
    assert [code for code in sorted(ERROR_CODES) if f"`{code}`" not in text] == []


def test_an_embed_names_the_day_of_the_refused_place():
    board = week_board()
    error = refused(board, lambda: batch(board, [Embed(PROB_2, ETHICS)]), HostHasGuest)
    assert error.day == WED
