"""The student's own repeating events: one custom event a week, linked by a series id.

A series is written all or nothing: every week is checked before anything is written, and a
clash in any week is a 409 naming the occupant. Edits and deletes take a scope: ``this`` (one
occurrence, which leaves the series) or ``all`` (every occurrence of the series).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Literal

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.weekspec import WeekSpecError, parse_weeks
from schedule.exceptions import ScheduleInputError, SlotConflictError
from schedule.messages import day_label, week_spec_message
from schedule.models import ScheduleEvent, ScheduleSlot
from schedule.selectors import event_get, time_frame_get
from schedule.services.events import Span, event_delete, event_update, span_times
from smartmate.platform.caps import cap_check

Scope = Literal["this", "all"]


@dataclass(frozen=True)
class EventSeries:
    """A series as written: its id, its weeks and its occurrences in week order."""

    series_id: uuid.UUID
    weeks: tuple[int, ...]
    events: tuple[ScheduleEvent, ...]


def series_weeks_parse(*, user: User, spec: str) -> tuple[int, ...]:
    """Return the weeks a specification names inside the student's semester, or raise ScheduleInputError."""
    semester, _template = time_frame_get(user=user)
    try:
        return parse_weeks(spec, semester.weeks)
    except WeekSpecError as exc:
        raise ScheduleInputError(week_spec_message(exc.code, exc.message, exc.detail), code=exc.code,
                                 detail=exc.detail) from None


def _clean_title(title: str) -> str:
    title = (title or "").strip()
    if not title:
        raise ScheduleInputError(_("Give the event a title."), code="empty_title")
    return title


def _ensure_weeks_free(*, user: User, spans: list[Span], ignore: set[int]) -> None:
    """Raise SlotConflictError naming the first occupant (and listing every clash) when any span is taken."""
    if not spans:
        return
    day, sections = spans[0].day, list(spans[0].sections)
    taken = list(ScheduleSlot.objects.filter(user=user, day=day, section__in=sections,
                                             week__in=[span.week for span in spans])
                 .exclude(event_id__in=ignore).select_related("event").order_by("week", "section"))
    if not taken:
        return
    clashes: dict[int, list[ScheduleSlot]] = {}
    for slot in taken:
        clashes.setdefault(slot.week, []).append(slot)
    week, slots = next(iter(clashes.items()))
    occupant = slots[0].event
    message = _("Week %(week)s, %(day)s, sections %(first)s-%(last)s: taken by %(title)s.") % {
        "week": week, "day": day_label(day), "first": slots[0].section, "last": slots[-1].section,
        "title": occupant.title}
    raise SlotConflictError(message, detail={
        "week": week, "day": day, "sections": [slot.section for slot in slots],
        "occupant": {"event_id": occupant.pk, "title": occupant.title, "kind": occupant.kind},
        "clashes": [{"week": w, "sections": [s.section for s in group],
                     "occupant": {"event_id": group[0].event_id, "title": group[0].event.title,
                                  "kind": group[0].event.kind}}
                    for w, group in clashes.items()]})


def _write_slots(*, user: User, events: list[ScheduleEvent], spans: list[Span], ignore: set[int]) -> None:
    try:
        with transaction.atomic():
            ScheduleSlot.objects.bulk_create(
                ScheduleSlot(user_id=event.user_id, event=event, week=event.week, day=event.day, section=section)
                for event in events for section in event.sections)
    except IntegrityError:
        # A slot was taken between our check and our write; report it like any clash.
        _ensure_weeks_free(user=user, spans=spans, ignore=ignore | {event.pk for event in events})
        raise


@transaction.atomic
def event_series_create(
    *, user: User, title: str, weeks: str, day: int, start_section: int, end_section: int,
    location: str = "", note: str = "",
) -> EventSeries:
    """Create one custom event in every week of ``weeks`` (e.g. ``1-16单``); all or nothing.

    Raises ScheduleInputError for an empty title, unreadable or out-of-semester weeks and sections
    outside the template, SlotConflictError naming the occupant when any week is taken.
    """
    title = _clean_title(title)
    week_list = series_weeks_parse(user=user, spec=weeks)
    cap_check("custom_events", ScheduleEvent.objects.filter(user=user, kind=ScheduleEvent.Kind.CUSTOM),
              adding=len(week_list))
    semester, template = time_frame_get(user=user)
    spans = [Span(week, day, start_section, end_section) for week in week_list]
    times = [span_times(semester=semester, template=template, span=span) for span in spans]
    _ensure_weeks_free(user=user, spans=spans, ignore=set())
    series_id = uuid.uuid4()
    events = [ScheduleEvent.objects.create(
        user=user, kind=ScheduleEvent.Kind.CUSTOM, source=ScheduleEvent.Source.MANUAL, series_id=series_id,
        title=title, location=location, note=note, week=span.week, day=day, start_section=start_section,
        end_section=end_section, starts_at=starts_at, ends_at=ends_at)
        for span, (starts_at, ends_at) in zip(spans, times, strict=True)]
    _write_slots(user=user, events=events, spans=spans, ignore=set())
    return EventSeries(series_id=series_id, weeks=week_list, events=tuple(events))


def _series_events(*, user: User, event: ScheduleEvent) -> list[ScheduleEvent]:
    if event.series_id is None:
        return [ScheduleEvent.objects.select_for_update().get(pk=event.pk)]
    return list(ScheduleEvent.objects.select_for_update().filter(user=user, series_id=event.series_id)
                .order_by("week"))


@transaction.atomic
def event_series_update(
    *, user: User, event_id: int, scope: Scope = "this", title: str | None = None, location: str | None = None,
    note: str | None = None, span: Span | None = None, weeks: str | None = None,
) -> ScheduleEvent:
    """Change one occurrence (``this``: it leaves its series) or every occurrence (``all``).

    With ``all``, a span's day and sections apply to every occurrence in its own week (its week is
    ignored); every week is checked first and nothing changes when one is taken. ``weeks`` (``all``
    only, e.g. ``1-16单``) gives the series new weeks: occurrences in weeks left out are deleted, new
    weeks get one; a one-off event given weeks becomes a series.
    """
    event = event_get(user=user, event_id=event_id)
    if title is not None:
        title = _clean_title(title)
    if weeks is not None:
        if scope != "all":
            raise ScheduleInputError(_("New weeks apply to every occurrence; choose “all weeks”."),
                                     code="weeks_need_all")
        return _update_weeks(user=user, event=event, week_list=series_weeks_parse(user=user, spec=weeks),
                             title=title, location=location, note=note, span=span)
    if scope == "this" or event.series_id is None:
        if event.series_id is not None:  # it leaves the series, remembering it (a delete of all takes it)
            ScheduleEvent.objects.filter(pk=event.pk).update(series_id=None, series_origin=event.series_id)
        return event_update(user=user, event_id=event_id, title=title, location=location, note=note, span=span)
    events = _series_events(user=user, event=event)
    for occurrence in events:
        for field, value in (("title", title), ("location", location), ("note", note)):
            if value is not None:
                setattr(occurrence, field, value)
    if span is not None:
        _move_all(user=user, events=events, span=span)
    now = timezone.now()
    for occurrence in events:
        occurrence.updated_at = now  # bulk_update skips auto_now
    ScheduleEvent.objects.bulk_update(events, ["title", "location", "note", "day", "start_section", "end_section",
                                               "starts_at", "ends_at", "updated_at"])
    return next(occurrence for occurrence in events if occurrence.pk == event.pk)


def _update_weeks(*, user: User, event: ScheduleEvent, week_list: tuple[int, ...], title: str | None,
                  location: str | None, note: str | None, span: Span | None) -> ScheduleEvent:
    """Give the series (or the one-off event) exactly ``week_list``, with the new text and place; all or nothing."""
    events = _series_events(user=user, event=event)
    series_id = event.series_id or uuid.uuid4()
    day = span.day if span is not None else event.day
    first, last = (span.start_section, span.end_section) if span is not None else (event.start_section,
                                                                                   event.end_section)
    spans = [Span(week, day, first, last) for week in week_list]
    _ensure_weeks_free(user=user, spans=spans, ignore={occurrence.pk for occurrence in events})
    ScheduleEvent.objects.filter(pk__in=[o.pk for o in events if o.week not in week_list]).delete()
    kept = {o.week: o for o in events if o.week in week_list}
    ScheduleSlot.objects.filter(event_id__in=[o.pk for o in kept.values()]).delete()
    semester, template = time_frame_get(user=user)
    written = []
    for target in spans:
        occurrence = kept.get(target.week) or ScheduleEvent(
            user=user, kind=ScheduleEvent.Kind.CUSTOM, source=ScheduleEvent.Source.MANUAL, week=target.week)
        occurrence.series_id = series_id
        occurrence.title = title if title is not None else event.title
        occurrence.location = location if location is not None else event.location
        occurrence.note = note if note is not None else event.note
        occurrence.day, occurrence.start_section, occurrence.end_section = day, first, last
        occurrence.starts_at, occurrence.ends_at = span_times(semester=semester, template=template, span=target)
        occurrence.save()
        written.append(occurrence)
    _write_slots(user=user, events=written, spans=spans, ignore=set())
    return kept.get(event.week) or written[0]


def _move_all(*, user: User, events: list[ScheduleEvent], span: Span) -> None:
    semester, template = time_frame_get(user=user)
    spans = [Span(occurrence.week, span.day, span.start_section, span.end_section) for occurrence in events]
    times = [span_times(semester=semester, template=template, span=target) for target in spans]
    ids = {occurrence.pk for occurrence in events}
    _ensure_weeks_free(user=user, spans=spans, ignore=ids)
    ScheduleSlot.objects.filter(event_id__in=ids).delete()
    for occurrence, (starts_at, ends_at) in zip(events, times, strict=True):
        occurrence.day, occurrence.start_section, occurrence.end_section = span.day, span.start_section, span.end_section
        occurrence.starts_at, occurrence.ends_at = starts_at, ends_at
    _write_slots(user=user, events=events, spans=spans, ignore=ids)


@transaction.atomic
def event_series_delete(*, user: User, event_id: int, scope: Scope = "this") -> int:
    """Delete one occurrence (``this``) or every occurrence of its series (``all``), those changed "this
    week only" included; returns how many."""
    event = event_get(user=user, event_id=event_id)
    series = event.series_id or event.series_origin
    if scope == "this" or series is None:
        event_delete(user=user, event_id=event_id)
        return 1
    occurrences = ScheduleEvent.objects.filter(Q(series_id=series) | Q(series_origin=series), user=user)
    count = occurrences.count()
    occurrences.delete()
    return count
