"""Create, move, change and delete events, keeping one slot row per occupied section."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.time_model import SectionTemplate, Semester, TimeModelError, meeting_bounds, span_bounds
from schedule.exceptions import ScheduleInputError, SlotConflictError
from schedule.messages import day_label, time_error_message
from schedule.models import ScheduleEvent, ScheduleSlot
from schedule.selectors import event_get, slot_occupants_get, time_frame_get
from schedule.signals import study_block_removed
from smartmate.platform.caps import cap_check


@dataclass(frozen=True)
class Span:
    """Where an event sits: one day of one week, a run of sections."""

    week: int
    day: int
    start_section: int
    end_section: int

    @property
    def sections(self) -> range:
        return range(self.start_section, self.end_section + 1)


def span_times(*, semester: Semester, template: SectionTemplate, span: Span):
    """Return the aware start and end of a span, or raise ScheduleInputError with the reason."""
    try:
        return span_bounds(semester, template, span.week, span.day, span.start_section, span.end_section)
    except TimeModelError as exc:
        raise ScheduleInputError(time_error_message(exc.code, exc.message, exc.detail), code=exc.code,
                                 detail=exc.detail) from None


def ensure_span_free(*, user: User, span: Span, ignore_event_id: int | None = None) -> None:
    """Raise SlotConflictError naming the occupant if any section of the span is taken."""
    taken = [slot for slot in slot_occupants_get(user=user, week=span.week, day=span.day, sections=span.sections)
             if slot.event_id != ignore_event_id]
    if not taken:
        return
    occupant = taken[0].event
    message = _("Week %(week)s, %(day)s, sections %(first)s-%(last)s: taken by %(title)s.") % {
        "week": span.week, "day": day_label(span.day), "first": taken[0].section, "last": taken[-1].section,
        "title": occupant.title}
    raise SlotConflictError(message, detail={
        "week": span.week, "day": span.day, "sections": [slot.section for slot in taken],
        "occupant": {"event_id": occupant.pk, "title": occupant.title, "kind": occupant.kind}})


def _write_slots(*, event: ScheduleEvent) -> None:
    try:
        with transaction.atomic():
            ScheduleSlot.objects.bulk_create(
                ScheduleSlot(user_id=event.user_id, event=event, week=event.week, day=event.day, section=section)
                for section in event.sections
            )
    except IntegrityError:
        # Someone took the slot between our check and our write; report it like any conflict.
        ensure_span_free(user=event.user, span=Span(event.week, event.day, event.start_section, event.end_section),
                         ignore_event_id=event.pk)
        raise


@transaction.atomic
def event_create(
    *, user: User, title: str, span: Span, kind: str = ScheduleEvent.Kind.CUSTOM,
    source: str = ScheduleEvent.Source.MANUAL, location: str = "", note: str = "", course=None, task=None,
    task_item=None,
) -> ScheduleEvent:
    """Create an event on free sections; raises SlotConflictError naming what is in the way.

    A custom event past the student's cap is a 429 ``limit_reached``.
    """
    if kind == ScheduleEvent.Kind.CUSTOM:
        cap_check("custom_events", ScheduleEvent.objects.filter(user=user, kind=ScheduleEvent.Kind.CUSTOM))
    semester, template = time_frame_get(user=user)
    starts_at, ends_at = span_times(semester=semester, template=template, span=span)
    ensure_span_free(user=user, span=span)
    event = ScheduleEvent.objects.create(
        user=user, kind=kind, source=source, course=course, task=task, task_item=task_item, title=title,
        location=location, note=note,
        week=span.week, day=span.day, start_section=span.start_section, end_section=span.end_section,
        starts_at=starts_at, ends_at=ends_at,
    )
    _write_slots(event=event)
    return event


@transaction.atomic
def event_update(
    *, user: User, event_id: int, title: str | None = None, location: str | None = None,
    note: str | None = None, span: Span | None = None,
) -> ScheduleEvent:
    """Change an event's text or move it; a move checks the new sections first."""
    event = event_get(user=user, event_id=event_id)
    event = ScheduleEvent.objects.select_for_update().get(pk=event.pk)
    for field, value in (("title", title), ("location", location), ("note", note)):
        if value is not None:
            setattr(event, field, value)
    if span is not None and span != Span(event.week, event.day, event.start_section, event.end_section):
        semester, template = time_frame_get(user=user)
        event.starts_at, event.ends_at = span_times(semester=semester, template=template, span=span)
        ensure_span_free(user=user, span=span, ignore_event_id=event.pk)
        event.slots.all().delete()
        event.week, event.day, event.start_section, event.end_section = (
            span.week, span.day, span.start_section, span.end_section)
        event.save()
        _write_slots(event=event)
    else:
        event.save()
    return event


@transaction.atomic
def event_delete(*, user: User, event_id: int) -> None:
    """Delete an event and free its sections; a deleted study block's item waits to be planned again."""
    event = event_get(user=user, event_id=event_id)
    if event.task_item_id is not None:
        study_block_removed.send(sender=ScheduleEvent, user=user, item_id=event.task_item_id)
    event.delete()


@transaction.atomic
def events_retime(*, user: User) -> int:
    """Recompute every event's absolute times after the semester or section times changed."""
    semester, template = time_frame_get(user=user)
    events = list(ScheduleEvent.objects.filter(user=user).select_for_update())
    for event in events:
        # A meeting at its own times keeps them; every other event follows its sections' new times.
        event.starts_at, event.ends_at = meeting_bounds(semester, template, event.week, event.day,
                                                        event.start_section, event.end_section, event.clock)
    ScheduleEvent.objects.bulk_update(events, ["starts_at", "ends_at"], batch_size=500)
    return len(events)
