"""Memories a new timetable proves out of date: "周三有早八" learned last semester, no early class now.

After a timetable import, every active memory learned before this semester's week 1 that makes a
plain claim about the timetable (``memory.core.timetable_claims``) is checked against the courses now
on the board; one the timetable contradicts is closed (kept as history, with the reason) and the
student is told in one reminder that links to their memories.
"""

from __future__ import annotations

from datetime import datetime, time

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from accounts.models import User
from memory.core.timetable_claims import Meeting, timetable_claim
from memory.models import MemoryItem
from memory.services.items import changed_on_commit, memory_invalidate
from schedule.models import CalendarSettings, ScheduleEvent
from taskclasses.reminders.services import notice_create

# Kept in the audit in the language of the import that found it.
OUTDATED_REASON = gettext_noop("The new semester's timetable says otherwise.")
# A meeting counts as part of the timetable when it repeats: a one-off (an exam, a make-up day) is no rule.
MIN_WEEKS = 2


def memories_outdated_by_timetable(*, user: User, changeset_id: int) -> list[MemoryItem]:
    """Close the earlier semesters' memories the student's timetable now contradicts; return them."""
    # Only what makes a claim is worth reading the timetable for: most imports have nothing to check.
    claims = [(item, claim) for item in _learned_before_this_semester(user)
              if (claim := timetable_claim(item.content)) is not None]
    meetings = regular_meetings(user=user) if claims else []
    if not meetings:
        return []  # nothing to check, or no timetable yet (a semester just started): it contradicts nothing
    closed = [item for item, claim in claims if claim.contradicted(meetings)]
    if not closed:
        return []
    with transaction.atomic():
        for item in closed:
            memory_invalidate(user=user, item=item, reason=gettext(OUTDATED_REASON))
        changed_on_commit(user_id=user.pk, ids=[item.pk for item in closed])
        notice_create(user_id=user.pk, kind="memory_outdated", key=f"memory_outdated:{changeset_id}",
                      params={"count": len(closed), "examples": [item.content for item in closed[:3]]},
                      link="/memory/#history")
    return closed


def regular_meetings(*, user: User) -> list[Meeting]:
    """The course meetings that repeat on the board, as weekday and local times."""
    zone = user.zone
    weeks: dict[tuple[int, time, time], set[int]] = {}
    rows = (ScheduleEvent.objects.filter(user=user, kind=ScheduleEvent.Kind.COURSE)
            .exclude(source=ScheduleEvent.Source.CALENDAR).values_list("day", "week", "starts_at", "ends_at"))
    for day, week, starts_at, ends_at in rows:
        key = (day, starts_at.astimezone(zone).time(), ends_at.astimezone(zone).time())
        weeks.setdefault(key, set()).add(week)
    return [Meeting(weekday=day, start=start, end=end)
            for (day, start, end), seen in weeks.items() if len(seen) >= MIN_WEEKS]


def _learned_before_this_semester(user: User) -> list[MemoryItem]:
    calendar = CalendarSettings.objects.for_user(user)
    week_one = datetime.combine(calendar.semester_start, datetime.min.time(), tzinfo=user.zone)
    return list(MemoryItem.objects.filter(user=user, status=MemoryItem.Status.ACTIVE, valid_from__lt=week_one))

