"""Plan task items into the free time of a timetable: maximal, fair, ordered and deterministic.

    python -m schedule.core.planner < instance.json > result.json

The JSON contract and its benchmark live in ../shared/bench/planner/ (instance_format.md).
From Python, call `plan(instance)` with a PlanningInstance and read the PlanningResult;
`instance_from_json` and `result_to_json` convert from and to the contract.

How a plan is made (schedule/core/planning/):
1. candidates   the aligned 2-section pairs each class may use: inside its window, not an
                excluded pair, free, or wholly inside one filler course if the class allows it;
2. sharing      a maximum flow over the pairs the classes share fixes how many items each
                class places (the most possible); when not everything fits, the loss is shared
                out by placed share (water-filling);
3. placement    classes choose pairs one after the other, the one with the least room to
                spare first: rapid classes their earliest free candidates, steady classes
                pairs spread evenly over their free candidates; every choice is checked
                against the flow, so the counts of step 2 are always reached;
4. spreading    items move onto pairs left free when that evens out a steady class or brings
                a rapid class forward;
5. report       each class's pairs go to its items in time order (item k before item k+1,
                the unplaced items are the last ones), with feasibility figures and reasons.
Pure Python and standard library only; no Django, no clock, no I/O outside the command line.
"""
from __future__ import annotations

import sys

if __name__ == "__main__":
    # As a program, answer straight from the engine's plain values and exit before the
    # dataclass API below is imported: dataclasses, typing and datetime cost more start-up
    # time than planning a typical instance, and the benchmark times whole processes.
    from schedule.core.planning.cli import main

    sys.exit(main())

from schedule.core.planning.adapters import (  # noqa: E402
    instance_from_json,
    problem_from_instance,
    result_from_outcomes,
    result_to_json,
)
from schedule.core.planning.contract import InstanceError  # noqa: E402
from schedule.core.planning.engine import solve  # noqa: E402
from schedule.core.planning.model import (  # noqa: E402
    ClassFeasibility,
    GridDay,
    ItemSpec,
    OccupiedSection,
    Placement,
    PlanningInstance,
    PlanningResult,
    Strategy,
    TaskClassSpec,
    UnplacedItem,
)
from schedule.core.planning.problem import (  # noqa: E402
    RAPID,
    REASON_NO_CANDIDATE_SLOTS,
    REASON_SHARED_SLOTS_EXHAUSTED,
    REASON_WINDOW_TOO_SMALL,
    STEADY,
)

__all__ = [
    "ClassFeasibility", "GridDay", "InstanceError", "ItemSpec", "OccupiedSection", "Placement",
    "PlanningInstance", "PlanningResult", "RAPID", "REASON_NO_CANDIDATE_SLOTS",
    "REASON_SHARED_SLOTS_EXHAUSTED", "REASON_WINDOW_TOO_SMALL", "STEADY", "Strategy", "TaskClassSpec",
    "UnplacedItem", "instance_from_json", "plan", "result_to_json",
]


def plan(instance: PlanningInstance) -> PlanningResult:
    """Place as many items as possible, each class in item order, spread or packed by its strategy."""
    problem, labels = problem_from_instance(instance)
    return result_from_outcomes(labels, solve(problem))
