"""Frozen value types the planner takes in and gives back."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal, Optional

from schedule.core.planning.problem import ITEM_SECTIONS, SECTIONS_PER_DAY

Strategy = Literal["steady", "rapid"]


@dataclass(frozen=True, order=True)
class GridDay:
    """A calendar day of the teaching grid: week 1.. and day 1 (Monday) .. 7."""

    week: int
    day: int


@dataclass(frozen=True)
class OccupiedSection:
    """One occupied atomic section, like a row of the original `schedules` table."""

    event_id: int
    week: int
    day: int
    section: int
    embeddable: bool = False
    name: str = ""


@dataclass(frozen=True)
class ItemSpec:
    """A task item; every item occupies one aligned 2-section pair."""

    id: int
    sections: int = ITEM_SECTIONS
    content: str = ""


@dataclass(frozen=True)
class TaskClassSpec:
    """A task class to plan: its window, preferences and items in order."""

    id: int
    strategy: Strategy
    start: GridDay
    end: GridDay
    items: tuple[ItemSpec, ...] = ()
    excluded_slots: frozenset[int] = frozenset()
    allow_filler: bool = False
    name: str = ""
    excluded_days: frozenset[int] = frozenset()  # 1..7; beyond contract v1

    @property
    def demand(self) -> int:
        """Return the number of items the class asks to place."""
        return len(self.items)


@dataclass(frozen=True)
class PlanningInstance:
    """Everything the planner needs: the grid size, the busy time and the classes."""

    weeks: int
    occupied: tuple[OccupiedSection, ...] = ()
    task_classes: tuple[TaskClassSpec, ...] = ()
    semester_start: Optional[date] = None
    sections_per_day: int = SECTIONS_PER_DAY  # a student's template may have up to 16; beyond contract v1


@dataclass(frozen=True)
class Placement:
    """An item placed on one aligned pair, in free time or inside a filler course."""

    item_id: int
    class_id: int
    week: int
    day: int
    section_start: int
    section_end: int
    host_event_id: Optional[int] = None


@dataclass(frozen=True)
class UnplacedItem:
    """An item that could not be placed, with a reason code and a readable detail."""

    item_id: int
    class_id: int
    reason: str
    detail: str


@dataclass(frozen=True)
class ClassFeasibility:
    """How much room a class had and how much of it the plan used."""

    class_id: int
    strategy: Strategy
    demand: int
    candidate_slots: int
    shared_slots: int
    taken_by_other_classes: int
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


@dataclass(frozen=True)
class PlanningResult:
    """Placements in class and item order, unplaced items, and per-class figures."""

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
