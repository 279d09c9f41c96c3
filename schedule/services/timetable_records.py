"""Snapshots of timetable rows (courses, course meetings, own events, their slots) and their exact restoration.

A course edit, an own-event edit or a re-import records here what it deleted, created and changed, as plain JSON for
``ChangeSet.timetable``; undo puts every deleted row back with its original primary key (so change
sets, previews and embedded blocks that point at a meeting stay valid), deletes what was created and
reverts field changes. The record's keys are those documented on ``ChangeSet.timetable``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.exceptions import SlotConflictError
from schedule.models import Course, ScheduleEvent, ScheduleSlot, SuspendedMeeting
from schedule.services.calendar import calendar_settings_update
from smartmate.platform.exceptions import ConflictError

COURSE_FIELDS = ("name", "teacher", "location", "note", "is_filler")
EVENT_FIELDS = ("kind", "source", "course_id", "title", "location", "note", "week", "day", "start_section",
                "end_section")
SERIES_FIELDS = ("series_id", "series_origin")  # UUIDs, kept as text in the JSON record


def empty_record() -> dict:
    return {"courses_created": [], "events_created": [], "courses_deleted": [], "events_deleted": [],
            "courses_changed": [], "events_changed": [], "suspended_deleted": [], "events_rewritten": []}


# The school calendar (schedule/services/academic_calendar.py) keeps a holiday's meetings aside as
# SuspendedMeeting rows and adds make-up copies (source "calendar"). A change recorded here is recorded
# on the timetable as imported: the suspended rows it deletes are kept too, a meeting it created that
# the calendar then suspended counts as still there (it keeps its id in ``event_pk``), and the caller
# runs ``academic_calendar_sync`` after the change and after its undo.
SUSPENDED_FIELDS = ("course_id", "title", "location", "note", "source", "week", "day", "start_section",
                    "end_section", "embedded", "event_pk")


# --- Snapshots -----------------------------------------------------------------------------------------

def course_row(course: Course) -> dict:
    return {"id": course.pk, **{name: getattr(course, name) for name in COURSE_FIELDS}}


def event_rows(events: Iterable[ScheduleEvent]) -> list[dict]:
    """Each event as it is, with its slots (ids and sections), for ``events_deleted``."""
    events = list(events)
    slots: dict[int, list[dict]] = {}
    for slot in ScheduleSlot.objects.filter(event__in=events).order_by("section"):
        slots.setdefault(slot.event_id, []).append(
            {"id": slot.pk, "week": slot.week, "day": slot.day, "section": slot.section})
    return [{"id": event.pk, **{name: getattr(event, name) for name in EVENT_FIELDS},
             **_series_row(event), "starts_at": event.starts_at.isoformat(), "ends_at": event.ends_at.isoformat(),
             **_clock_row(event), "beside": event.beside, "slots": slots.get(event.pk, [])} for event in events]


def _series_row(event: ScheduleEvent) -> dict:
    return {name: str(value) if (value := getattr(event, name)) else None for name in SERIES_FIELDS}


def _clock_row(row: ScheduleEvent | SuspendedMeeting) -> dict:
    """A meeting's own times as text (a record is JSON; the time field reads the text back)."""
    return {"clock_start": row.clock_start.isoformat() if row.clock_start else None,
            "clock_end": row.clock_end.isoformat() if row.clock_end else None}


# --- Writes that keep a record ---------------------------------------------------------------------------

def events_delete(*, user: User, event_ids: list[int], record: dict) -> None:
    """Delete course meetings (their slots go with them), keeping each row in ``record``.

    Blocks embedded in them must have been lifted first: the snapshot keeps no guests.
    """
    events = ScheduleEvent.objects.filter(user=user, pk__in=event_ids, kind=ScheduleEvent.Kind.COURSE)
    record["events_deleted"].extend(event_rows(events.order_by("pk")))
    events.delete()


def suspended_delete(*, user: User, ids: list[int], record: dict) -> None:
    """Delete meetings a holiday keeps aside, keeping each row in ``record``."""
    rows = SuspendedMeeting.objects.filter(user=user, pk__in=ids).order_by("pk")
    record.setdefault("suspended_deleted", []).extend(
        {"id": row.pk, **{name: getattr(row, name) for name in SUSPENDED_FIELDS}, **_clock_row(row),
         "beside": row.beside} for row in rows)
    rows.delete()


def course_delete_recorded(*, user: User, course: Course, record: dict) -> None:
    """Delete a course with all its meetings (also those a holiday keeps aside), keeping the rows in ``record``."""
    meeting_ids = list(course.events.values_list("pk", flat=True))
    suspended_delete(user=user, ids=list(course.suspended_meetings.values_list("pk", flat=True)), record=record)
    events_delete(user=user, event_ids=meeting_ids, record=record)
    record["courses_deleted"].append(course_row(course))
    Course.objects.filter(pk=course.pk).delete()


def course_change_recorded(*, course: Course, values: dict, record: dict) -> None:
    """Set some of a course's fields (a new name renames its meetings), keeping before and after."""
    before = course_row(course)
    for name, value in values.items():
        setattr(course, name, value)
    _save_course(course)
    if before["name"] != course.name:
        ScheduleEvent.objects.filter(course=course).update(title=course.name)
        SuspendedMeeting.objects.filter(course=course).update(title=course.name)
    if before["location"] != course.location:
        _move_meetings(course=course, old=before["location"], record=record)
    record["courses_changed"].append({"id": course.pk, "before": {k: before[k] for k in values},
                                      "after": {k: getattr(course, k) for k in values}})


def _move_meetings(*, course: Course, old: str, record: dict) -> None:
    """A course's new room reaches the meetings held in its old one (a meeting elsewhere keeps its room),
    so the board, the agenda, the feed and the assistant read it; each meeting's change is recorded."""
    for event_id in ScheduleEvent.objects.filter(course=course, location=old).values_list("pk", flat=True):
        event_location_recorded(event_id=event_id, location=course.location, before=old, record=record)
    SuspendedMeeting.objects.filter(course=course, location=old).update(location=course.location)


def event_location_recorded(*, event_id: int, location: str, before: str, record: dict) -> None:
    ScheduleEvent.objects.filter(pk=event_id).update(location=location)
    record["events_changed"].append({"id": event_id, "before": {"location": before}, "after": {"location": location}})


def events_diff_recorded(*, before: list[dict], after: list[dict], record: dict) -> None:
    """Record what an edit of the student's own events did, from snapshots (``event_rows``) of the rows it
    could touch taken before and after it: rows that appeared, rows that went, rows it rewrote."""
    old = {row["id"]: row for row in before}
    new = {row["id"]: row for row in after}
    record["events_created"].extend(sorted(set(new) - set(old)))
    record["events_deleted"].extend(row for pk, row in old.items() if pk not in new)
    record["events_rewritten"].extend({"before": row, "after": new[pk]} for pk, row in old.items()
                                      if pk in new and new[pk] != row)


def _save_course(course: Course) -> None:
    try:
        with transaction.atomic():
            course.save()
    except IntegrityError as exc:
        raise ConflictError(_("You already have a course with this name and teacher."),
                            code="course_exists") from exc


# --- Undo -------------------------------------------------------------------------------------------------

def timetable_unchanged(*, user: User, record: dict) -> bool:
    """Tell whether every row the change wrote is still as it left it (and nothing sits in its new meetings)."""
    if not record:
        return True
    created = record.get("events_created", [])
    present = ScheduleEvent.objects.filter(user=user, pk__in=created).count()
    kept_aside = SuspendedMeeting.objects.filter(user=user, event_pk__in=created).count()
    if present + kept_aside != len(created):
        return False
    if ScheduleSlot.objects.filter(event_id__in=created, embedded_item__isnull=False).exists():
        return False
    courses_created = record.get("courses_created", [])
    if Course.objects.filter(user=user, pk__in=courses_created).count() != len(courses_created) or \
            ScheduleEvent.objects.filter(course_id__in=courses_created).exclude(pk__in=created) \
            .exclude(source=ScheduleEvent.Source.CALENDAR).exists():
        return False
    for change in record.get("courses_changed", []):
        current = Course.objects.filter(user=user, pk=change["id"]).values(*change["after"]).first()
        if current != change["after"]:
            return False
        # Undoing "now a filler course" must not leave blocks that were embedded since inside a plain course.
        if change["before"].get("is_filler") is False and ScheduleSlot.objects.filter(
                event__course_id=change["id"], embedded_item__isnull=False).exists():
            return False
    for change in record.get("events_changed", []):
        if not ScheduleEvent.objects.filter(user=user, pk=change["id"], **change["after"]).exists():
            return False
    rewritten = [change["after"] for change in record.get("events_rewritten", [])]
    if rewritten and event_rows(ScheduleEvent.objects.filter(
            user=user, pk__in=[row["id"] for row in rewritten]).order_by("pk")) != sorted(rewritten, key=_row_id):
        return False
    deleted = [row["id"] for row in record.get("events_deleted", [])]
    return not ScheduleEvent.objects.filter(pk__in=deleted).exists() and \
        not Course.objects.filter(pk__in=[row["id"] for row in record.get("courses_deleted", [])]).exists()


def timetable_restore(*, user: User, record: dict) -> None:
    """Put the timetable back as it was before the recorded change (inside the caller's transaction).

    A section a restored meeting needs that is taken meanwhile raises SlotConflictError naming it.
    """
    if not record:
        return
    ScheduleEvent.objects.filter(user=user, pk__in=record.get("events_created", [])).delete()
    SuspendedMeeting.objects.filter(user=user, event_pk__in=record.get("events_created", [])).delete()
    Course.objects.filter(user=user, pk__in=record.get("courses_created", [])).delete()
    for change in record.get("events_changed", []):
        ScheduleEvent.objects.filter(user=user, pk=change["id"]).update(**change["before"])
    rewritten = [change["before"] for change in record.get("events_rewritten", [])]
    ScheduleEvent.objects.filter(user=user, pk__in=[row["id"] for row in rewritten]).delete()
    for change in record.get("courses_changed", []):
        course = Course.objects.get(user=user, pk=change["id"])
        course_change_recorded(course=course, values=change["before"], record=empty_record())
    if "calendar_before" in record:  # an import that took the file's semester and section times
        _calendar_restore(user=user, before=record["calendar_before"])
    try:
        with transaction.atomic():
            Course.objects.bulk_create(Course(user=user, **row) for row in record.get("courses_deleted", []))
            _events_restore(user=user, rows=record.get("events_deleted", []) + rewritten)
            SuspendedMeeting.objects.bulk_create(SuspendedMeeting(user=user, id=row["id"], **{
                name: row[name] for name in SUSPENDED_FIELDS}, clock_start=row.get("clock_start"),
                clock_end=row.get("clock_end"), beside=row.get("beside", False))  # older records: none beside
                for row in record.get("suspended_deleted", []))
    except IntegrityError as exc:
        raise _restore_conflict(user=user, rows=record.get("events_deleted", []) + rewritten) from exc


def _row_id(row: dict) -> int:
    return row["id"]


def _calendar_restore(*, user: User, before: dict) -> None:
    # Records from before second grids existed have no "later_sections_from": the student had none.
    later_from = before.get("later_sections_from")
    calendar_settings_update(user=user, semester_start=date.fromisoformat(before["semester_start"]),
                             semester_weeks=before["semester_weeks"], section_times=before["section_times"],
                             later_sections=(before.get("later_section_times", []),
                                             date.fromisoformat(later_from) if later_from else None))


def _events_restore(*, user: User, rows: list[dict]) -> None:
    events: list[ScheduleEvent] = []
    slots: list[ScheduleSlot] = []
    for row in rows:
        fields = {k: v for k, v in row.items() if k not in ("slots", "starts_at", "ends_at")}
        events.append(ScheduleEvent(user=user, starts_at=datetime.fromisoformat(row["starts_at"]),
                                    ends_at=datetime.fromisoformat(row["ends_at"]), **fields))
        slots.extend(ScheduleSlot(user=user, event_id=row["id"], **slot) for slot in row["slots"])
    ScheduleEvent.objects.bulk_create(events, batch_size=500)
    ScheduleSlot.objects.bulk_create(slots, batch_size=1000)


def _restore_conflict(*, user: User, rows: list[dict]) -> SlotConflictError:
    """Name the first meeting whose sections are taken now."""
    for row in rows:
        taken = ScheduleSlot.objects.filter(user=user, week=row["week"], day=row["day"],
                                            section__in=[s["section"] for s in row["slots"]]) \
            .select_related("event").first()
        if taken is not None:
            return SlotConflictError(
                _("“%(course)s” cannot come back: week %(week)s, its sections are taken by “%(title)s”; "
                  "move that first.") % {"course": row["title"], "week": row["week"], "title": taken.event.title},
                code="slot_taken")
    return SlotConflictError(_("The timetable changed meanwhile; this change cannot be undone."),
                             code="undo_conflict")
