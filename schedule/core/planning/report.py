"""Build the typed result: placements in item order, unplaced items with reasons, per-class figures."""
from __future__ import annotations

from collections.abc import Sequence

from schedule.core.planning.candidates import Pair
from schedule.core.planning.model import ClassFeasibility, Placement, PlanningResult, TaskClassSpec, UnplacedItem
from schedule.core.planning.vocabulary import (
    ITEM_SECTIONS,
    REASON_NO_CANDIDATE_SLOTS,
    REASON_SHARED_SLOTS_EXHAUSTED,
    REASON_WINDOW_TOO_SMALL,
    UnplacedReason,
)


def planning_result(classes: Sequence[TaskClassSpec], pairs: list[Pair], candidates: list[list[int]],
                    positions: list[list[int]]) -> PlanningResult:
    """Hand each class's pairs, chronologically, to its first items in order; explain the items left over.

    `candidates` are each class's usable pair ids, `positions` the sorted indexes into them it holds.
    """
    figures = _feasibility(classes, candidates, positions)
    placements: list[Placement] = []
    unplaced: list[UnplacedItem] = []
    for spec, pair_ids, held, figure in zip(classes, candidates, positions, figures):
        for item, position in zip(spec.items, sorted(held)):
            week, day, k, host = pairs[pair_ids[position]]
            placements.append(Placement(item_id=item.id, class_id=spec.id, week=week, day=day,
                                        section_start=ITEM_SECTIONS * k - 1, section_end=ITEM_SECTIONS * k,
                                        host_event_id=host))
        if figure.placed < figure.demand:
            reason, detail = unplaced_reason(figure)
            unplaced.extend(UnplacedItem(item_id=item.id, class_id=spec.id, reason=reason, detail=detail)
                            for item in spec.items[figure.placed:])
    return PlanningResult(placements=tuple(placements), unplaced=tuple(unplaced), classes=figures)


def _feasibility(classes: Sequence[TaskClassSpec], candidates: list[list[int]],
                 positions: list[list[int]]) -> tuple[ClassFeasibility, ...]:
    """Count, per class, its candidate pairs, those other classes may use, and those they hold."""
    users: dict[int, int] = {}               # pair id -> classes with items that may use it
    holder: dict[int, int] = {}              # pair id -> class holding it in the plan
    for cls, pair_ids in enumerate(candidates):
        if classes[cls].demand:
            for pair_id in pair_ids:
                users[pair_id] = users.get(pair_id, 0) + 1
        for position in positions[cls]:
            holder[pair_ids[position]] = cls
    figures: list[ClassFeasibility] = []
    for cls, (spec, pair_ids) in enumerate(zip(classes, candidates)):
        own_use = 1 if spec.demand else 0
        others = [holder[p] for p in pair_ids if holder.get(p, cls) != cls]
        figures.append(ClassFeasibility(
            class_id=spec.id, strategy=spec.strategy, demand=spec.demand, candidate_slots=len(pair_ids),
            shared_slots=sum(1 for p in pair_ids if users.get(p, 0) > own_use),
            taken_by_other_classes=len(others), placed=len(positions[cls]),
            taken_by_class_ids=tuple(classes[other].id for other in sorted(set(others)))))
    return tuple(figures)


def unplaced_reason(figure: ClassFeasibility) -> tuple[UnplacedReason, str]:
    """Return the reason code and a readable explanation for a class that lost items."""
    missing = figure.demand - figure.placed
    if figure.candidate_slots == 0:
        return REASON_NO_CANDIDATE_SLOTS, (
            f"class {figure.class_id}: its window has no usable 2-section slot (every pair is occupied, "
            f"excluded, or a filler course the class may not use); {missing} item(s) left over")
    taken = ""
    if figure.taken_by_other_classes:
        ids = ", ".join(str(class_id) for class_id in figure.taken_by_class_ids)
        taken = (f"; {figure.taken_by_other_classes} of them hold items of other classes planned "
                 f"together (class {ids})")
    if figure.candidate_slots < figure.demand:
        return REASON_WINDOW_TOO_SMALL, (
            f"class {figure.class_id}: {figure.demand} items but only {figure.candidate_slots} usable slots "
            f"in its window{taken}; {missing} item(s) left over")
    return REASON_SHARED_SLOTS_EXHAUSTED, (
        f"class {figure.class_id}: {figure.candidate_slots} usable slots for {figure.demand} items{taken}; "
        f"no arrangement of the classes fits more, {missing} item(s) left over")
