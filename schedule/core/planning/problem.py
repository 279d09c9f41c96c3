"""Plain values the planning engine works on: grid constants, the problem and its outcome.

The engine uses named tuples, not the dataclasses of model.py, so that the command line
(`python -m schedule.core.planner`) starts without importing dataclasses and typing: the
bench times whole processes, and those imports cost more than planning a typical instance.
"""
from __future__ import annotations

from collections import namedtuple

DAYS_PER_WEEK = 7
SECTIONS_PER_DAY = 12  # the bench grid; a student's template may have up to MAX_SECTIONS_PER_DAY
PAIRS_PER_DAY = 6
MAX_SECTIONS_PER_DAY = 16
ITEM_SECTIONS = 2

STEADY = "steady"
RAPID = "rapid"
STRATEGIES = (STEADY, RAPID)

# Why an item stayed unplaced.
REASON_NO_CANDIDATE_SLOTS = "no_candidate_slots"
REASON_WINDOW_TOO_SMALL = "window_too_small"
REASON_SHARED_SLOTS_EXHAUSTED = "shared_slots_exhausted"

Problem = namedtuple("Problem", "weeks occupied classes pairs_per_day", defaults=(PAIRS_PER_DAY,))
Problem.__doc__ = """What to plan.

weeks     number of weeks of the grid
occupied  dict (week, day, section) -> (event_id, embeddable)
classes   list of ClassRequest, in the order the user selected them
pairs_per_day  aligned 2-section pairs in a day (6 on the 12-section bench grid)
"""

ClassRequest = namedtuple("ClassRequest", "strategy start end excluded_slots allow_filler demand excluded_days",
                          defaults=(frozenset(),))
ClassRequest.__doc__ = """One class to plan: strategy, window (start/end as (week, day), inclusive),
excluded pair indices (frozenset of 1..pairs per day), filler permission, number of items and
excluded days of the week (frozenset of 1..7; an extension beyond contract v1)."""

ClassOutcome = namedtuple("ClassOutcome", "pairs candidate_slots shared_slots taken_by_others taken_by")
ClassOutcome.__doc__ = """What one class got.

pairs            chronological (week, day, pair index k, host event id or None), one per placed item
candidate_slots  pairs the class may use on an empty plan
shared_slots     of those, pairs another class (with items) may use too
taken_by_others  of those, pairs that hold another class's item in the plan
taken_by         indexes of the classes holding them, ascending
"""

ClassLabel = namedtuple("ClassLabel", "class_id strategy item_ids")
ClassLabel.__doc__ = "The ids the result speaks in: a class id, its strategy and its item ids in order."

# Result rows; the fields follow the dataclasses Placement, UnplacedItem, ClassFeasibility of model.py.
PlacementRow = namedtuple("PlacementRow", "item_id class_id week day section_start section_end host_event_id")
UnplacedRow = namedtuple("UnplacedRow", "item_id class_id reason detail")
ClassRow = namedtuple("ClassRow", "class_id strategy demand candidate_slots shared_slots "
                                  "taken_by_other_classes placed taken_by_class_ids")
