"""Writes of the school calendar: holidays, make-up days (调休), exam weeks and the "follow" switch,
and the course meetings kept in step with them.

Materialised, not resolved at read time. The resolver (``schedule/core/academic_calendar.py``)
is pure; this module writes its answer into the rows every reader already reads:

* a course meeting on a suspended date is taken off the board and kept as a ``SuspendedMeeting``
  (its slots are freed), so it comes back exactly when the holiday is deleted or the switch is off;
* a make-up date gets copies of the course meetings of the (week, weekday) it runs, as course
  events with ``source = "calendar"`` and slots of their own.

Why rows and not a read-time view: the slot rows are the one truth of "is this section taken?"
for every writer (plan apply, direct edits, quick notes, custom events, the import's clash check)
and the database's unique slot is the last guard against double booking. A read-time view would
show a holiday's course time as free to the planner while its slot rows still hold it, so the first
block placed there would hit the unique constraint; and a make-up Sunday's courses would be
invisible to every writer that checks slots. With rows, the week board, the day agenda, the .ics
export and feed, the planner's free time, the board loaded for direct edits and the assistant's
tools, and now/next all see the same resolved calendar without each learning the rules. The cost:
whatever rewrites course meetings (a change of semester, a timetable import) must call
``academic_calendar_sync`` afterwards; it is idempotent and cheap when nothing changed.

Study blocks embedded in a suspended meeting stay visible: each becomes a study block of its own
at the same sections (the course is gone, the block keeps its time) and goes back into the meeting
when the meeting returns, if it is still there.

Every change is all or nothing: the days are checked as a whole (coded problems), and a change
whose meetings would land on sections already taken (a make-up Sunday where the student put a
study block) is refused naming them, with nothing written.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, time
from pathlib import Path
from typing import NoReturn

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.academic_calendar import (
    CalendarProblem,
    ProblemCode,
    calendar_problems,
)
from schedule.core.holiday_ics import holidays_from_ics
from schedule.core.makeup_notice import NoticeError, NoticeProblem, makeup_notice_parse
from schedule.core.time_model import SectionTemplate, Semester, meeting_bounds
from schedule.messages import day_label
from schedule.models import CalendarDay, CalendarSettings, ScheduleEvent, ScheduleSlot, SuspendedMeeting
from schedule.selectors import calendar_settings_get, core_calendar_day, school_calendar_get
from smartmate.platform.exceptions import AppError, ConflictError, NotFoundError

MAX_LISTED_CONFLICTS = 20
MAX_CALENDAR_DAYS = 200  # per student: a few years of holidays, make-up days and exam weeks


class CalendarDayError(AppError):
    """The days as a whole have problems; ``detail["problems"]`` lists each with its code."""

    code = "calendar_invalid"
    status = 400


class CalendarConflictError(ConflictError):
    """Course meetings the calendar would put back or add land on sections already taken."""

    code = "calendar_conflict"


@dataclass(frozen=True)
class SyncOutcome:
    suspended: int = 0
    restored: int = 0
    makeups_added: int = 0
    makeups_removed: int = 0


# --- Messages --------------------------------------------------------------------------------------

def problem_message(problem: CalendarProblem) -> str:
    """One problem in the student's language, naming the entry."""
    values: dict[str, object] = {"name": problem.name, **problem.detail}
    day = problem.detail.get("day")
    values["weekday"] = day_label(day) if isinstance(day, int) else ""
    return _PROBLEM_TEMPLATES[problem.code]() % values


_PROBLEM_TEMPLATES = {
    ProblemCode.EMPTY_NAME: lambda: _("Give the day a name."),
    ProblemCode.RANGE_REVERSED: lambda: _("%(name)s ends before it starts."),
    ProblemCode.OUTSIDE_SEMESTER: lambda: _("%(name)s (%(first)s .. %(last)s) is outside the semester "
                                            "(%(semester_first)s .. %(semester_last)s)."),
    ProblemCode.HOLIDAY_OVERLAP: lambda: _("%(name)s overlaps %(other)s."),
    ProblemCode.MAKEUP_RANGE: lambda: _("A make-up day is a single date."),
    ProblemCode.MAKEUP_WEEK_OUTSIDE: lambda: _("%(name)s runs week %(week)s, outside the semester "
                                               "(weeks 1..%(weeks)s)."),
    ProblemCode.MAKEUP_DAY_INVALID: lambda: _("%(name)s needs a weekday from Monday to Sunday."),
    ProblemCode.MAKEUP_ON_HOLIDAY: lambda: _("%(name)s falls on a holiday (%(date)s)."),
    ProblemCode.MAKEUP_TARGET_MAKEUP: lambda: _("%(name)s runs the classes of week %(week)s, %(weekday)s "
                                                "(%(date)s), which is itself a make-up day."),
    ProblemCode.MAKEUP_DUPLICATE: lambda: _("%(date)s already has a make-up day."),
}


def _raise_problems(problems: list[CalendarProblem]) -> None:
    messages = [problem_message(p) for p in problems]
    listed = [{"code": str(p.code), "name": p.name, "message": message, **_plain(p.detail)}
              for p, message in zip(problems, messages)]
    message = messages[0] if len(messages) == 1 else _("%(count)d problems: %(first)s") % {
        "count": len(messages), "first": messages[0]}
    raise CalendarDayError(message, code=str(problems[0].code), detail={"problems": listed})


def _plain(detail: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in detail.items() if key != "name"}


# --- Entering days ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class DayInput:
    """A day as a client sends it (kind, name, dates; a make-up day's week and weekday)."""

    kind: str
    name: str
    first_date: date
    last_date: date
    runs_week: int | None = None
    runs_day: int | None = None

    def row(self, user: User, origin: str) -> CalendarDay:
        makeup = self.kind == CalendarDay.Kind.MAKEUP
        return CalendarDay(user=user, kind=self.kind, name=self.name.strip(), first_date=self.first_date,
                           last_date=self.last_date, runs_week=self.runs_week if makeup else None,
                           runs_day=self.runs_day if makeup else None, origin=origin)

    def same_as(self, row: CalendarDay) -> bool:
        return (row.kind, row.name, row.first_date, row.last_date) == (
            self.kind, self.name.strip(), self.first_date, self.last_date) and (
            self.kind != CalendarDay.Kind.MAKEUP or (row.runs_week, row.runs_day) == (self.runs_week, self.runs_day))


NOTICE_MESSAGES = {
    NoticeProblem.NOT_TWO_DATES: lambda: _("Could not read this notice: write it as “12-13 补 12-11 的课” (the make-up "
                                          "day, then the day whose classes it runs), or choose the week and weekday."),
    NoticeProblem.BAD_DATE: lambda: _("“%(text)s” is not a date."),
    NoticeProblem.WEEKDAY_MISMATCH: lambda: _("%(text)s: %(date)s is not that weekday; check the date."),
    NoticeProblem.SAME_DAY: lambda: _("The notice names the same day twice (%(date)s)."),
}


def makeup_from_notice(*, user: User, text: str, name: str = "") -> DayInput:
    """A make-up day from a line of the school's notice ("12-13 补 12-11 的课"), both dates in the semester.

    Raises CalendarDayError with a Chinese message naming what could not be read.
    """
    semester = calendar_settings_get(user=user).semester(user.time_zone)
    middle = semester.date_of(max(1, semester.weeks // 2), 1)
    try:
        notice = makeup_notice_parse(text, near=middle)
    except NoticeError as exc:
        _refuse_notice(exc.code.value, NOTICE_MESSAGES[exc.code]() % exc.detail, exc.detail)
    for when in (notice.on, notice.runs):
        if not semester.contains(when):
            _refuse_notice("date_outside_semester", _("%(date)s is outside your semester (%(first)s .. %(last)s).") % {
                "date": when.isoformat(), "first": semester.start_monday.isoformat(),
                "last": semester.last_day.isoformat()}, {"date": when.isoformat()})
    week, day = semester.week_day_of(notice.runs)
    return DayInput(CalendarDay.Kind.MAKEUP, name.strip() or _("Make-up"), notice.on, notice.on, week, day)


def _refuse_notice(code: str, message: str, detail: dict) -> NoReturn:
    """Refuse a notice the way every refused day is refused: one problem, listed with its code."""
    raise CalendarDayError(message, code=code, detail={"problems": [{"code": code, "message": message, **detail}]})


def calendar_day_create(*, user: User, day: DayInput, origin: str = CalendarDay.Origin.MANUAL) -> CalendarDay:
    """Add one holiday, make-up day or exam week; the board follows at once when the switch is on."""
    return calendar_days_add(user=user, days=[day], origin=origin)[0]


@transaction.atomic
def calendar_days_add(*, user: User, days: list[DayInput], origin: str = CalendarDay.Origin.MANUAL
                      ) -> list[CalendarDay]:
    """Add several days at once, all or nothing; a day already there (same kind, name, dates) is kept, not doubled.

    Returns the rows, existing or new, in the order given.
    """
    calendar = _locked_calendar(user)
    existing = list(CalendarDay.objects.filter(user=user))
    rows: list[CalendarDay] = []
    fresh: list[CalendarDay] = []
    for day in days:
        if day.kind not in CalendarDay.Kind.values:
            raise CalendarDayError(_("Unknown kind of day %(kind)s.") % {"kind": day.kind}, code="invalid_kind")
        same = next((row for row in existing + fresh if day.same_as(row)), None)
        if same is None:
            same = day.row(user, origin)
            fresh.append(same)
        rows.append(same)
    if len(existing) + len(fresh) > MAX_CALENDAR_DAYS:
        raise CalendarDayError(_("A calendar holds at most %(max)d days.") % {"max": MAX_CALENDAR_DAYS},
                               code="too_many_days", detail={"max": MAX_CALENDAR_DAYS})
    semester = calendar.semester(user.time_zone)
    # Days entered before the semester moved may lie outside it now: they are left out of the check
    # (the resolver ignores them) rather than blocking every new day.
    kept = [r for r in existing if semester.contains(r.first_date) and semester.contains(r.last_date)]
    problems = calendar_problems(semester, [core_calendar_day(r) for r in kept + fresh])
    if problems:
        _raise_problems(problems)
    for row in fresh:  # one by one: MySQL 8 returns no ids from a bulk insert, and these are few
        row.save(force_insert=True)
    _sync(user=user, calendar=calendar)
    return rows


@transaction.atomic
def calendar_day_delete(*, user: User, day_id: int) -> None:
    """Delete one of the student's days (another student's id is not found); the board follows."""
    calendar = _locked_calendar(user)
    deleted, _rows = CalendarDay.objects.filter(user=user, pk=day_id).delete()
    if not deleted:
        raise NotFoundError(_("Not found."), code="calendar_day_not_found")
    _sync(user=user, calendar=calendar)


@transaction.atomic
def school_calendar_switch(*, user: User, follows: bool) -> CalendarSettings:
    """Follow the school calendar (holidays and make-up days applied) or run the timetable as imported."""
    calendar = _locked_calendar(user)
    if calendar.follows_school_calendar != follows:
        calendar.follows_school_calendar = follows
        calendar.save(update_fields=["follows_school_calendar", "updated_at"])
    _sync(user=user, calendar=calendar)
    return calendar


def _locked_calendar(user: User) -> CalendarSettings:
    CalendarSettings.objects.for_user(user)
    return CalendarSettings.objects.select_for_update().get(user=user)


def school_calendar_counts(*, user: User) -> dict[str, int]:
    """How many course meetings the calendar suspends and how many make-up meetings it adds."""
    return {"suspended": SuspendedMeeting.objects.filter(user=user).count(),
            "added": ScheduleEvent.objects.filter(user=user, kind=ScheduleEvent.Kind.COURSE,
                                                  source=ScheduleEvent.Source.CALENDAR).count()}


# --- Keeping the course meetings in step ---------------------------------------------------------

@transaction.atomic
def academic_calendar_sync(*, user: User) -> SyncOutcome:
    """Bring the course meetings in line with the calendar: idempotent, all or nothing.

    Call it after anything that rewrites course meetings or moves the semester.
    """
    return _sync(user=user, calendar=_locked_calendar(user))


def makeup_copies_drop(*, user: User) -> None:
    """Delete every make-up copy (they are derived): before rows are restored or rewritten under them;
    ``academic_calendar_sync`` makes the wanted ones again afterwards."""
    ScheduleEvent.objects.filter(user=user, kind=ScheduleEvent.Kind.COURSE,
                                 source=ScheduleEvent.Source.CALENDAR).delete()


def _sync(*, user: User, calendar: CalendarSettings) -> SyncOutcome:
    semester, template = calendar.semester(user.time_zone), calendar.template()
    resolved = school_calendar_get(user=user, calendar=calendar)
    writer = _Writer(user, semester, template)
    removed = writer.drop_copies(resolved.makeup_positions())
    suspended = writer.suspend(resolved.suspended_positions())
    restored = writer.restore(resolved.suspended_positions())
    added = writer.add_copies(resolved.makeup_positions())
    writer.raise_conflicts()
    return SyncOutcome(suspended=suspended, restored=restored, makeups_added=added, makeups_removed=removed)


Position = tuple[int, int]  # (week, weekday)


def _copy_key(week: int, day: int, meeting: ScheduleEvent) -> tuple:
    """What makes a make-up copy the copy of a meeting: where it runs and what it shows."""
    return (week, day, meeting.course_id, meeting.start_section, meeting.end_section, meeting.title,
            meeting.location)


class _Writer:
    """The row changes of one sync; conflicts are collected and raised at the end (rolling back)."""

    def __init__(self, user: User, semester: Semester, template: SectionTemplate) -> None:
        self.user, self.semester, self.template = user, semester, template
        self.conflicts: list[dict] = []

    # Suspending --------------------------------------------------------------------------------

    def suspend(self, positions: frozenset[Position]) -> int:
        meetings = [e for e in self._own_meetings(positions) if (e.week, e.day) in positions]
        for meeting in meetings:
            embedded = self._free_embedded(meeting)
            SuspendedMeeting.objects.create(
                user=self.user, course_id=meeting.course_id or 0, title=meeting.title, location=meeting.location,
                note=meeting.note, source=meeting.source, week=meeting.week, day=meeting.day,
                start_section=meeting.start_section, end_section=meeting.end_section, embedded=embedded,
                event_pk=meeting.pk, clock_start=meeting.clock_start, clock_end=meeting.clock_end,
                beside=meeting.beside)
            meeting.delete()
        return len(meetings)

    def _own_meetings(self, positions: frozenset[Position] | set[Position]) -> list[ScheduleEvent]:
        weeks = {week for week, _day in positions}
        return list(ScheduleEvent.objects.filter(user=self.user, kind=ScheduleEvent.Kind.COURSE, week__in=weeks)
                    .exclude(source=ScheduleEvent.Source.CALENDAR).order_by("week", "day", "start_section", "pk"))

    def _set_aside(self, positions: set[Position]) -> list[ScheduleEvent]:
        """The timetable's meetings a holiday keeps aside at these days, as (unsaved) meetings to copy: the
        usual 调休 makes up a holiday's own classes."""
        rows = SuspendedMeeting.objects.filter(user=self.user, week__in={week for week, _day in positions}) \
            .exclude(source=ScheduleEvent.Source.CALENDAR).order_by("week", "day", "start_section", "pk")
        return [ScheduleEvent(user=self.user, kind=ScheduleEvent.Kind.COURSE, course_id=row.course_id or None,
                              title=row.title, location=row.location, note=row.note, week=row.week, day=row.day,
                              start_section=row.start_section, end_section=row.end_section,
                              clock_start=row.clock_start, clock_end=row.clock_end, beside=row.beside)
                for row in rows]

    def _free_embedded(self, meeting: ScheduleEvent) -> list[dict]:
        """Give each study block embedded in ``meeting`` a block of its own at the same sections."""
        held: dict[int, list[int]] = defaultdict(list)
        titles: dict[int, str] = {}
        for item_id, section, content in (ScheduleSlot.objects.filter(event=meeting, embedded_item__isnull=False)
                                          .values_list("embedded_item_id", "section", "embedded_item__content")):
            held[item_id].append(section)
            titles[item_id] = content
        records = []
        for item_id, sections in held.items():
            first, last = min(sections), max(sections)
            ScheduleSlot.objects.filter(event=meeting, section__in=sections).delete()
            self._create_event(kind=ScheduleEvent.Kind.TASK_ITEM, week=meeting.week, day=meeting.day, first=first,
                               last=last, title=titles[item_id][:100], task_item_id=item_id)
            records.append({"item_id": item_id, "first": first, "last": last})
        return records

    # Restoring ---------------------------------------------------------------------------------

    def restore(self, still_suspended: frozenset[Position]) -> int:
        # A meeting in a week the semester no longer has waits until the semester grows back.
        returning = [m for m in SuspendedMeeting.objects.filter(user=self.user, week__lte=self.semester.weeks)
                     .order_by("pk") if (m.week, m.day) not in still_suspended]
        for meeting in returning:
            self._restore_one(meeting)
        return len(returning)

    def _restore_one(self, record: SuspendedMeeting) -> None:
        sections = range(record.start_section, record.end_section + 1)
        blocks = self._own_blocks_back(record)
        # A meeting beside another holds no sections: whatever holds them, it comes back beside it.
        holders = [] if record.beside else self._holders(record.week, record.day, sections,
                                                         ignore={e.pk for e in blocks})
        record_key = (record.course_id, record.start_section, record.end_section)
        if holders and {(h.course_id, h.start_section, h.end_section) for h in holders} == {record_key}:
            record.delete()  # the meeting is back already (a timetable import created it again)
            return
        if holders:
            self._conflict(record.title, record.week, record.day, sections, holders)
            return
        for block in blocks:
            block.delete()
        same_id = record.event_pk if record.event_pk and not ScheduleEvent.objects.filter(
            pk=record.event_pk).exists() else None
        self._create_event(kind=ScheduleEvent.Kind.COURSE, week=record.week, day=record.day,
                           first=record.start_section, last=record.end_section, title=record.title,
                           course_id=record.course_id, location=record.location, note=record.note,
                           source=record.source, pk=same_id, clock=_clock_of(record), beside=record.beside,
                           embedded={b.task_item_id: range(b.start_section, b.end_section + 1)
                                     for b in blocks})
        record.delete()

    def _own_blocks_back(self, record: SuspendedMeeting) -> list[ScheduleEvent]:
        """The blocks this meeting's embedded study blocks became, where they still are."""
        found = []
        for held in record.embedded:
            block = ScheduleEvent.objects.filter(
                user=self.user, kind=ScheduleEvent.Kind.TASK_ITEM, task_item_id=held["item_id"], week=record.week,
                day=record.day, start_section=held["first"], end_section=held["last"]).first()
            if block is not None:
                found.append(block)
        return found

    # Make-up days ------------------------------------------------------------------------------

    def drop_copies(self, makeups: dict[Position, Position]) -> int:
        """Delete the make-up copies no longer wanted (first, so returning meetings find their sections free)."""
        wanted = self._wanted_copies(makeups)
        kept: set[tuple] = set()
        removed = 0
        for copy in ScheduleEvent.objects.filter(user=self.user, kind=ScheduleEvent.Kind.COURSE,
                                                 source=ScheduleEvent.Source.CALENDAR).order_by("pk"):
            key = _copy_key(copy.week, copy.day, copy)
            if key in wanted and key not in kept:
                kept.add(key)
            else:
                copy.delete()
                removed += 1
        return removed

    def add_copies(self, makeups: dict[Position, Position]) -> int:
        """Copy the meetings of each make-up date's target day onto it, where a copy is missing."""
        have = {_copy_key(c.week, c.day, c) for c in ScheduleEvent.objects.filter(
            user=self.user, kind=ScheduleEvent.Kind.COURSE, source=ScheduleEvent.Source.CALENDAR)}
        added = 0
        for key, meeting in self._wanted_copies(makeups).items():
            if key in have:
                continue
            week, day, first, last = key[0], key[1], key[3], key[4]
            holders = [] if meeting.beside else self._holders(week, day, range(first, last + 1))
            if holders:
                self._conflict(meeting.title, week, day, range(first, last + 1), holders)
                continue
            self._create_event(kind=ScheduleEvent.Kind.COURSE, week=week, day=day, first=first, last=last,
                               title=meeting.title, course_id=meeting.course_id, location=meeting.location,
                               note=meeting.note, source=ScheduleEvent.Source.CALENDAR, clock=meeting.clock,
                               beside=meeting.beside)
            added += 1
        return added

    def _wanted_copies(self, makeups: dict[Position, Position]) -> dict[tuple, ScheduleEvent]:
        sources: dict[Position, list[ScheduleEvent]] = defaultdict(list)
        targets = set(makeups.values())
        for meeting in [*self._own_meetings(targets), *self._set_aside(targets)]:
            if (meeting.week, meeting.day) in targets:
                sources[(meeting.week, meeting.day)].append(meeting)
        wanted: dict[tuple, ScheduleEvent] = {}
        for (week, day), target in sorted(makeups.items()):
            for meeting in sources.get(target, []):
                wanted.setdefault(_copy_key(week, day, meeting), meeting)
        return wanted

    # Rows --------------------------------------------------------------------------------------

    def _holders(self, week: int, day: int, sections: range, ignore: set[int] | None = None) -> list[ScheduleEvent]:
        slots = ScheduleSlot.objects.filter(user=self.user, week=week, day=day, section__in=list(sections))
        if ignore:
            slots = slots.exclude(event_id__in=ignore)
        event_ids = set(slots.values_list("event_id", flat=True))
        return list(ScheduleEvent.objects.filter(pk__in=event_ids).order_by("start_section"))

    def _create_event(self, *, kind: str, week: int, day: int, first: int, last: int, title: str,
                      source: str = ScheduleEvent.Source.CALENDAR, embedded: dict[int | None, range] | None = None,
                      clock: tuple[time, time] | None = None, beside: bool = False,
                      **links: object) -> ScheduleEvent:
        # A course meeting at its own times keeps them when it is set aside, restored or copied.
        starts_at, ends_at = meeting_bounds(self.semester, self.template, week, day, first, last, clock)
        clock_start, clock_end = clock or (None, None)
        event = ScheduleEvent.objects.create(user=self.user, kind=kind, source=source, title=title, week=week,
                                             day=day, start_section=first, end_section=last, starts_at=starts_at,
                                             ends_at=ends_at, clock_start=clock_start, clock_end=clock_end,
                                             beside=beside, **links)
        guests = {section: item for item, span in (embedded or {}).items() for section in span}
        ScheduleSlot.objects.bulk_create(
            ScheduleSlot(user=self.user, event=event, week=week, day=day, section=section,
                         embedded_item_id=guests.get(section))
            for section in event.held_sections)
        return event

    def _conflict(self, title: str, week: int, day: int, sections: range, holders: list[ScheduleEvent]) -> None:
        self.conflicts.append({
            "course": title, "week": week, "day": day, "date": self.semester.date_of(week, day).isoformat(),
            "sections": f"{sections.start}-{sections.stop - 1}", "taken_by": [h.title for h in holders]})

    def raise_conflicts(self) -> None:
        if not self.conflicts:
            return
        first = self.conflicts[0]
        raise CalendarConflictError(
            _("%(course)s would run on %(date)s, sections %(sections)s, but %(taken)s is there; move it first.")
            % {"course": first["course"], "date": first["date"], "sections": first["sections"],
               "taken": "、".join(first["taken_by"])},
            detail={"conflicts": self.conflicts[:MAX_LISTED_CONFLICTS], "conflict_count": len(self.conflicts)})


# --- Importing days --------------------------------------------------------------------------------

@dataclass(frozen=True)
class DaysImported:
    """What an import or a national load added (``days``: new and already there) and what it left out."""

    days: list[CalendarDay]
    workdays: list[str]  # make-up working days the file or data names but cannot map to a weekday
    outside_semester: int = 0


ICS_PROBLEMS = {
    "file_too_large": lambda: _("The file is too large for a holiday calendar."),
    "invalid_ics": lambda: _("The file is not a valid iCalendar file."),
    "no_events": lambda: _("The calendar contains no events."),
    "too_many_events": lambda: _("The calendar has too many events for a holiday calendar."),
    "not_all_day": lambda: _("%(name)s is not an all-day event; holidays are whole days."),
}


def calendar_ics_import(*, user: User, data: bytes) -> DaysImported:
    """Add every all-day event of an .ics file as a holiday: all or nothing, problems by code."""
    parsed = holidays_from_ics(data)
    if parsed.problems:
        messages = [ICS_PROBLEMS[p.code]() % {"name": p.name} for p in parsed.problems]
        listed = [{"code": p.code, "name": p.name, "message": message, **p.detail}
                  for p, message in zip(parsed.problems, messages)]
        raise CalendarDayError(messages[0], code=parsed.problems[0].code, detail={"problems": listed})
    if not parsed.holidays:
        raise CalendarDayError(_("The calendar has no holidays, only working days."), code="no_holidays",
                               detail={"workdays": list(parsed.workdays_skipped)})
    inputs = [DayInput(CalendarDay.Kind.HOLIDAY, h.name, h.first, h.last) for h in parsed.holidays]
    rows = calendar_days_add(user=user, days=inputs, origin=CalendarDay.Origin.ICS)
    return DaysImported(days=rows, workdays=list(parsed.workdays_skipped))


NATIONAL_DATA = Path(__file__).resolve().parents[1] / "calendar_data" / "cn_holidays.json"


class UnknownYearError(NotFoundError):
    code = "holiday_year_unknown"


def national_years() -> list[int]:
    """The years whose official arrangement ships with SmartMate."""
    return sorted(int(year) for year in _national_data()["years"])


def _national_data() -> dict:
    return json.loads(NATIONAL_DATA.read_text(encoding="utf-8"))


def national_holidays_load(*, user: User, year: int) -> DaysImported:
    """Add the national holidays of ``year`` that fall in the student's semester (idempotent).

    Only shipped years (``national_years``); the make-up working days are listed, not added: the
    notice says which date is worked, not which weekday's classes a school runs on it.
    """
    entry = _national_data()["years"].get(str(year))
    if entry is None:
        raise UnknownYearError(_("No official holiday arrangement for %(year)s ships with SmartMate; "
                                 "enter the days by hand.") % {"year": year},
                               detail={"year": year, "known_years": national_years()})
    semester = CalendarSettings.objects.for_user(user).semester(user.time_zone)
    inputs, outside = [], 0
    for holiday in entry["holidays"]:
        first, last = date.fromisoformat(holiday["first"]), date.fromisoformat(holiday["last"])
        if semester.contains(first) and semester.contains(last):
            inputs.append(DayInput(CalendarDay.Kind.HOLIDAY, holiday["name"], first, last))
        else:
            outside += 1
    workdays = [f"{w['name']} {w['date']}" for w in entry["workdays"] if semester.contains(date.fromisoformat(w["date"]))]
    rows = calendar_days_add(user=user, days=inputs, origin=CalendarDay.Origin.NATIONAL) if inputs else []
    return DaysImported(days=rows, workdays=workdays, outside_semester=outside)


def _clock_of(record: SuspendedMeeting) -> tuple[time, time] | None:
    if record.clock_start is None or record.clock_end is None:
        return None
    return record.clock_start, record.clock_end
