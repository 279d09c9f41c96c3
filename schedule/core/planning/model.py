"""The planner's typed values: the problem it is given, the result it gives back, and their vocabulary.

Every way into the planner speaks these types: the JSON contract adapter (contract.py), the
database adapter (``board.planning``), ``plan()`` and the callers of its result.
They are frozen and keyword-only, so a value is never built from a row by field position.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

# The constants and the Literal aliases live in vocabulary.py (the planning steps use them
# without this module's dataclasses); they are re-exported here for the model's users.
from schedule.core.planning.vocabulary import DAYS_PER_WEEK as DAYS_PER_WEEK
from schedule.core.planning.vocabulary import ITEM_SECTIONS as ITEM_SECTIONS
from schedule.core.planning.vocabulary import MAX_SECTIONS_PER_DAY as MAX_SECTIONS_PER_DAY
from schedule.core.planning.vocabulary import RAPID as RAPID
from schedule.core.planning.vocabulary import REASON_NO_CANDIDATE_SLOTS as REASON_NO_CANDIDATE_SLOTS
from schedule.core.planning.vocabulary import REASON_SHARED_SLOTS_EXHAUSTED as REASON_SHARED_SLOTS_EXHAUSTED
from schedule.core.planning.vocabulary import REASON_WINDOW_TOO_SMALL as REASON_WINDOW_TOO_SMALL
from schedule.core.planning.vocabulary import SECTIONS_PER_DAY as SECTIONS_PER_DAY
from schedule.core.planning.vocabulary import SPACED as SPACED
from schedule.core.planning.vocabulary import STEADY as STEADY
from schedule.core.planning.vocabulary import STRATEGIES as STRATEGIES
from schedule.core.planning.vocabulary import Strategy as Strategy
from schedule.core.planning.vocabulary import UnplacedReason as UnplacedReason

# --------------------------------------------------------------------------- the problem

@dataclass(frozen=True, slots=True, kw_only=True, order=True)
class GridDay:
    """A calendar day of the teaching grid: week 1.. and day 1 (Monday) .. 7."""

    week: int
    day: int


@dataclass(frozen=True, slots=True, kw_only=True)
class OccupiedSection:
    """One occupied atomic section: an event covering several sections, days or weeks has one row per section.

    An embeddable section belongs to a filler course (水课) a task may be embedded in; a section
    that already hosts a task is not embeddable.
    """

    event_id: int
    week: int
    day: int
    section: int
    embeddable: bool = False
    name: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemSpec:
    """A task item; every item occupies one aligned 2-section pair."""

    id: int
    sections: int = ITEM_SECTIONS
    content: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class TaskClassSpec:
    """A task class to plan: its window (inclusive), preferences and items in order."""

    id: int
    strategy: Strategy
    start: GridDay
    end: GridDay
    items: tuple[ItemSpec, ...] = ()
    excluded_slots: frozenset[int] = frozenset()   # pair indices k (sections 2k-1, 2k) never used
    allow_filler: bool = False
    name: str = ""
    excluded_days: frozenset[int] = frozenset()    # 1..7; beyond contract v1
    exam: GridDay | None = None                    # the exam day a spaced class revises for; beyond v1

    @property
    def demand(self) -> int:
        """Return the number of items the class asks to place."""
        return len(self.items)


@dataclass(frozen=True, slots=True, kw_only=True)
class StudyBlock:
    """A study block already on the timetable (its sections are also occupied): it counts for the cap and buffer."""

    week: int
    day: int
    section_start: int
    section_end: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ProtectedSections:
    """Sections ``first..last`` kept free of study on the weekdays ``days`` (1 = Monday)."""

    first: int
    last: int
    days: frozenset[int] = frozenset(range(1, DAYS_PER_WEEK + 1))
    name: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanningRules:
    """The student's own rules (beyond contract v1; see schedule/core/planning/rules.py)."""

    daily_cap: int | None = None                    # study blocks a day, those in ``blocks`` included
    buffer: int = 0                                 # free sections between two study blocks of a day
    latest_section: int | None = None               # a block ends by this section
    protected: tuple[ProtectedSections, ...] = ()
    blocks: tuple[StudyBlock, ...] = ()             # study blocks already placed

    def __bool__(self) -> bool:
        return (self.daily_cap is not None or self.buffer > 0 or self.latest_section is not None
                or bool(self.protected))


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanningInstance:
    """Everything the planner needs: the grid size, the busy time and the classes to plan together."""

    weeks: int
    occupied: tuple[OccupiedSection, ...] = ()
    task_classes: tuple[TaskClassSpec, ...] = ()      # in the order the user selected them
    semester_start: date | None = None             # informational
    sections_per_day: int = SECTIONS_PER_DAY          # a template may have up to 16; beyond contract v1
    rules: PlanningRules | None = None                # the student's own rules; beyond contract v1

    @property
    def pairs_per_day(self) -> int:
        """Return how many aligned 2-section pairs a day has."""
        return self.sections_per_day // ITEM_SECTIONS


# --------------------------------------------------------------------------- the result

@dataclass(frozen=True, slots=True, kw_only=True)
class Placement:
    """An item placed on one aligned pair, in free time or inside a filler course (its host event)."""

    item_id: int
    class_id: int
    week: int
    day: int
    section_start: int
    section_end: int
    host_event_id: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class UnplacedItem:
    """An item that could not be placed, with a reason code and a readable detail."""

    item_id: int
    class_id: int
    reason: UnplacedReason
    detail: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ClassFeasibility:
    """How much room a class had and how much of it the plan used."""

    class_id: int
    strategy: Strategy
    demand: int
    candidate_slots: int              # pairs the class may use on an empty plan
    shared_slots: int                 # of those, pairs another class with items may use too
    taken_by_other_classes: int       # of those, pairs holding another class's item in the plan
    placed: int
    taken_by_class_ids: tuple[int, ...] = ()

    @property
    def slack(self) -> int:
        """Return candidate slots minus demand, counted as if the class were alone."""
        return self.candidate_slots - self.demand

    @property
    def unplaced(self) -> int:
        """Return how many items of the class stayed unplaced."""
        return self.demand - self.placed


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanningResult:
    """Placements in class and item order, unplaced items, and per-class figures in class order."""

    placements: tuple[Placement, ...]
    unplaced: tuple[UnplacedItem, ...]
    classes: tuple[ClassFeasibility, ...]

    @property
    def placed_count(self) -> int:
        """Return the number of placed items."""
        return len(self.placements)

    @property
    def all_placed(self) -> bool:
        """Return whether every item of every class was placed."""
        return not self.unplaced
