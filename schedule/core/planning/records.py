"""Light stand-ins for the typed model's values, built by the command-line planner only.

`python -m schedule.core.planner` reads one instance, plans it and writes JSON; it never hands a
value to other code.  Creating model.py's frozen dataclasses (and importing `dataclasses`, which
imports `inspect`) took about 11 ms of its ~40 ms start-up, more than planning a typical
instance, and the bench times whole processes.  So the contract adapter and the report build
these attribute bags instead when the command line asks for them: same attribute names, the
same derived figures, no checks of their own (the contract adapter validates every field
before it builds one).  Everything else uses the typed model.
"""
from __future__ import annotations

from types import SimpleNamespace


class GridDay(SimpleNamespace):
    """Like model.GridDay: week, day."""


class OccupiedSection(SimpleNamespace):
    """Like model.OccupiedSection: event_id, week, day, section, embeddable, name."""


class ItemSpec(SimpleNamespace):
    """Like model.ItemSpec: id, sections, content."""


class TaskClassSpec(SimpleNamespace):
    """Like model.TaskClassSpec: id, strategy, start, end, items, excluded_slots, allow_filler, ..."""

    @property
    def demand(self) -> int:
        """Return the number of items the class asks to place."""
        return len(self.items)


class StudyBlock(SimpleNamespace):
    """Like model.StudyBlock: week, day, section_start, section_end."""


class ProtectedSections(SimpleNamespace):
    """Like model.ProtectedSections: first, last, days, name."""


class PlanningRules(SimpleNamespace):
    """Like model.PlanningRules: daily_cap, buffer, latest_section, protected, blocks."""

    def __bool__(self) -> bool:
        return (self.daily_cap is not None or self.buffer > 0 or self.latest_section is not None
                or bool(self.protected))


class PlanningInstance(SimpleNamespace):
    """Like model.PlanningInstance: weeks, occupied, task_classes, semester_start, sections_per_day."""

    @property
    def pairs_per_day(self) -> int:
        """Return how many aligned 2-section pairs a day has."""
        return int(self.sections_per_day) // 2


class Placement(SimpleNamespace):
    """Like model.Placement."""


class UnplacedItem(SimpleNamespace):
    """Like model.UnplacedItem."""


class ClassFeasibility(SimpleNamespace):
    """Like model.ClassFeasibility, with its derived figures."""

    @property
    def slack(self) -> int:
        """Return candidate slots minus demand, counted as if the class were alone."""
        return int(self.candidate_slots - self.demand)

    @property
    def unplaced(self) -> int:
        """Return how many items of the class stayed unplaced."""
        return int(self.demand - self.placed)


class PlanningResult(SimpleNamespace):
    """Like model.PlanningResult: placements, unplaced, classes."""
