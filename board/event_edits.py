"""The student's own events (one-off or repeating) added, changed and deleted as undoable change sets.

The writes themselves are the schedule's (``schedule.services.events`` and ``event_series``): these
wrappers snapshot every row the write could touch before and after it (``event_rows``), record the
difference on a ``ChangeSet`` of kind ``event`` (``events_created`` / ``events_deleted`` /
``events_rewritten``), and ``changeset_undo`` puts the rows back exactly, ids included. Own events hold
no study blocks, so nothing is lifted. A write that fails records nothing (one transaction).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import User
from board.changeset_summaries import changeset_summary
from schedule.models import ChangeSet, ScheduleEvent
from schedule.selectors import event_get
from schedule.services import event_series
from schedule.services.changesets import changeset_record
from schedule.services.events import Span, event_create
from schedule.services.timetable_records import empty_record, event_rows, events_diff_recorded
from schedule.timetable_port import OwnEventEdit
from smartmate.platform.exceptions import ConflictError

Written = TypeVar("Written")


def _touched(*, user: User, ids: set[int], series: set) -> list[ScheduleEvent]:
    """The rows an edit can reach: these events and every occurrence (or former occurrence) of these series."""
    series = {value for value in series if value}
    reach = Q(pk__in=ids)
    if series:
        reach |= Q(series_id__in=series) | Q(series_origin__in=series)
    return list(ScheduleEvent.objects.filter(reach, user=user).order_by("pk"))


def _series_of(events: list[ScheduleEvent]) -> set:
    return {event.series_id for event in events} | {event.series_origin for event in events}


def _recorded_edit(*, user: User, action: str, event_id: int | None,
                   write: Callable[[], Written], written_events: Callable[[Written], list[ScheduleEvent]]
                   ) -> tuple[Written, ChangeSet | None]:
    """Run ``write`` between two snapshots of what it can touch and record the difference.

    The events API also reaches a course meeting's or a block's event; those are refused here (see
    ``_not_own_event``), before anything is written.
    """
    before_rows: list[ScheduleEvent] = []
    if event_id is not None:
        target = event_get(user=user, event_id=event_id)
        if target.kind != ScheduleEvent.Kind.CUSTOM:
            raise _not_own_event(target)
        before_rows = _touched(user=user, ids={target.pk}, series={target.series_id, target.series_origin})
    before = event_rows(before_rows)
    written = write()
    new_events = written_events(written)
    after = event_rows(_touched(user=user, ids={row["id"] for row in before} | {e.pk for e in new_events},
                                series=_series_of(before_rows) | _series_of(new_events)))
    record = empty_record()
    events_diff_recorded(before=before, after=after, record=record)
    title = (new_events[0].title if new_events else before[0]["title"] if before else "")
    count = len(record["events_created"]) + len(record["events_deleted"]) + len(record["events_rewritten"])
    record["summary"] = {"action": action, "title": title, "count": count}
    return written, changeset_record(user=user, kind=ChangeSet.Kind.EVENT, timetable=record)


def _not_own_event(event: ScheduleEvent) -> ConflictError:
    """Refuse a write on a class meeting or a planned block: each has its own recorded path.

    Written here, a move or delete took the meeting's sections with the study blocks embedded in them
    (the blocks stayed "placed" with nowhere to be), a new title parted a meeting from its course's
    name, and nothing could be undone.
    """
    if event.kind == ScheduleEvent.Kind.COURSE:
        message = _("This is a class, not your own event: change its course (name, teacher, room) or delete "
                    "this one meeting from the course dialog, or re-import the timetable for new times.")
    else:
        message = _("This is a planned block, not your own event: move it from its own dialog (Move to…) or by "
                    "dragging it on the board.")
    return ConflictError(message, code="not_own_event", detail={"kind": event.kind, "course_id": event.course_id})


def _edit(written, changeset: ChangeSet | None) -> OwnEventEdit:
    if changeset is None:
        return OwnEventEdit(written=written)
    return OwnEventEdit(written=written, changeset_id=changeset.pk, summary=changeset_summary(changeset))


@transaction.atomic
def own_event_add(*, user: User, title: str, span: Span, weeks: str | None = None, location: str = "",
                  note: str = "") -> OwnEventEdit:
    """Add a one-off event (in ``span.week``) or a repeating one (``weeks``, e.g. ``1-16单``)."""
    if weeks:
        return _edit(*_recorded_edit(
            user=user, action="event_add", event_id=None,
            write=lambda: event_series.event_series_create(
                user=user, title=title, weeks=weeks, day=span.day, start_section=span.start_section,
                end_section=span.end_section, location=location, note=note),
            written_events=lambda series: list(series.events)))
    return _edit(*_recorded_edit(
        user=user, action="event_add", event_id=None,
        write=lambda: event_create(user=user, title=title, location=location, note=note, span=span),
        written_events=lambda event: [event]))


@transaction.atomic
def own_event_change(*, user: User, event_id: int, scope: event_series.Scope = "this", **values) -> OwnEventEdit:
    """Change one occurrence or every occurrence (``values`` as ``event_series_update`` takes them)."""
    return _edit(*_recorded_edit(
        user=user, action="event_change", event_id=event_id,
        write=lambda: event_series.event_series_update(user=user, event_id=event_id, scope=scope, **values),
        written_events=lambda event: [event]))


@transaction.atomic
def own_event_remove(*, user: User, event_id: int, scope: event_series.Scope = "this") -> OwnEventEdit:
    """Delete one occurrence or the whole series (its occurrences changed "this week only" included)."""
    return _edit(*_recorded_edit(
        user=user, action="event_remove", event_id=event_id,
        write=lambda: event_series.event_series_delete(user=user, event_id=event_id, scope=scope),
        written_events=lambda count: []))
