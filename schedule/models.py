"""Schedule data: the student's calendar (semester and section times), courses, events
(contiguous blocks on one day) and atomic slots.

An event covers sections ``start_section..end_section`` of one day in one week. Each of those
sections has one ``ScheduleSlot`` row, unique per user and slot: the database is the last line
of defence against double booking (services check first and name the occupant).
"""

from __future__ import annotations

import secrets
from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from schedule.core.change_records import BlockMove, ItemPlacement, MarkedBlock, NotePlacement, RemovedBlock
from schedule.core.time_model import MAX_SECTIONS, SectionTemplate, Semester, guess_semester_start
from smartmate.platform.dates import EARLIEST_YEAR, LATEST_YEAR

MAX_SEMESTER_WEEKS = 30

# The default section template: the 12-section day of the CQUPT timetable (pairs 1-2 ... 11-12).
DEFAULT_SECTION_TIMES: list[list[str]] = [
    ["08:00", "08:45"], ["08:55", "09:40"], ["10:15", "11:00"], ["11:10", "11:55"],
    ["14:00", "14:45"], ["14:55", "15:40"], ["16:15", "17:00"], ["17:10", "17:55"],
    ["19:00", "19:45"], ["19:55", "20:40"], ["20:50", "21:35"], ["21:45", "22:30"],
]


def default_section_times() -> list[list[str]]:
    return [list(pair) for pair in DEFAULT_SECTION_TIMES]


def parse_clock(value: str) -> time:
    """Parse ``HH:MM`` into a time, raising ValidationError with the offending text."""
    try:
        return datetime.strptime(value.strip(), "%H:%M").time()
    except (ValueError, AttributeError) as exc:
        raise ValidationError(_("%(value)s is not a time like 08:00."), params={"value": value}, code="clock") from exc


def validate_section_times(value: object) -> None:
    """Require 1-16 sections, each ``[start, end]`` with start < end, in order, not overlapping."""
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_SECTIONS:
        raise ValidationError(
            _("A day has between 1 and %(max)s sections."), params={"max": MAX_SECTIONS}, code="section_count"
        )
    previous_end: time | None = None
    for number, pair in enumerate(value, start=1):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ValidationError(_("Section %(n)s needs a start and an end."), params={"n": number}, code="section")
        start, end = parse_clock(pair[0]), parse_clock(pair[1])
        if start >= end:
            raise ValidationError(
                _("Section %(n)s ends before it starts."), params={"n": number}, code="section_order"
            )
        if previous_end is not None and start < previous_end:
            raise ValidationError(
                _("Section %(n)s starts before section %(prev)s ends."),
                params={"n": number, "prev": number - 1},
                code="section_overlap",
            )
        previous_end = end


class CalendarSettingsManager(models.Manager["CalendarSettings"]):
    def for_user(self, user, *, today: date | None = None) -> CalendarSettings:
        """The student's settings, made on first use with a guessed semester and the default section times.

        Sign-up makes them already; this covers accounts made another way (the shell, the admin).
        """
        existing = self.filter(user=user).first()
        if existing is not None:
            return existing
        local_today = today or timezone.now().astimezone(user.zone).date()
        calendar, _created = self.get_or_create(user=user, defaults={
            "semester_start": guess_semester_start(local_today), "semester_weeks": 20,
            "section_times": default_section_times()})
        return calendar


class CalendarSettings(models.Model):
    """One student's semester (Monday of week 1, number of weeks) and section-time template."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="calendar"
    )
    semester_start = models.DateField(_("Monday of week 1"))
    semester_weeks = models.PositiveSmallIntegerField(_("number of weeks"), default=20)
    section_times = models.JSONField(
        _("section times"), default=default_section_times, validators=[validate_section_times]
    )
    # A school's second grid (winter or summer hours), in force from ``later_sections_from`` on; empty: none.
    later_section_times = models.JSONField(_("section times from a date"), default=list, blank=True)
    later_sections_from = models.DateField(_("second section times from"), null=True, blank=True)
    # Off: the timetable runs as imported; on: holidays suspend courses and make-up days run another
    # day's (the rows follow, see schedule/services/academic_calendar.py).
    follows_school_calendar = models.BooleanField(_("follow the school calendar"), default=False)
    # Sign-up guesses the semester; this says when the student first saved one themselves (the first-run guide).
    semester_confirmed_at = models.DateTimeField(_("semester confirmed at"), null=True, blank=True)
    # From this time of day the dashboard previews tomorrow (taskclasses/tomorrow.py).
    preview_after = models.TimeField(_("preview tomorrow from"), default=time(20, 0))
    updated_at = models.DateTimeField(auto_now=True)

    objects = CalendarSettingsManager()

    class Meta:
        verbose_name = _("calendar settings")
        verbose_name_plural = _("calendar settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(semester_weeks__gte=1) & Q(semester_weeks__lte=MAX_SEMESTER_WEEKS),
                name="calendar_weeks_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.semester_start} · {self.semester_weeks}w"

    def clean(self) -> None:
        # A year far away overflows the date arithmetic of the weeks (a 500 on the settings page).
        if self.semester_start and not EARLIEST_YEAR <= self.semester_start.year <= LATEST_YEAR:
            raise ValidationError({"semester_start": _("Use a date from {earliest} to {latest}.").format(
                earliest=EARLIEST_YEAR, latest=LATEST_YEAR)}, code="out_of_range")
        if self.semester_start and self.semester_start.weekday() != 0:
            raise ValidationError({"semester_start": _("Week 1 must start on a Monday.")}, code="not_monday")
        self._clean_later_sections()

    def _clean_later_sections(self) -> None:
        """A second grid needs its date, valid times and as many sections as the first (a slot keeps its number)."""
        if not self.later_section_times and self.later_sections_from is None:
            return
        if not self.later_section_times or self.later_sections_from is None:
            raise ValidationError({"later_section_times": _(
                "Second section times need both the times and the date they start.")}, code="later_incomplete")
        try:
            validate_section_times(self.later_section_times)
        except ValidationError as exc:  # said of the second grid, not the first
            raise ValidationError({"later_section_times": exc.error_list}) from exc
        if len(self.later_section_times) != len(self.section_times or []):
            raise ValidationError({"later_section_times": _(
                "The second section times need as many sections as the first (%(count)s).") % {
                "count": len(self.section_times or [])}}, code="later_count")

    def semester(self, time_zone: str) -> Semester:
        """Return the pure-core semester for conversions."""
        return Semester(start_monday=self.semester_start, weeks=self.semester_weeks, tz=time_zone)

    def template(self) -> SectionTemplate:
        """Return the pure-core section template, with the grid it switches to on a date if it has one."""
        template = SectionTemplate.from_hhmm(tuple(pair) for pair in self.section_times)
        if not self.later_section_times:
            return template
        later = SectionTemplate.from_hhmm(tuple(pair) for pair in self.later_section_times)
        return template.changing_to(later, self.later_sections_from)

    @property
    def section_count(self) -> int:
        return len(self.section_times)

    @property
    def semester_end(self) -> date:
        return self.semester_start + timedelta(weeks=self.semester_weeks, days=-1)


class Course(models.Model):
    """A course from the timetable; filler courses (水课) may host study blocks."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="courses")
    name = models.CharField(_("name"), max_length=100)
    teacher = models.CharField(_("teacher"), max_length=100, blank=True)
    location = models.CharField(_("location"), max_length=100, blank=True)
    # What the timetable file said of the course beyond its name, room and teacher (a course code,
    # words the importer did not understand): kept, never dropped.
    note = models.CharField(_("note"), max_length=500, blank=True)
    is_filler = models.BooleanField(
        _("filler course"), default=False,
        help_text=_("Study blocks may be embedded in a filler course (a course you can study through)."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("course")
        verbose_name_plural = _("courses")
        ordering = ["name", "teacher"]
        constraints = [
            models.UniqueConstraint(fields=["user", "name", "teacher"], name="course_unique_per_user"),
        ]

    def __str__(self) -> str:
        return self.name


class ScheduleEvent(models.Model):
    """One contiguous block on one day: a course meeting, a placed task, or a custom event."""

    class Kind(models.TextChoices):
        COURSE = "course", _("Course")
        TASK_ITEM = "task_item", _("Study block")
        QUICK_NOTE = "quick_note", _("Quick note")
        CUSTOM = "custom", _("Custom event")

    class Source(models.TextChoices):
        IMPORT = "import", _("Import")
        MANUAL = "manual", _("Manual")
        PLANNER = "planner", _("Planner")
        ASSISTANT = "assistant", _("Assistant")
        CALENDAR = "calendar", _("School calendar")  # a make-up day's course meeting (调休)

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="schedule_events")
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    source = models.CharField(_("source"), max_length=16, choices=Source.choices, default=Source.MANUAL)
    course = models.ForeignKey(Course, on_delete=models.CASCADE, null=True, blank=True, related_name="events")
    task = models.ForeignKey("taskclasses.Task", on_delete=models.CASCADE, null=True, blank=True,
                             related_name="events")
    task_item = models.ForeignKey("taskclasses.TaskItem", on_delete=models.CASCADE, null=True, blank=True,
                                  related_name="events")
    title = models.CharField(_("title"), max_length=100)
    location = models.CharField(_("location"), max_length=100, blank=True)
    note = models.CharField(_("note"), max_length=500, blank=True)
    # The student's own repeating event: every occurrence (one a week) carries the same series id.
    series_id = models.UUIDField(_("series"), null=True, blank=True, editable=False)
    # An occurrence changed "this week only" leaves its series but remembers it, so deleting every
    # week of the series deletes it too (as calendar apps do).
    series_origin = models.UUIDField(_("series it was changed from"), null=True, blank=True, editable=False)
    week = models.PositiveSmallIntegerField(_("week"))
    day = models.PositiveSmallIntegerField(_("day of week"))
    start_section = models.PositiveSmallIntegerField(_("first section"))
    end_section = models.PositiveSmallIntegerField(_("last section"))
    starts_at = models.DateTimeField(_("starts at"))
    ends_at = models.DateTimeField(_("ends at"))
    # A course meeting at its own times (the timetable gave times off the section grid): it holds the
    # sections it overlaps, and starts and ends at these wall-clock times whatever the sections say.
    clock_start = models.TimeField(_("own start time"), null=True, blank=True)
    clock_end = models.TimeField(_("own end time"), null=True, blank=True)
    # A course meeting the timetable puts at the same time as another course's (WakeUp shows both side by
    # side): shown beside it, holding no sections, so the other keeps them and nothing is double booked.
    beside = models.BooleanField(_("beside another course"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("schedule event")
        verbose_name_plural = _("schedule events")
        ordering = ["week", "day", "start_section"]
        indexes = [models.Index(fields=["user", "week", "day"], name="event_user_week_day"),
                   models.Index(fields=["user", "series_id"], name="event_user_series")]
        constraints = [
            models.CheckConstraint(condition=Q(day__gte=1) & Q(day__lte=7), name="event_day_in_week"),
            models.CheckConstraint(condition=Q(week__gte=1), name="event_week_positive"),
            models.CheckConstraint(
                condition=Q(start_section__gte=1) & Q(end_section__gte=F("start_section")),
                name="event_sections_ordered",
            ),
            models.CheckConstraint(condition=Q(ends_at__gt=F("starts_at")), name="event_ends_after_start"),
            # A link implies its kind (a course link only on a course meeting, ...). The converse
            # (every course meeting has its course) is kept by the services: on MySQL/MariaDB,
            # Django cascades a nullable foreign key by first setting it to NULL, which a two-way
            # check would refuse, breaking every delete.
            models.CheckConstraint(condition=Q(course__isnull=True) | Q(kind="course"),
                                   name="event_course_link_is_course_kind"),
            models.CheckConstraint(condition=Q(task__isnull=True) | Q(kind="quick_note"),
                                   name="event_task_link_is_quick_note_kind"),
            models.CheckConstraint(condition=Q(task_item__isnull=True) | Q(kind="task_item"),
                                   name="event_item_link_is_task_item_kind"),
            models.CheckConstraint(condition=Q(series_id__isnull=True) | Q(kind="custom"),
                                   name="event_series_is_custom_kind"),
            models.CheckConstraint(
                condition=(Q(clock_start__isnull=True) & Q(clock_end__isnull=True))
                | (Q(clock_start__isnull=False) & Q(clock_end__gt=F("clock_start"))),
                name="event_own_times_ordered"),
            models.CheckConstraint(condition=Q(beside=False) | Q(kind="course"), name="event_beside_is_course"),
        ]

    def __str__(self) -> str:
        return f"{self.title} W{self.week} D{self.day} {self.start_section}-{self.end_section}"

    def clean(self) -> None:
        links: dict[str, int | None] = {self.Kind.COURSE: self.course_id, self.Kind.QUICK_NOTE: self.task_id,
                                        self.Kind.TASK_ITEM: self.task_item_id}
        if self.kind in links and links[self.kind] is None:
            raise ValidationError(_("A %(kind)s event needs its link.") % {"kind": self.get_kind_display()},
                                  code="missing_link")

    @property
    def sections(self) -> range:
        return range(self.start_section, self.end_section + 1)

    @property
    def held_sections(self) -> range:
        """The sections this event holds (slot rows): none for a meeting shown beside another."""
        return range(0) if self.beside else self.sections

    @property
    def clock(self) -> tuple[time, time] | None:
        """The meeting's own times, None when it keeps its sections' times."""
        if self.clock_start is None or self.clock_end is None:
            return None
        return self.clock_start, self.clock_end

    @property
    def is_filler(self) -> bool:
        return self.course is not None and self.course.is_filler


class ScheduleSlot(models.Model):
    """One atomic section held by an event; unique per user, week, day and section."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="schedule_slots")
    event = models.ForeignKey(ScheduleEvent, on_delete=models.CASCADE, related_name="slots")
    # A study block embedded in a filler course: recorded on the course's own slots.
    embedded_item = models.ForeignKey("taskclasses.TaskItem", on_delete=models.SET_NULL, null=True, blank=True,
                                      related_name="embedded_slots")
    week = models.PositiveSmallIntegerField()
    day = models.PositiveSmallIntegerField()
    section = models.PositiveSmallIntegerField()

    class Meta:
        verbose_name = _("schedule slot")
        verbose_name_plural = _("schedule slots")
        ordering = ["week", "day", "section"]
        constraints = [
            models.UniqueConstraint(fields=["user", "week", "day", "section"], name="slot_unique_per_user"),
            models.CheckConstraint(condition=Q(day__gte=1) & Q(day__lte=7), name="slot_day_in_week"),
        ]

    def __str__(self) -> str:
        return f"W{self.week} D{self.day} S{self.section}"


def new_feed_token() -> str:
    return secrets.token_urlsafe(24)


class CalendarFeed(models.Model):
    """The secret address phone calendars subscribe to; regenerating it revokes the old one."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed")
    token = models.CharField(max_length=64, unique=True, default=new_feed_token)
    created_at = models.DateTimeField(auto_now_add=True)
    last_fetched_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("calendar feed")
        verbose_name_plural = _("calendar feeds")

    def __str__(self) -> str:
        return f"feed of {self.user}"


class PlanPreview(models.Model):
    """A proposed placement of study blocks, shown on the board until applied, discarded or expired."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        APPLIED = "applied", _("Applied")
        DISCARDED = "discarded", _("Discarded")

    class Source(models.TextChoices):
        PAGE = "page", _("Planner page")
        ASSISTANT = "assistant", _("Assistant")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="plan_previews")
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.PAGE)
    conversation_id = models.BigIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    task_class_ids = models.JSONField(default=list)
    # [{item_id, class_id, week, day, start_section, end_section, host_event_id}], in time order
    placements = models.JSONField(default=list)
    # Existing study or quick-note blocks to move: [{kind, item_id, task_id, event_id, class_id,
    #   from: {week, day, start_section, end_section, host_event_id}, to: {...same}}]
    moves = models.JSONField(default=list, blank=True)
    # Quick-note tasks to put on the board: [{task_id, week, day, start_section, end_section, host_event_id}]
    task_placements = models.JSONField(default=list, blank=True)
    unplaced = models.JSONField(default=list)
    feasibility = models.JSONField(default=list)
    expires_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("plan preview")
        verbose_name_plural = _("plan previews")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"preview {self.pk} of {self.user} ({self.status})"

    def placement_records(self) -> list[ItemPlacement]:
        return [ItemPlacement.from_json(row) for row in self.placements]

    def move_records(self) -> list[BlockMove]:
        return [BlockMove.from_json(row) for row in self.moves]

    def note_placement_records(self) -> list[NotePlacement]:
        return [NotePlacement.from_json(row) for row in self.task_placements]


class ChangeSet(models.Model):
    """What one apply or one direct edit of the board wrote, so it can be undone exactly."""

    class Kind(models.TextChoices):
        APPLY = "apply", _("Preview applied")
        MOVE = "move", _("Block moved")
        REMOVE = "remove", _("Block removed")
        MARK = "mark", _("Block marked")
        COURSE = "course", _("Course changed")
        EVENT = "event", _("Own event changed")
        IMPORT = "import", _("Timetable re-imported")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="changesets")
    preview = models.OneToOneField(PlanPreview, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="changeset")
    event_ids = models.JSONField(default=list)
    embedded_slot_ids = models.JSONField(default=list)
    item_ids = models.JSONField(default=list)
    # The moves applied, each with the event that now holds the block ("event_id_after"), for undo.
    moves = models.JSONField(default=list, blank=True)
    task_ids = models.JSONField(default=list, blank=True)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.APPLY)
    # Blocks taken off the board by a direct edit, as they were: [{kind, item_id, task_id, event_id,
    #   title, location, note, source, status, from: {week, day, start_section, end_section, host_event_id}}]
    removed = models.JSONField(default=list, blank=True)
    # Blocks marked by a direct edit: [{item_id | task_id, title, before, after}] (TaskItem statuses;
    #   a quick note's "done" is its completion)
    marked = models.JSONField(default=list, blank=True)
    # Timetable rows a course edit, an own-event edit or a re-import changed, as they were, so undo can
    #   restore them: {"courses_created": [id], "events_created": [id], "courses_deleted": [course row],
    #    "events_deleted": [event row with its slots], "courses_changed": [{id, before, after}],
    #    "events_rewritten": [{"before": event row, "after": event row}]}
    timetable = models.JSONField(default=dict, blank=True)
    applied_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("change set")
        verbose_name_plural = _("change sets")
        ordering = ["-applied_at"]

    def __str__(self) -> str:
        return f"changeset {self.pk} of {self.user}"

    @property
    def block_count(self) -> int:
        return len(self.item_ids)

    def move_records(self) -> list[BlockMove]:
        return [BlockMove.from_json(row) for row in self.moves]

    def removed_records(self) -> list[RemovedBlock]:
        return [RemovedBlock.from_json(row) for row in self.removed]

    def marked_records(self) -> list[MarkedBlock]:
        return [MarkedBlock.from_json(row) for row in self.marked]

    @property
    def change_count(self) -> int:
        """Blocks placed, quick notes placed, blocks moved, removed and marked."""
        return len(self.item_ids) + len(self.task_ids) + len(self.moves) + len(self.removed) + len(self.marked)


class CalendarDay(models.Model):
    """One entry of the student's school calendar: a holiday or exam range, or a make-up day (调休).

    A make-up day is one date (``first_date`` = ``last_date``) that runs the courses of week
    ``runs_week``, weekday ``runs_day`` (1 = Monday). The pure resolver is
    ``schedule/core/academic_calendar.py``; the services keep the course meetings in step.
    """

    class Kind(models.TextChoices):
        HOLIDAY = "holiday", _("Holiday")
        MAKEUP = "makeup", _("Make-up day")
        EXAM = "exam", _("Exam week")

    class Origin(models.TextChoices):
        MANUAL = "manual", _("Entered by hand")
        NATIONAL = "national", _("National arrangement")
        ICS = "ics", _("Imported from .ics")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_days")
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    name = models.CharField(_("name"), max_length=60)
    first_date = models.DateField(_("first day"))
    last_date = models.DateField(_("last day"))
    runs_week = models.PositiveSmallIntegerField(_("runs the courses of week"), null=True, blank=True)
    runs_day = models.PositiveSmallIntegerField(_("runs the courses of weekday"), null=True, blank=True)
    origin = models.CharField(_("origin"), max_length=8, choices=Origin.choices, default=Origin.MANUAL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("calendar day")
        verbose_name_plural = _("calendar days")
        ordering = ["first_date", "kind", "pk"]
        indexes = [models.Index(fields=["user", "first_date"], name="calendarday_user_first")]
        constraints = [
            models.CheckConstraint(condition=Q(last_date__gte=F("first_date")), name="calendarday_range_ordered"),
            models.CheckConstraint(
                condition=(Q(kind="makeup") & Q(runs_week__isnull=False) & Q(runs_day__gte=1) & Q(runs_day__lte=7)
                           & Q(last_date=F("first_date")))
                | (~Q(kind="makeup") & Q(runs_week__isnull=True) & Q(runs_day__isnull=True)),
                name="calendarday_makeup_runs_a_day"),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.first_date}..{self.last_date} ({self.kind})"


class SuspendedMeeting(models.Model):
    """A course meeting a holiday suspended, as it was, so it comes back when the holiday goes.

    ``embedded`` lists the study blocks that were embedded in it ([{item_id, first, last}]): they
    were given blocks of their own at the same time, and go back into the meeting when it returns.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="suspended_meetings")
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="suspended_meetings")
    title = models.CharField(max_length=100)
    location = models.CharField(max_length=100, blank=True)
    note = models.CharField(max_length=500, blank=True)
    source = models.CharField(max_length=16, default="import")
    week = models.PositiveSmallIntegerField()
    day = models.PositiveSmallIntegerField()
    start_section = models.PositiveSmallIntegerField()
    end_section = models.PositiveSmallIntegerField()
    embedded = models.JSONField(default=list, blank=True)
    clock_start = models.TimeField(null=True, blank=True)  # the meeting's own times, if it had them
    clock_end = models.TimeField(null=True, blank=True)
    beside = models.BooleanField(default=False)  # it was shown beside another course's meeting, holding no sections
    # The meeting's own id: it comes back under it, so a change set that recorded the meeting (a course
    # edit, a re-import) still finds it when it is undone.
    event_pk = models.BigIntegerField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("suspended course meeting")
        verbose_name_plural = _("suspended course meetings")
        ordering = ["week", "day", "start_section"]
        indexes = [models.Index(fields=["user", "week", "day"], name="suspended_user_week_day")]

    def __str__(self) -> str:
        return f"{self.title} W{self.week} D{self.day} {self.start_section}-{self.end_section} (suspended)"


# Models kept beside their feature, registered with this app (see the module).
from schedule.exams.models import Exam  # noqa: E402, F401 - after this module's models, which it refers to
from schedule.semesters.models import Semester as PastSemester  # noqa: E402, F401 - a past semester, kept beside its feature
from schedule.student_rules.models import StudyRules  # noqa: E402, F401 - the student's rules, kept beside their feature
