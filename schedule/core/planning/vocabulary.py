"""The planner's constants: the grid, the strategies and the reasons an item stays unplaced.

They live apart from model.py so that the planning steps and the command-line planner can use
them without creating the typed model's frozen dataclasses: `import dataclasses` and building
the classes cost about a third of the command-line planner's start-up (the bench times whole
processes; see docs/planner-contract.md, "The benchmark").
"""
from __future__ import annotations

TYPE_CHECKING = False        # mypy treats a name TYPE_CHECKING as true; `typing` stays unimported
if TYPE_CHECKING:
    from typing import Literal

    Strategy = Literal["steady", "rapid", "spaced"]
    # Why an item stayed unplaced.
    UnplacedReason = Literal["no_candidate_slots", "window_too_small", "shared_slots_exhausted"]
else:                        # at run time the aliases only have to exist (e.g. for typing.cast)
    Strategy = UnplacedReason = str

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
