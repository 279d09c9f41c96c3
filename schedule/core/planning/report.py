"""Turn outcomes into result rows: placements in item order, unplaced items with reasons, figures."""
from __future__ import annotations

from schedule.core.planning.problem import (
    REASON_NO_CANDIDATE_SLOTS,
    REASON_SHARED_SLOTS_EXHAUSTED,
    REASON_WINDOW_TOO_SMALL,
    ClassLabel,
    ClassOutcome,
    ClassRow,
    PlacementRow,
    UnplacedRow,
)


def result_rows(labels: list[ClassLabel], outcomes: list[ClassOutcome]
                ) -> tuple[list[PlacementRow], list[UnplacedRow], list[ClassRow]]:
    """Hand each class's pairs to its first items in order; explain the items left over."""
    placements: list[PlacementRow] = []
    unplaced: list[UnplacedRow] = []
    classes: list[ClassRow] = []
    for label, outcome in zip(labels, outcomes):
        for item_id, (week, day, k, host) in zip(label.item_ids, outcome.pairs):
            placements.append(PlacementRow(item_id, label.class_id, week, day, 2 * k - 1, 2 * k, host))
        row = ClassRow(
            class_id=label.class_id, strategy=label.strategy, demand=len(label.item_ids),
            candidate_slots=outcome.candidate_slots, shared_slots=outcome.shared_slots,
            taken_by_other_classes=outcome.taken_by_others, placed=len(outcome.pairs),
            taken_by_class_ids=tuple(labels[other].class_id for other in outcome.taken_by))
        classes.append(row)
        if row.placed < row.demand:
            reason, detail = unplaced_reason(row)
            unplaced.extend(UnplacedRow(item_id, label.class_id, reason, detail)
                            for item_id in label.item_ids[row.placed:])
    return placements, unplaced, classes


def unplaced_reason(row: ClassRow) -> tuple[str, str]:
    """Return the reason code and a readable explanation for a class that lost items."""
    missing = row.demand - row.placed
    if row.candidate_slots == 0:
        return REASON_NO_CANDIDATE_SLOTS, (
            f"class {row.class_id}: its window has no usable 2-section slot (every pair is occupied, "
            f"excluded, or a filler course the class may not use); {missing} item(s) left over")
    taken = ""
    if row.taken_by_other_classes:
        ids = ", ".join(str(class_id) for class_id in row.taken_by_class_ids)
        taken = (f"; {row.taken_by_other_classes} of them hold items of other classes planned "
                 f"together (class {ids})")
    if row.candidate_slots < row.demand:
        return REASON_WINDOW_TOO_SMALL, (
            f"class {row.class_id}: {row.demand} items but only {row.candidate_slots} usable slots "
            f"in its window{taken}; {missing} item(s) left over")
    return REASON_SHARED_SLOTS_EXHAUSTED, (
        f"class {row.class_id}: {row.candidate_slots} usable slots for {row.demand} items{taken}; "
        f"no arrangement of the classes fits more, {missing} item(s) left over")
