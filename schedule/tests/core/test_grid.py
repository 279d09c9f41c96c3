from datetime import date

import pytest

from schedule.core.grid import (
    Grid,
    HostHasGuestError,
    NotHostableError,
    Occupant,
    OccupantKind,
    OccupantLockedError,
    Run,
    SlotOutsideGridError,
    SlotTakenError,
    UnknownEventError,
)
from schedule.core.time_model import SectionTemplate, Semester, SlotKey

MATH = Occupant(103, OccupantKind.COURSE, "高等数学A", locked=True)
POLICY = Occupant(107, OccupantKind.COURSE, "形势与政策", embeddable=True)
ETHICS = Occupant(108, OccupantKind.COURSE, "思想道德与法治", embeddable=True)
REVIEW = Occupant(1001, OccupantKind.TASK, "概率论复习 #1")
NOTE = Occupant(5, OccupantKind.QUICK_NOTE, "交实验报告")


def day_slots(week: int, day: int, *sections: int) -> list[SlotKey]:
    return [SlotKey(week, day, s) for s in sections]


@pytest.fixture
def grid() -> Grid:
    return (
        Grid(18, 12).place(day_slots(1, 1, 1, 2), MATH).place(day_slots(1, 2, 5, 6, 7, 8), POLICY)
    )


def test_an_empty_grid_has_every_slot_free():
    empty = Grid(2, 12)
    assert len(empty) == 0
    assert empty.free_sections(2, 7) == tuple(range(1, 13))


def test_place_returns_a_new_grid_and_leaves_the_original_untouched(grid):
    placed = grid.place(day_slots(1, 1, 3, 4), REVIEW)
    assert placed.occupant(SlotKey(1, 1, 3)) == REVIEW
    assert grid.occupant(SlotKey(1, 1, 3)) is None


def test_place_on_a_taken_slot_names_the_occupant(grid):
    with pytest.raises(SlotTakenError) as caught:
        grid.place(day_slots(1, 1, 2, 3), REVIEW)
    assert caught.value.code == "slot_taken"
    assert (
        caught.value.message
        == "week 1, Monday, section 2 is already taken by 高等数学A (course 103)."
    )
    assert caught.value.detail["occupant"] == MATH


def test_place_is_all_or_nothing(grid):
    with pytest.raises(SlotTakenError):
        grid.place(day_slots(1, 1, 3, 2), REVIEW)
    assert grid.occupant(SlotKey(1, 1, 3)) is None


def test_place_outside_the_grid_is_refused(grid):
    with pytest.raises(SlotOutsideGridError) as caught:
        grid.place([SlotKey(19, 1, 1)], REVIEW)
    assert caught.value.message == (
        "week 19, Monday, section 1 is outside the grid (weeks 1..18, days 1..7, sections 1..12)."
    )


def test_free_sections_leave_out_held_sections(grid):
    assert grid.free_sections(1, 1) == tuple(range(3, 13))


def test_free_pairs_need_both_sections_free(grid):
    busy = grid.place([SlotKey(1, 3, 4)], NOTE)
    assert busy.free_pairs(1, 3) == (1, 3, 4, 5, 6)


def test_hostable_pairs_are_pairs_held_by_one_embeddable_host(grid):
    assert grid.hostable_pairs(1, 2) == ((3, 107), (4, 107))
    assert grid.hostable_pairs(1, 1) == ()


def test_a_pair_split_between_two_filler_courses_is_not_hostable():
    split = Grid(1, 12).place([SlotKey(1, 1, 7)], POLICY).place([SlotKey(1, 1, 8)], ETHICS)
    assert split.hostable_pairs(1, 1) == ()


def test_embed_puts_a_guest_on_a_filler_course(grid):
    embedded = grid.embed(day_slots(1, 2, 5, 6), REVIEW)
    assert embedded.guest(SlotKey(1, 2, 5)) == REVIEW
    assert embedded.occupant(SlotKey(1, 2, 5)) == POLICY
    assert embedded.hostable_pairs(1, 2) == ((4, 107),)


def test_embed_into_a_course_that_forbids_it_is_refused(grid):
    with pytest.raises(NotHostableError) as caught:
        grid.embed(day_slots(1, 1, 1, 2), REVIEW)
    assert caught.value.code == "not_hostable"
    assert caught.value.message == (
        "week 1, Monday, section 1 is held by 高等数学A (course 103), which does not allow embedding."
    )


def test_embed_into_free_time_is_refused(grid):
    with pytest.raises(NotHostableError) as caught:
        grid.embed(day_slots(1, 3, 1, 2), REVIEW)
    assert caught.value.message == (
        "week 1, Wednesday, section 1 is free; "
        "概率论复习 #1 (task 1001) can only be embedded in a course."
    )


def test_a_filler_course_hosts_at_most_one_guest_per_slot(grid):
    embedded = grid.embed(day_slots(1, 2, 5, 6), REVIEW)
    with pytest.raises(SlotTakenError) as caught:
        embedded.embed(day_slots(1, 2, 6, 7), NOTE)
    assert (
        caught.value.message
        == "week 1, Tuesday, section 6 already hosts 概率论复习 #1 (task 1001)."
    )


def test_a_guest_cannot_straddle_two_hosts():
    two_hosts = Grid(1, 12).place([SlotKey(1, 1, 7)], POLICY).place([SlotKey(1, 1, 8)], ETHICS)
    with pytest.raises(NotHostableError) as caught:
        two_hosts.embed(day_slots(1, 1, 7, 8), REVIEW)
    assert caught.value.detail["hosts"] == [107, 108]


def test_remove_frees_every_slot_of_the_event(grid):
    removed = grid.remove(107)
    assert removed.free_sections(1, 2) == tuple(range(1, 13))
    assert removed.slots_of(107) == ()


def test_remove_of_a_guest_keeps_its_host(grid):
    embedded = grid.embed(day_slots(1, 2, 5, 6), REVIEW)
    assert embedded.remove(1001) == grid


def test_remove_of_an_unknown_event_is_refused(grid):
    with pytest.raises(UnknownEventError) as caught:
        grid.remove(999)
    assert caught.value.message == "No slot holds event 999."


def test_remove_of_a_locked_event_is_refused(grid):
    with pytest.raises(OccupantLockedError) as caught:
        grid.remove(103)
    assert caught.value.message == "高等数学A (course 103) is locked and cannot be removed."


def test_remove_of_a_host_with_a_guest_is_refused(grid):
    embedded = grid.embed(day_slots(1, 2, 5, 6), REVIEW)
    with pytest.raises(HostHasGuestError) as caught:
        embedded.remove(107)
    assert caught.value.code == "host_has_guest"
    assert caught.value.message == (
        "形势与政策 (course 107) hosts 概率论复习 #1 (task 1001) at week 1, Tuesday, section 5; "
        "remove the guest first."
    )


def test_items_come_in_slot_order_whatever_the_insertion_order():
    shuffled = (
        Grid(3, 12)
        .place([SlotKey(3, 1, 1)], NOTE)
        .place([SlotKey(1, 7, 12), SlotKey(1, 2, 3)], REVIEW)
    )
    assert [slot for slot, _ in shuffled] == [SlotKey(1, 2, 3), SlotKey(1, 7, 12), SlotKey(3, 1, 1)]


def test_slots_of_lists_an_event_in_slot_order(grid):
    assert grid.slots_of(103) == (SlotKey(1, 1, 1), SlotKey(1, 1, 2))


def test_day_runs_merge_consecutive_sections_of_one_occupant_and_guest(grid):
    embedded = grid.embed(day_slots(1, 2, 5, 6), REVIEW)
    assert embedded.day_runs(1, 2) == (
        Run(1, 2, 5, 6, POLICY, REVIEW),
        Run(1, 2, 7, 8, POLICY, None),
    )


def test_copy_is_equal_and_independent(grid):
    copied = grid.copy()
    assert copied == grid and copied is not grid
    assert copied.place([SlotKey(2, 1, 1)], NOTE) != grid


def test_for_semester_sizes_the_grid_from_weeks_and_sections():
    sized = Grid.for_semester(Semester(date(2026, 3, 2), 16), SectionTemplate.default_cqupt())
    assert (sized.weeks, sized.sections_per_day) == (16, 12)


def test_a_guest_without_an_embeddable_host_is_rejected_at_construction():
    with pytest.raises(NotHostableError):
        Grid(1, 12, cells={SlotKey(1, 1, 1): MATH}, guests={SlotKey(1, 1, 1): REVIEW})


def test_occupants_can_be_identified_by_text_ids_for_suggestions():
    suggested = Occupant("suggested-1", OccupantKind.TASK, "复习")
    assert Grid(1, 12).place([SlotKey(1, 1, 1)], suggested).slots_of("suggested-1") == (
        SlotKey(1, 1, 1),
    )
