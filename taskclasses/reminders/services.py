"""Reminder writes: the student's settings, producing reminders (beat, or the bell on embedded defaults),
and read state. Reads live in ``selectors``; texts in ``presenters``."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, time, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.models import ScheduleEvent, ScheduleSlot
from smartmate.platform.exceptions import AppError, NotFoundError
from smartmate.platform.outbox.services import outbox_publish
from taskclasses.models import Task, TaskItem
from taskclasses.notes.services import tasks_promote
from taskclasses.reminders import outbox
from taskclasses.reminders.models import MAX_LEAD_MINUTES, MIN_LEAD_MINUTES, Reminder, ReminderSettings
from taskclasses.reminders.rules import deadline_reminder_due, in_quiet_hours
from taskclasses.tomorrow import tomorrow_preview_due

Kind = Reminder.Kind
STUDY_KINDS = (ScheduleEvent.Kind.TASK_ITEM, ScheduleEvent.Kind.QUICK_NOTE)
# A note promoted longer ago than this is old news, not a reminder.
URGENT_NEWS_WINDOW = timedelta(hours=12)
# A student told about tomorrow within this span is not asked again by the all-students pass.
TOMORROW_QUIET_SPAN = timedelta(hours=20)


class ReminderSettingsInvalid(AppError):
    code = "invalid_reminder_settings"
    status = 400


# --- Settings ------------------------------------------------------------------------------------

def reminder_settings_get(*, user: User) -> ReminderSettings:
    """The student's settings; the defaults (10 minutes, 9:00, courses off, no quiet hours) until saved."""
    found = ReminderSettings.objects.filter(user=user).first()
    return found or ReminderSettings(user=user)


SETTINGS_FIELDS = ("blocks_enabled", "block_lead_minutes", "deadlines_enabled", "deadline_time",
                   "courses_enabled", "course_lead_minutes", "quiet_start", "quiet_end")


def reminder_settings_update(*, user: User, **values: Any) -> ReminderSettings:
    """Change some settings; out-of-range lead times and half or empty quiet hours are refused, nothing saved."""
    unknown = sorted(set(values) - set(SETTINGS_FIELDS))
    if unknown:
        raise ReminderSettingsInvalid(_("Unknown reminder settings: %(names)s.") % {"names": ", ".join(unknown)},
                                      code="unknown_field", detail={"fields": unknown})
    current = reminder_settings_get(user=user)
    for name, value in values.items():
        setattr(current, name, value)
    _check_leads(current)
    _check_quiet_hours(current.quiet_start, current.quiet_end)
    with transaction.atomic():
        ReminderSettings.objects.update_or_create(
            user=user, defaults={name: getattr(current, name) for name in SETTINGS_FIELDS})
    return reminder_settings_get(user=user)


def _check_leads(current: ReminderSettings) -> None:
    for name in ("block_lead_minutes", "course_lead_minutes"):
        minutes = getattr(current, name)
        if not isinstance(minutes, int) or not MIN_LEAD_MINUTES <= minutes <= MAX_LEAD_MINUTES:
            raise ReminderSettingsInvalid(
                _("A reminder comes %(min)s to %(max)s minutes ahead; %(value)s is out of range.")
                % {"min": MIN_LEAD_MINUTES, "max": MAX_LEAD_MINUTES, "value": minutes},
                code="lead_time_out_of_range",
                detail={"field": name, "min": MIN_LEAD_MINUTES, "max": MAX_LEAD_MINUTES, "value": minutes})


def _check_quiet_hours(start: time | None, end: time | None) -> None:
    if (start is None) != (end is None):
        raise ReminderSettingsInvalid(_("Quiet hours need both a start and an end (or neither)."),
                                      code="quiet_hours_incomplete")
    if start is not None and start == end:
        raise ReminderSettingsInvalid(_("Quiet hours cannot start and end at the same time."),
                                      code="quiet_hours_empty")


# --- Producing --------------------------------------------------------------------------------------

def reminders_produce(*, now: datetime | None = None, user: User | None = None) -> int:
    """Create the reminders due now (every student, or one) and publish each for delivery; idempotent.

    Beat runs it every minute; on embedded defaults (no beat) the bell's socket and list run it for
    their student. Returns how many reminders were new.
    """
    now = now or timezone.now()
    tasks_promote(now=now, user=user)  # a note crossing its threshold now is announced in this pass
    candidates = [*_starting_soon(now, user), *_deadlines_today(now, user), *_urgent_notes(now, user),
                  *_plans_rotted(now, user), *_tomorrows(now, user)]
    settings_of = _settings_by_user({c["user_id"] for c in candidates})
    created = 0
    for candidate in candidates:
        wanted = _wanted(candidate, settings_of[candidate["user_id"]], now)
        if wanted is not None and _reminder_create(**wanted):
            created += 1
    return created


def _settings_by_user(user_ids: set[int]) -> dict[int, ReminderSettings]:
    saved = {row.user_id: row for row in ReminderSettings.objects.filter(user_id__in=user_ids)}
    return {uid: saved.get(uid) or ReminderSettings(user_id=uid) for uid in user_ids}


def _starting_soon(now: datetime, user: User | None) -> Iterable[dict]:
    events = ScheduleEvent.objects.filter(starts_at__gt=now, starts_at__lte=now + timedelta(minutes=MAX_LEAD_MINUTES),
                                          kind__in=[*STUDY_KINDS, ScheduleEvent.Kind.COURSE])
    if user is not None:
        events = events.filter(user=user)
    for event in events.select_related("user").order_by("starts_at", "pk"):
        course = event.kind == ScheduleEvent.Kind.COURSE
        yield {"user_id": event.user_id, "zone": event.user.zone, "starts_at": event.starts_at,
               "kind": Kind.COURSE_STARTING if course else Kind.BLOCK_STARTING,
               "key": f"event:{event.pk}:{event.starts_at.isoformat()}",
               "params": {"title": event.title, "starts_at": event.starts_at.isoformat(),
                          "location": event.location},
               "link": f"{reverse('board:week')}?week={event.week}"}


def _deadlines_today(now: datetime, user: User | None) -> Iterable[dict]:
    tasks = Task.objects.filter(completed=False, deadline__gt=now, deadline__lte=now + timedelta(days=1))
    if user is not None:
        tasks = tasks.filter(user=user)
    for task in tasks.select_related("user").order_by("deadline", "pk"):
        assert task.deadline is not None  # filtered
        yield {"user_id": task.user_id, "zone": task.user.zone, "deadline": task.deadline,
               "kind": Kind.DEADLINE_TODAY, "key": f"task:{task.pk}:{task.deadline.isoformat()}",
               "params": {"title": task.title, "deadline": task.deadline.isoformat()}, "link": reverse("dashboard")}


def _urgent_notes(now: datetime, user: User | None) -> Iterable[dict]:
    tasks = Task.objects.filter(completed=False, quadrant=Task.Quadrant.IMPORTANT_URGENT,
                                auto_reason=Task.AutoReason.THRESHOLD_REACHED,
                                auto_changed_at__gt=now - URGENT_NEWS_WINDOW, auto_changed_at__lte=now)
    if user is not None:
        tasks = tasks.filter(user=user)
    for task in tasks.select_related("user").order_by("auto_changed_at", "pk"):
        assert task.auto_changed_at is not None  # filtered
        yield {"user_id": task.user_id, "zone": task.user.zone, "kind": Kind.NOTE_URGENT,
               "key": f"task:{task.pk}:{task.auto_changed_at.isoformat()}",
               "params": {"title": task.title, "deadline": task.deadline.isoformat() if task.deadline else None},
               "link": reverse("dashboard")}


def _plans_rotted(now: datetime, user: User | None) -> Iterable[dict]:
    """One reminder a day (the student's day) while missed blocks of a running plan wait for catch-up.

    It counts the missed blocks the catch-up action places again (begun, of a plan that has not ended:
    ``board.catch_up``), and links to the board at the first of them, which the board
    brings into view.
    """
    begun = Q(events__starts_at__lt=now) | Q(embedded_slots__event__starts_at__lt=now)
    missed = TaskItem.objects.filter(begun, status=TaskItem.Status.MISSED,
                                     task_class__end_date__gte=(now - timedelta(days=1)).date()).distinct()
    if user is not None:
        missed = missed.filter(task_class__user=user)
    rows = list(missed.order_by("task_class__start_date", "task_class_id", "order")
                .values_list("task_class__user_id", "pk", "task_class__end_date"))
    zones = {pk: User(time_zone=name).zone for pk, name in
             User.objects.filter(pk__in={owner for owner, _item, _end in rows}).values_list("pk", "time_zone")}
    waiting: dict[int, list[int]] = {}
    for owner, item_id, end_date in rows:
        if end_date >= timezone.localtime(now, zones[owner]).date():  # the plan still runs in her day
            waiting.setdefault(owner, []).append(item_id)
    for owner, items in sorted(waiting.items()):
        local_day = timezone.localtime(now, zones[owner]).date()
        yield {"user_id": owner, "zone": zones[owner], "kind": Kind.PLAN_ROTTED,
               "key": f"missed:{local_day.isoformat()}", "params": {"count": len(items)},
               "link": _board_at_block(items[0])}


def _board_at_block(item_id: int) -> str:
    """The week board at a study block's week and day, naming the block for the page to bring into view."""
    place = (ScheduleEvent.objects.filter(task_item_id=item_id).values_list("week", "day").first()
             or ScheduleSlot.objects.filter(embedded_item_id=item_id).values_list("week", "day").first())
    query = f"?week={place[0]}&day={place[1]}&block=item-{item_id}" if place else f"?block=item-{item_id}"
    return reverse("board:week") + query


def _tomorrows(now: datetime, user: User | None) -> Iterable[dict]:
    """Tomorrow's preview, once a day from the student's preview time (20:00 by default), if tomorrow holds anything.

    The all-students pass skips students told in the last ``TOMORROW_QUIET_SPAN``: one cheap query each
    for the rest (``tomorrow_preview_due`` answers None before the preview time).
    """
    if user is not None:
        students: Iterable[User] = [user]
    else:
        told = Reminder.objects.filter(kind=Kind.TOMORROW, created_at__gt=now - TOMORROW_QUIET_SPAN).values("user_id")
        students = User.objects.filter(is_active=True).exclude(pk__in=told).order_by("pk").iterator()
    for student in students:
        preview = tomorrow_preview_due(user=student, now=now)
        # A day off with nothing on it is still news ("明天放假（国庆节）"): its headline is the notice.
        if preview is None or (preview.is_empty and not preview.headline):
            continue
        yield {"user_id": student.pk, "zone": student.zone, "kind": Kind.TOMORROW, "key": f"day:{preview.on.isoformat()}",
               "params": {"date": preview.on.isoformat(), "headline": preview.headline,
                          "courses": len(preview.courses), "blocks": len(preview.blocks) + len(preview.embedded),
                          "deadlines": len(preview.deadlines), "exams": len(preview.exams)},
               "link": f"{reverse('board:week')}?week={preview.week}" if preview.week else reverse("dashboard")}


def _wanted(candidate: dict, prefs: ReminderSettings, now: datetime) -> dict | None:
    """The reminder to create for a candidate under the student's settings, or None (off, or not yet due)."""
    kind = candidate["kind"]
    local_now = timezone.localtime(now, candidate["zone"])
    if kind == Kind.BLOCK_STARTING and not (prefs.blocks_enabled and _within(candidate, prefs.block_lead_minutes, now)):
        return None
    if kind == Kind.COURSE_STARTING and not (prefs.courses_enabled
                                             and _within(candidate, prefs.course_lead_minutes, now)):
        return None
    if kind == Kind.DEADLINE_TODAY and not (prefs.deadlines_enabled and deadline_reminder_due(
            now_local=local_now, deadline_local=timezone.localtime(candidate["deadline"], candidate["zone"]),
            remind_at=prefs.deadline_time)):
        return None
    silent = in_quiet_hours(local_now.time().replace(tzinfo=None), prefs.quiet_start, prefs.quiet_end)
    return {"user_id": candidate["user_id"], "kind": kind, "key": candidate["key"], "params": candidate["params"],
            "link": candidate["link"], "silent": silent}


def _within(candidate: dict, lead_minutes: int, now: datetime) -> bool:
    return candidate["starts_at"] - timedelta(minutes=lead_minutes) <= now < candidate["starts_at"]


def notice_create(*, user_id: int, kind: str, key: str, params: dict, link: str) -> bool:
    """Tell the student something once, now (not a timed reminder): the bell shows it and the socket delivers it."""
    return _reminder_create(user_id=user_id, kind=kind, key=key, params=params, link=link, silent=False)


def _reminder_create(*, user_id: int, kind: str, key: str, params: dict, link: str, silent: bool) -> bool:
    """Create one reminder and its delivery event together; False when it already exists."""
    with transaction.atomic():
        reminder, created = Reminder.objects.get_or_create(
            user_id=user_id, kind=kind, key=key, defaults={"params": params, "link": link, "silent": silent})
        if created:
            outbox_publish(topic=outbox.TOPIC, aggregate=f"user:{user_id}", payload={"reminder_id": reminder.pk})
    return created


# --- Read state -------------------------------------------------------------------------------------

def reminder_mark_read(*, user: User, reminder_id: int, now: datetime | None = None) -> Reminder:
    """Mark one of the student's reminders read (again: no change); another student's is not found."""
    reminder = Reminder.objects.filter(user=user, pk=reminder_id).first()
    if reminder is None:
        raise NotFoundError(_("Reminder not found."), code="reminder_not_found")
    Reminder.objects.filter(pk=reminder.pk, read_at__isnull=True).update(read_at=now or timezone.now())
    reminder.refresh_from_db()
    return reminder


def reminders_mark_all_read(*, user: User, now: datetime | None = None) -> int:
    """Mark every unread reminder of the student read; return how many changed."""
    return Reminder.objects.filter(user=user, read_at__isnull=True).update(read_at=now or timezone.now())
