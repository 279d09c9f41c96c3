"""Why a block has no place, in the student's language, with what they can do about it.

The planner (a pure core) says why with a code and its figures (``ClassFeasibility``); its own
``detail`` is developer text with internal ids, kept for logs and the benchmark. The words a student
reads are built here, at the edge, from the code and the plan's figures as the preview stored them.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from schedule.core.planning.vocabulary import (
    REASON_NO_CANDIDATE_SLOTS,
    REASON_SHARED_SLOTS_EXHAUSTED,
    REASON_WINDOW_TOO_SMALL,
)


def unplaced_reason_text(reason: str, figures: dict | None) -> str:
    """The sentence shown beside a block without a place; ``figures`` is the plan's feasibility row."""
    figures = figures or {}
    values = {"plan": figures.get("name", ""), "demand": figures.get("demand", 0),
              "slots": figures.get("candidate_slots", 0),
              "missing": max(0, figures.get("demand", 0) - figures.get("placed", 0))}
    if reason == REASON_NO_CANDIDATE_SLOTS:
        return _("“%(plan)s” has no free two-section slot left in its window: every one is taken, excluded, "
                 "or a filler course it may not use. Extend the end date, allow filler courses, or remove "
                 "an excluded time.") % values
    if reason == REASON_WINDOW_TOO_SMALL:
        return _("“%(plan)s” needs %(demand)d slots but its window has only %(slots)d free, %(missing)d short. "
                 "Extend the end date, allow filler courses, or plan fewer blocks.") % values
    if reason == REASON_SHARED_SLOTS_EXHAUSTED:
        return _("“%(plan)s” shares its %(slots)d free slots with the plans planned together and "
                 "%(missing)d blocks did not fit. Plan them one at a time, or give them different windows.") % values
    if reason == "no_room_to_repair":  # board/repair.py
        return _("No free time before the end of “%(plan)s” keeps its order for this block. Extend the end date, "
                 "allow filler courses, or remove an excluded time.") % values
    return _("The place found for this block breaks an editing rule; plan again.")
