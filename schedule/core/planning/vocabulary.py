"""The planner's constants: the grid, the strategies and the reasons an item stays unplaced.

The planning steps read them without the typed model (they work on pair ids and tuples);
model.py re-exports them for the model's users.
"""
from __future__ import annotations

from typing import Literal

Strategy = Literal["steady", "rapid", "spaced"]
# Why an item stayed unplaced.
UnplacedReason = Literal["no_candidate_slots", "window_too_small", "shared_slots_exhausted"]

DAYS_PER_WEEK = 7
SECTIONS_PER_DAY = 12  # the bench grid; a student's template may have up to MAX_SECTIONS_PER_DAY
MAX_SECTIONS_PER_DAY = 16
ITEM_SECTIONS = 2      # every item occupies one aligned pair: sections 2k-1 and 2k

STEADY: Strategy = "steady"
RAPID: Strategy = "rapid"
SPACED: Strategy = "spaced"    # revision before an exam (spaced.py); the class names its exam's day
STRATEGIES: tuple[Strategy, ...] = (STEADY, RAPID, SPACED)

REASON_NO_CANDIDATE_SLOTS: UnplacedReason = "no_candidate_slots"
REASON_WINDOW_TOO_SMALL: UnplacedReason = "window_too_small"
REASON_SHARED_SLOTS_EXHAUSTED: UnplacedReason = "shared_slots_exhausted"
