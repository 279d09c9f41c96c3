"""The student's own rules in the editing core: pins, protected times, latest section, daily cap, buffer."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schedule.core.board import Board, Spot
from schedule.core.board_codec import board_from_json, board_to_json
from schedule.core.board_edits import Move, Place, batch, move, place, resize, swap, unplace
from schedule.core.board_errors import (
    AfterLatestSection,
    BoardError,
    BufferTooSmall,
    DailyCapReached,
    EntryPinned,
    ProtectedTimeHit,
)
from schedule.core.board_suggest import openings, probe, suggest_places
from schedule.core.student_rules import (
    ProtectedTime,
    StudentRules,
    blocked_sections,
    gap_between,
    protected_problems,
    sections_around,
    sections_for_times,
)
from schedule.core.time_model import SectionTemplate
from schedule.tests.core.boards import (
    ENG_1,
    FRI,
    MON,
    NOTE,
    PROB,
    PROB_1,
    PROB_2,
    PROB_3,
    PROB_4,
    READ_2,
    SAT,
    THU,
    WED,
    refused,
    week_board,
)

LUNCH = ProtectedTime("午饭", 5, 5)
WEEKDAY_LUNCH = ProtectedTime("午饭", 5, 5, frozenset(range(1, 6)))


def ruled(rules: StudentRules, *, pinned: tuple[int, ...] = ()) -> Board:
    board = week_board()
    entries = tuple(replace(e, pinned=e.id in pinned) for e in board.entries)
    return replace(board, rules=rules, entries=entries)


# --- Pins ------------------------------------------------------------------------------------------

def test_a_pinned_block_is_neither_moved_swapped_resized_nor_taken_off():
    board = ruled(StudentRules(), pinned=(PROB_1,))
    assert refused(board, lambda: move(board, PROB_1, Spot(THU, 3)), EntryPinned).data()["entry"] == PROB_1
    refused(board, lambda: unplace(board, PROB_1), EntryPinned)
    refused(board, lambda: resize(board, PROB_1, 1), EntryPinned)
    placed = place(board, PROB_2, Spot(THU, 3))
    refused(placed, lambda: swap(placed, PROB_2, PROB_1), EntryPinned)


def test_a_pin_gets_no_suggestions_and_other_blocks_still_move():
    board = ruled(StudentRules(), pinned=(PROB_1,))
    assert suggest_places(board, Move(PROB_1, Spot(THU, 3))) == ()
    moved = move(place(board, PROB_2, Spot(THU, 3)), PROB_2, Spot(THU, 7))
    assert moved.get(PROB_2).place.start == 7  # type: ignore[union-attr]


# --- Place rules: protected times and the latest section -----------------------------------------

def test_a_protected_time_refuses_a_study_block_naming_it():
    board = ruled(StudentRules(protected=(LUNCH,)))
    error = refused(board, lambda: place(board, PROB_2, Spot(THU, 5)), ProtectedTimeHit)
    assert error.data()["sections"] == [5] and error.data()["protected"] == "午饭"
    assert place(board, PROB_2, Spot(THU, 3)).get(PROB_2).place.start == 3  # type: ignore[union-attr]


def test_a_protected_time_keeps_to_its_weekdays():
    board = ruled(StudentRules(protected=(WEEKDAY_LUNCH,)))
    refused(board, lambda: place(board, PROB_2, Spot(FRI, 5)), ProtectedTimeHit)
    assert place(board, PROB_2, Spot(SAT, 5)).get(PROB_2).place.day == SAT  # type: ignore[union-attr]


def test_the_latest_section_refuses_a_late_block():
    board = ruled(StudentRules(latest_section=8))
    error = refused(board, lambda: place(board, PROB_2, Spot(THU, 9)), AfterLatestSection)
    assert (error.data()["end"], error.data()["latest"]) == (10, 8)
    assert place(board, PROB_2, Spot(THU, 7)).get(PROB_2).place.end == 8  # type: ignore[union-attr]


def test_quick_notes_and_the_board_without_rules_are_unaffected():
    board = ruled(StudentRules(protected=(LUNCH,), latest_section=4))
    # Rules concern study blocks; a quick note may go to lunch.
    assert place(board, NOTE, Spot(THU, 5)).get(NOTE).place.start == 5  # type: ignore[union-attr]
    plain = week_board()
    assert not plain.rules
    assert place(plain, PROB_2, Spot(THU, 11)).get(PROB_2).place.start == 11  # type: ignore[union-attr]


# --- Day rules: the daily cap and the buffer --------------------------------------------------------

def test_the_daily_cap_counts_the_blocks_already_there():
    board = ruled(StudentRules(daily_cap=2))  # Monday holds PROB_0 and PROB_1 already
    error = refused(board, lambda: place(board, PROB_2, Spot(MON, 9)), DailyCapReached)
    assert error.data()["cap"] == 2
    # Moving a block within a full day keeps the count.
    assert move(board, PROB_1, Spot(MON, 9)).get(PROB_1).place.start == 9  # type: ignore[union-attr]


def test_the_daily_cap_counts_a_batch_as_it_goes():
    board = ruled(StudentRules(daily_cap=2))
    two = batch(board, [Place(PROB_2, Spot(THU, 1)), Place(PROB_3, Spot(THU, 3))])
    assert len([e for e in two.on_day(THU)]) == 2
    error = refused(board, lambda: batch(board, [Place(PROB_2, Spot(THU, 1)), Place(PROB_3, Spot(THU, 3)),
                                                 Place(PROB_4, Spot(THU, 5))]), DailyCapReached)
    assert error.edit_index == 2


def test_the_buffer_keeps_free_sections_between_study_blocks():
    board = ruled(StudentRules(buffer=2))  # PROB_1 holds Monday 5-6
    error = refused(board, lambda: place(board, PROB_2, Spot(MON, 7)), BufferTooSmall)
    assert (error.data()["other"], error.data()["buffer"]) == (PROB_1, 2)
    assert place(board, PROB_2, Spot(MON, 9)).get(PROB_2).place.start == 9  # type: ignore[union-attr]
    assert gap_between((5, 6), (9, 10)) == 2


def test_a_block_inside_a_filler_course_counts_for_the_buffer():
    board = ruled(StudentRules(buffer=1))  # READ_1 sits in sections 1-2 of the filler course on Wednesday
    refused(board, lambda: place(board, READ_2, Spot(WED, 3)), BufferTooSmall)


def test_a_day_that_broke_a_rule_before_it_was_set_is_left_alone():
    board = ruled(StudentRules(daily_cap=1))  # Monday already holds two blocks
    assert place(board, PROB_2, Spot(THU, 1)).get(PROB_2).place is not None
    refused(board, lambda: place(board, PROB_2, Spot(MON, 9)), DailyCapReached)


# --- Suggestions and openings ------------------------------------------------------------------------

def test_suggestions_respect_every_rule():
    rules = StudentRules(protected=(LUNCH,), latest_section=10, daily_cap=2, buffer=1)
    board = ruled(rules)
    edit = Place(PROB_2, Spot(THU, 5))
    spots = suggest_places(board, edit, limit=6)
    assert spots
    for spot in spots:
        assert 5 not in range(spot.start, spot.start + 2) and spot.start + 1 <= 10
        place(board, PROB_2, spot)  # accepted as suggested


def test_openings_never_offer_protected_or_late_sections():
    board = ruled(StudentRules(protected=(LUNCH,), latest_section=8))
    found = list(openings(board, probe(2, class_id=PROB)))
    assert found
    assert all(not (o.start <= 5 <= o.end) and o.end <= 8 for o in found)


# --- Reading the rules ---------------------------------------------------------------------------------

def test_rules_travel_with_the_stored_board():
    board = ruled(StudentRules(daily_cap=3, buffer=1, latest_section=10, protected=(WEEKDAY_LUNCH,)),
                  pinned=(PROB_1,))
    again = board_from_json(board_to_json(board))
    assert again.rules == board.rules and again.get(PROB_1).pinned  # type: ignore[union-attr]
    assert "rules" not in board_to_json(week_board())


def test_times_map_to_the_sections_they_touch_and_problems_are_found():
    template = SectionTemplate.default_cqupt()
    times = [(s.start, s.end) for s in template.sections]
    assert sections_for_times(times, time(11, 40), time(13, 30)) is None  # 15 of section 4's 45 minutes
    assert sections_around(times, time(11, 40), time(13, 30)) == (4, 5)
    assert sections_for_times(times, time(11, 30), time(13, 30)) == (4, 4)  # 25 of 45 minutes: mostly lunch
    assert sections_for_times(times, time(12, 0), time(13, 30)) is None
    assert sections_for_times(times, time(17, 0), time(19, 50)) == (8, 9)
    clash = protected_problems([LUNCH, ProtectedTime("午休", 4, 5, frozenset({1}))], 12)
    assert [p.code for p in clash] == ["protected_overlap"]
    assert [p.code for p in protected_problems([ProtectedTime("x", 11, 14)], 12)] == ["protected_sections"]
    assert blocked_sections(StudentRules(protected=(LUNCH,), latest_section=10), date(2026, 9, 21), 12) == \
        frozenset({5, 11, 12})


# --- Property: whatever the rules, what the core accepts keeps them ------------------------------------

DAYS = [MON, THU, FRI, SAT]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cap=st.one_of(st.none(), st.integers(1, 4)), buffer=st.integers(0, 3),
       latest=st.one_of(st.none(), st.integers(4, 12)), lunch=st.booleans(),
       spots=st.lists(st.tuples(st.sampled_from(DAYS), st.sampled_from([1, 3, 5, 7, 9, 11])), min_size=1,
                      max_size=5))
def test_every_board_the_core_accepts_keeps_the_rules(cap, buffer, latest, lunch, spots):
    rules = StudentRules(daily_cap=cap, buffer=buffer, latest_section=latest, protected=(LUNCH,) if lunch else ())
    board = ruled(rules)
    new_blocks = []
    for entry_id, (day, start) in zip((PROB_2, PROB_3, PROB_4, ENG_1), spots):
        try:
            board = place(board, entry_id, Spot(day, start))
        except BoardError:
            continue
        new_blocks.append(entry_id)
    for entry_id in new_blocks:
        where = board.get(entry_id).place  # type: ignore[union-attr]
        assert rules.protected_hit(where.day, where.start, where.end) is None
        assert not rules.too_late(where.end)
        same_day = [e for e in board.on_day(where.day) if e.kind.value == "task_item"]
        if where.day != MON:  # Monday broke nothing before: it holds two blocks from the start
            assert cap is None or len(same_day) <= cap
            others = [(e.place.start, e.place.end) for e in same_day if e.id != entry_id]  # type: ignore[union-attr]
            assert rules.too_close(where.start, where.end, others) is None


def test_empty_rules_are_falsy():
    assert not StudentRules() and StudentRules(buffer=1) and StudentRules(daily_cap=1).counts_neighbours
    with pytest.raises(TypeError):
        StudentRules(1, 2, 3, (), 5)  # type: ignore[call-arg]
