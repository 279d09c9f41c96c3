"""Places that would work: nearest first, never one the edit would refuse; and openings for searches."""

from schedule.core.board import Kind, Spot
from schedule.core.board_edits import Embed, Move, Place, Swap, Unplace, apply, batch, place
from schedule.core.board_suggest import Opening, openings, probe, suggest_places
from schedule.tests.core.boards import (
    ENG,
    ENG_1,
    ETHICS,
    MATH,
    MON,
    NOTE,
    POLICY,
    PROB,
    PROB_0,
    PROB_1,
    PROB_2,
    PROB_3,
    READ_2,
    SUN,
    THU,
    TUE,
    WED,
    week_board,
)


def test_a_move_onto_a_course_hears_of_the_nearest_places_that_day_first():
    assert suggest_places(week_board(), Move(PROB_1, Spot(TUE, 3))) == (
        Spot(TUE, 1), Spot(TUE, 7), Spot(TUE, 9))  # 1-2 inside the filler course, 5-6 is the club


def test_every_suggestion_works_when_tried():
    board = week_board()
    edit = Place(ENG_1, Spot(SUN, 3))
    found = suggest_places(board, edit, limit=5)
    assert len(found) == 5
    for spot in found:
        apply(board, Place(ENG_1, spot))


def test_suggestions_keep_the_class_order():
    board = place(week_board(), PROB_3, Spot(WED, 7))
    for spot in suggest_places(board, Place(PROB_2, Spot(THU, 1))):
        assert (spot.day, spot.start) < (WED, 7) and (spot.day, spot.start) > (MON, 5)


def test_a_quick_note_is_never_offered_a_filler_course():
    assert Spot(TUE, 1) not in suggest_places(week_board(), Place(NOTE, Spot(TUE, 3)), limit=10)


def test_the_limit_is_kept():
    assert len(suggest_places(week_board(), Move(PROB_1, Spot(TUE, 3)), limit=1)) == 1


def test_no_place_helps_an_entry_that_is_locked_unknown_or_not_moved_by_place():
    board = week_board()
    assert suggest_places(board, Move(MATH, Spot(THU, 1))) == ()
    assert suggest_places(board, Move(99, Spot(THU, 1))) == ()
    assert suggest_places(board, Swap(PROB_1, PROB_0)) == ()
    assert suggest_places(board, Unplace(PROB_2)) == ()


def test_a_batch_gets_other_places_for_the_edit_that_was_refused():
    edits = [Place(PROB_2, Spot(THU, 3)), Place(PROB_3, Spot(THU, 3))]
    found = suggest_places(week_board(), edits)
    assert found and all(spot != Spot(THU, 3) for spot in found)
    batch(week_board(), [edits[0], Place(PROB_3, found[0])])


def test_a_refused_embed_hears_of_places_inside_or_outside_filler_courses():
    found = suggest_places(week_board(), Embed(READ_2, ETHICS))
    assert found[0] == Spot(WED, 3)


def test_openings_list_free_time_and_filler_courses_for_a_class():
    found = list(openings(week_board(), probe(2, class_id=PROB), days=[TUE]))
    assert found == [Opening(TUE, 1, 2, POLICY), Opening(TUE, 7, 8), Opening(TUE, 9, 10), Opening(TUE, 11, 12)]


def test_openings_follow_the_class_rules():
    found = list(openings(week_board(), probe(2, class_id=ENG), days=[TUE]))
    assert [o.start for o in found] == [7, 9]  # no filler course, no 11-12


def test_openings_of_a_placed_entry_count_its_own_sections_as_free():
    board = week_board()
    assert Opening(MON, 5, 6) in list(openings(board, board.get(PROB_1), days=[MON]))


def test_openings_skip_the_past():
    assert [o.start for o in openings(week_board(), probe(1, kind=Kind.NOTE), days=[MON])] == [3, 7, 9, 11]


def test_a_probe_without_a_class_has_no_class_rules():
    assert len(list(openings(week_board(), probe(2), days=[THU]))) == 6
