"""The phone's day agenda lists the day's free sections between its items, as runs a tap adds an event to."""

from __future__ import annotations

import pytest

from board.agenda_presenter import agenda_days
from board.week_presenter import board_rows
from schedule.selectors import week_board_get
from schedule.tests.factories import custom_event, import_csv

LABELS = {n: str(n) for n in range(1, 8)}


def _tuesday(user):
    board = week_board_get(user=user, week=3)
    return agenda_days(board, board_rows(board), LABELS)[1]


@pytest.mark.django_db
def test_free_runs_fill_the_gaps_between_a_days_items_in_section_order(user):
    import_csv(user, "大学英语,2,2,4,李老师,二教204,1-16")
    custom_event(user, title="社团活动", week=3, day=2, start=7, end=8)
    tuesday = _tuesday(user)
    assert [(type(row).__name__, row.sections) for row in tuesday.rows] == [
        ("FreeRun", "1"), ("AgendaItem", "2–4"), ("FreeRun", "5–6"), ("AgendaItem", "7–8"), ("FreeRun", "9–12")]
    assert tuesday.first_free_section == 1


@pytest.mark.django_db
def test_a_full_morning_starts_the_days_add_at_its_first_free_section(user):
    import_csv(user, "高等数学,2,1,4,王老师,一教101,1-16")
    tuesday = _tuesday(user)
    assert [(run.day, run.first.number, run.last.number) for run in tuesday.free] == [(2, 5, 12)]
    assert tuesday.first_free_section == 5


@pytest.mark.django_db
def test_an_empty_day_is_one_free_run_of_every_section(user):
    tuesday = _tuesday(user)
    assert tuesday.items == ()
    assert [run.sections for run in tuesday.free] == ["1–12"]
