"""When a quick note moves to a more urgent quadrant on its own: the one rule for the writer and every reader.

A note whose urgency threshold has passed reads as promoted from that moment, whether or not the
periodic job has written the move yet: readers ask ``standing_at`` and never write; the beat job
(``taskclasses.notes.services.tasks_promote``) is the only writer, and moves exactly the notes for which
``promotion_due`` holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType

IMPORTANT_URGENT = 1
IMPORTANT = 2
# Quadrants that move when their threshold passes, and where they move to: only 2 -> 1 (QUICK_ADD.md;
# 3 and 4 split an unimportant task by its effort, which a nearing deadline does not change).
PROMOTIONS: Mapping[int, int] = MappingProxyType({IMPORTANT: IMPORTANT_URGENT})


@dataclass(frozen=True)
class NoteTiming:
    """What the rule reads of a note: its stored quadrant, its threshold, and whether it is done."""

    quadrant: int
    urgency_threshold_at: datetime | None
    completed: bool


@dataclass(frozen=True)
class Standing:
    """A note's quadrant at a moment, and when a promotion not yet written took effect (else None)."""

    quadrant: int
    pending_since: datetime | None = None


def promotion_due(note: NoteTiming, now: datetime) -> bool:
    """Whether the note's stored quadrant is out of date at ``now`` (an open note past its threshold)."""
    threshold = note.urgency_threshold_at
    return not note.completed and threshold is not None and threshold <= now and note.quadrant in PROMOTIONS


def standing_at(note: NoteTiming, now: datetime) -> Standing:
    """Return the quadrant the note stands in at ``now``; a due move counts from its threshold."""
    if not promotion_due(note, now):
        return Standing(quadrant=note.quadrant)
    return Standing(quadrant=PROMOTIONS[note.quadrant], pending_since=note.urgency_threshold_at)


def stored_quadrants_reading_as(quadrant: int) -> frozenset[int]:
    """Return the stored quadrants a note may have and still read as ``quadrant`` (to narrow a query)."""
    return frozenset({quadrant, *(old for old, new in PROMOTIONS.items() if new == quadrant)})
