"""The planner: place task items into the free time of a timetable, maximal, fair, ordered, deterministic.

From Python, build a `PlanningInstance` (or read one with `instance_from_json`), call
`plan(instance)` and read the `PlanningResult`; `result_to_json` writes the JSON contract
(docs/planner-contract.md).  `python -m schedule.core.planner` is the
command-line adapter the benchmark runs.

How a plan is made:
1. candidates   the aligned 2-section pairs each class may use: inside its window, not an
                excluded pair, free, or wholly inside one filler course if the class allows it;
2. sharing      a maximum flow over the pairs the classes share fixes how many items each
                class places (the most possible); when not everything fits, the loss is shared
                out by placed share (water-filling);
3. placement    classes choose pairs one after the other, the one with the least room to
                spare first (a rapid class's room counting half): rapid classes their earliest
                free candidates, steady classes the free pairs nearest to targets spread evenly
                over their candidates; every choice is checked against the flow, so the counts
                of step 2 are always reached;
4. spreading    items move onto pairs left free when that evens out a steady class or brings
                a rapid class forward;
   exchange     items also move onto pairs other classes hold, which those classes give up for
                the mover's old pair or a free one of their own, when that lowers the total of
                the steady classes' unevenness and the rapid classes' lateness;
5. report       each class's pairs go to its items in time order (item k before item k+1,
                the unplaced items are the last ones), with feasibility figures and reasons.

Modules: model (the typed problem and result), vocabulary (its constants), contract (JSON <->
model), engine (`plan`, and `solve` for the steps) and the steps above.  Pure Python and
standard library only: no Django, no clock, no I/O.
"""
from schedule.core.planning.contract import InstanceError, instance_from_json, result_to_json
from schedule.core.planning.engine import plan
from schedule.core.planning.model import (
    ClassFeasibility,
    GridDay,
    ItemSpec,
    OccupiedSection,
    Placement,
    PlanningInstance,
    PlanningResult,
    PlanningRules,
    ProtectedSections,
    StudyBlock,
    TaskClassSpec,
    UnplacedItem,
)
from schedule.core.planning.vocabulary import (
    RAPID,
    REASON_NO_CANDIDATE_SLOTS,
    REASON_SHARED_SLOTS_EXHAUSTED,
    REASON_WINDOW_TOO_SMALL,
    SPACED,
    STEADY,
    Strategy,
    UnplacedReason,
)

__all__ = [
    "ClassFeasibility", "GridDay", "InstanceError", "ItemSpec", "OccupiedSection", "Placement",
    "PlanningInstance", "PlanningResult", "PlanningRules", "ProtectedSections", "RAPID", "REASON_NO_CANDIDATE_SLOTS",
    "REASON_SHARED_SLOTS_EXHAUSTED", "REASON_WINDOW_TOO_SMALL", "SPACED", "STEADY", "Strategy", "StudyBlock",
    "TaskClassSpec",
    "UnplacedItem", "UnplacedReason", "instance_from_json", "plan", "result_to_json",
]
