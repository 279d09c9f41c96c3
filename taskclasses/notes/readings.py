"""Readings a student picked for an ambiguous note: remember them, and offer them first next time.

Quick add never dates an ambiguous note by itself (QUICK-ADD.md "refuse to guess"); the page offers
the parse's readings as choices. When the student saves the note with one of them, the pick is kept
for that student's phrasing (the doubt and the time words, e.g. weekday_is_today + 周五), as a week
and a weekday relative to the day it was written. The next note phrased the same way gets that
reading marked `remembered`, and the page pre-selects it; no one else's notes change.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from django.db import transaction
from django.db.models import F

from accounts.models import User
from taskclasses.notes.core.quick_add import QuickNoteParse, Reading
from taskclasses.notes.models import MAX_PHRASING_LENGTH, ReadingChoice


def reading_phrasing(parsed: QuickNoteParse) -> str:
    """The key a pick is kept under: why the note was ambiguous, and its time words as written."""
    reason = parsed.ambiguity_reason.value if parsed.ambiguity_reason else ""
    return f"{reason}:{' '.join(parsed.deadline_text.casefold().split())}"[:MAX_PHRASING_LENGTH]


def readings_apply(*, user: User, parsed: QuickNoteParse) -> QuickNoteParse:
    """The parse with the reading this student picked for the same phrasing marked `remembered`."""
    if not parsed.readings:
        return parsed
    choice = ReadingChoice.objects.filter(user=user, phrasing=reading_phrasing(parsed)).first()
    if choice is None:
        return parsed
    marked = tuple(dataclasses.replace(reading, remembered=_is_choice(reading, choice)) for reading in parsed.readings)
    return dataclasses.replace(parsed, readings=marked)


def _is_choice(reading: Reading, choice: ReadingChoice) -> bool:
    return (reading.weeks_ahead, reading.deadline.isoweekday()) == (choice.weeks_ahead, choice.weekday)


@transaction.atomic
def reading_remember(*, user: User, parsed: QuickNoteParse, deadline: datetime | None) -> ReadingChoice | None:
    """Keep the reading the student saved the note with; None when the deadline is none of the readings."""
    picked = next((reading for reading in parsed.readings if reading.deadline == deadline), None)
    if picked is None:
        return None
    choice, created = ReadingChoice.objects.get_or_create(
        user=user, phrasing=reading_phrasing(parsed),
        defaults={"weeks_ahead": picked.weeks_ahead, "weekday": picked.deadline.isoweekday()})
    if not created:
        ReadingChoice.objects.filter(pk=choice.pk).update(
            weeks_ahead=picked.weeks_ahead, weekday=picked.deadline.isoweekday(), times=F("times") + 1)
        choice.refresh_from_db()
    return choice
