"""Embed a study block in a filler course's own slots, or take it out again (``ScheduleSlot.embedded_item``).

A block inside a filler course has no event of its own: it is recorded on the host course's slot rows.
The schedule owns those rows; the week board decides where a block goes and calls these. Each write
is one conditional UPDATE, so two applies racing for the same sections cannot both win.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.change_records import BlockSpot
from schedule.exceptions import SlotConflictError
from schedule.messages import day_label
from schedule.models import ScheduleSlot


def slots_embed(*, user: User, item_id: int, spot: BlockSpot) -> list[int]:
    """Record the study item on the filler course's slots at ``spot``; returns their ids.

    Refuses (409 ``slot_taken``) when a slot is gone, the course is no filler, or a block sits there already.
    """
    sections = spot.sections
    slot_ids = list(ScheduleSlot.objects.filter(
        user=user, event_id=spot.host_event_id, week=spot.week, day=spot.day,
        section__in=sections, event__course__is_filler=True).values_list("pk", flat=True))
    # A conditional UPDATE: if another apply embedded here first, fewer rows match and we refuse.
    marked = ScheduleSlot.objects.filter(pk__in=slot_ids, embedded_item__isnull=True).update(embedded_item_id=item_id)
    if len(slot_ids) != len(sections) or marked != len(sections):
        raise SlotConflictError(_("Week %(week)s, %(day)s, sections %(first)s-%(last)s can no longer host a block.")
                                % {"week": spot.week, "day": day_label(spot.day),
                                   "first": sections[0], "last": sections[-1]}, code="slot_taken")
    return slot_ids


def slots_unembed(*, user: User, item_id: int, spot: BlockSpot) -> int:
    """Take the study item out of the host course's slots at ``spot``; returns how many slots held it."""
    return ScheduleSlot.objects.filter(
        user=user, event_id=spot.host_event_id, week=spot.week, day=spot.day, section__in=spot.sections,
        embedded_item_id=item_id).update(embedded_item=None)


def slots_release(*, user: User, slot_ids: Sequence[int]) -> int:
    """Empty the given slots of whatever block they host (undoing an apply); returns how many there were."""
    return ScheduleSlot.objects.filter(user=user, pk__in=list(slot_ids)).update(embedded_item=None)
