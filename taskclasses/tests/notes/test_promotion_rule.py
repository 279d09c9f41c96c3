"""The promotion rule itself (pure): an open note in quadrant 2 past its threshold stands in quadrant 1."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from taskclasses.notes.core.promotion import (
    NoteTiming,
    Standing,
    promotion_due,
    standing_at,
    stored_quadrants_reading_as,
)

NOW = datetime(2026, 12, 2, 10, 15, tzinfo=ZoneInfo("Asia/Shanghai"))
PAST = NOW - timedelta(hours=3)


def test_an_important_note_past_its_threshold_stands_in_quadrant_one_since_the_threshold():
    assert standing_at(NoteTiming(2, PAST, completed=False), NOW) == Standing(quadrant=1, pending_since=PAST)


def test_the_threshold_itself_counts_as_passed():
    assert promotion_due(NoteTiming(2, NOW, completed=False), NOW)


def test_a_note_before_its_threshold_done_or_without_one_stays_where_it_is():
    for note in (NoteTiming(2, NOW + timedelta(seconds=1), False), NoteTiming(2, PAST, True), NoteTiming(2, None, False)):
        assert standing_at(note, NOW) == Standing(quadrant=2)


def test_only_quadrant_two_moves():
    assert [standing_at(NoteTiming(q, PAST, False), NOW).quadrant for q in (1, 2, 3, 4)] == [1, 1, 3, 4]


def test_a_list_of_quadrant_one_reads_the_stored_twos_too():
    assert (stored_quadrants_reading_as(1), stored_quadrants_reading_as(2)) == ({1, 2}, {2})
