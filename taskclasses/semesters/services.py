"""Start the next semester (freeze the current one, carry over what the student chose) and undo that start.

The live tables always hold the current semester. Starting the next one writes the current one into
a past ``Semester`` (its readable document and its rows exactly), removes what belonged to it from the
live tables, keeps what the student brings along, and moves week 1. All or nothing, in one
transaction. Undo puts every row back under its own id while nothing new was written on top.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.semester_archive import next_semester_start, season_of
from schedule.exams.models import Exam
from schedule.models import (
    MAX_SEMESTER_WEEKS,
    CalendarDay,
    CalendarSettings,
    ChangeSet,
    Course,
    PlanPreview,
    ScheduleEvent,
    SuspendedMeeting,
)
from schedule.semesters.exceptions import SemesterInputError, SemesterUndoRefusedError
from schedule.semesters.models import Semester
from schedule.student_rules.models import StudyRules
from smartmate.platform.dates import EARLIEST_YEAR, LATEST_YEAR
from smartmate.platform.exceptions import NotFoundError
from taskclasses.models import Task, TaskClass, TaskItem
from taskclasses.notes.services import tasks_promote
from taskclasses.semesters.freeze import semester_archive_build
from taskclasses.semesters.rows import semester_rows_digest, semester_rows_dump, semester_rows_restore


@dataclass(frozen=True)
class Carry:
    """What comes along into the next semester.

    ``note_ids``: unfinished quick notes to keep (the rest are archived); ``rules``: the daily cap,
    buffer and latest section; ``protected``: names of the protected times to keep; ``plans``: plans
    with blocks still to do; ``filler``: mark the next timetable's courses of the same name as filler.
    """

    note_ids: tuple[int, ...] = ()
    rules: bool = True
    protected: tuple[str, ...] = ()
    plans: bool = True
    filler: bool = True


@dataclass(frozen=True)
class NextSemesterGuess:
    first_monday: date
    weeks: int
    from_school_calendar: bool


def semester_next_guess(*, user: User) -> NextSemesterGuess:
    """Guess the next semester's week 1 (after a vacation on the school calendar, else the usual start)."""
    calendar = CalendarSettings.objects.for_user(user)
    ranges = list(CalendarDay.objects.filter(user=user, last_date__gt=calendar.semester_end)
                  .values_list("first_date", "last_date"))
    first_monday = next_semester_start(calendar.semester_end, ranges)
    usual = next_semester_start(calendar.semester_end)
    return NextSemesterGuess(first_monday=first_monday, weeks=calendar.semester_weeks,
                             from_school_calendar=first_monday != usual)


@transaction.atomic
def semester_next_start(*, user: User, first_monday: date, weeks: int, carry: Carry) -> Semester:
    """Freeze the current semester into a past one and set up the next from ``first_monday`` for ``weeks`` weeks.

    Raises SemesterInputError (bad dates, an unknown protected time) and NotFoundError (a note that is
    not the student's unfinished note); nothing is written then.
    """
    calendar = CalendarSettings.objects.select_for_update().get(pk=CalendarSettings.objects.for_user(user).pk)
    _check_dates(calendar, first_monday, weeks)
    kept_notes = _kept_notes(user, carry.note_ids)
    rules = StudyRules.objects.filter(user=user).first()
    _check_protected(rules, carry.protected)
    notes_left = list(Task.objects.filter(user=user, completed=False).exclude(pk__in=kept_notes))
    archive = semester_archive_build(user=user, calendar=calendar, leaving_before=first_monday,
                                     notes_left=notes_left, restore=semester_rows_dump(user))
    plans_kept = _plans_carry(user, carry.plans, first_monday, weeks)
    carried = {"note_ids": sorted(kept_notes), "rules": carry.rules, "protected": list(carry.protected),
               "plans": plans_kept, "filler_names": _filler_names(user) if carry.filler else []}
    _live_rows_clear(user, first_monday, notes_left, plans_kept)
    if rules is not None:
        _rules_carry(rules, carry)
    season_year, season = season_of(calendar.semester_start)
    past = Semester(user=user, year=season_year, season=season, first_monday=calendar.semester_start,
                    weeks=calendar.semester_weeks, section_times=calendar.section_times, document=archive.to_json(),
                    carried=carried, next_first_monday=first_monday, next_weeks=weeks)
    calendar.semester_start, calendar.semester_weeks = first_monday, weeks
    _grid_in_force_on(calendar, first_monday)
    calendar.semester_confirmed_at = timezone.now()
    calendar.save()
    past.after_digest = semester_rows_digest(user)
    past.save()
    return past


def _grid_in_force_on(calendar: CalendarSettings, first_monday: date) -> None:
    """The new semester starts on the section times in force on its first day: a second grid (winter hours
    from October) that began before it becomes the grid, so it is not applied again from a past date."""
    if calendar.later_sections_from is not None and calendar.later_sections_from <= first_monday:
        calendar.section_times = calendar.later_section_times
        calendar.later_section_times, calendar.later_sections_from = [], None


def _check_dates(calendar: CalendarSettings, first_monday: date, weeks: int) -> None:
    if not EARLIEST_YEAR <= first_monday.year <= LATEST_YEAR:
        raise SemesterInputError(_("Use a date from {earliest} to {latest}.").format(
            earliest=EARLIEST_YEAR, latest=LATEST_YEAR), detail={"field": "first_monday"})
    if first_monday.weekday() != 0:
        raise SemesterInputError(_("Week 1 must start on a Monday."), detail={"field": "first_monday"})
    if first_monday <= calendar.semester_start:
        raise SemesterInputError(
            _("The new semester must start after the current one began (%(date)s).") % {
                "date": calendar.semester_start.isoformat()}, detail={"field": "first_monday"})
    if not 1 <= weeks <= MAX_SEMESTER_WEEKS:
        raise SemesterInputError(_("A semester has 1 to %(max)s weeks.") % {"max": MAX_SEMESTER_WEEKS},
                                 detail={"field": "weeks"})


def _kept_notes(user: User, note_ids: Sequence[int]) -> set[int]:
    wanted = set(note_ids)
    found = set(Task.objects.filter(user=user, completed=False, pk__in=wanted).values_list("pk", flat=True))
    if found != wanted:
        raise NotFoundError(_("Some of these quick notes are not yours or are already done."),
                            detail={"note_ids": sorted(wanted - found)})
    return found


def _check_protected(rules: StudyRules | None, names: Sequence[str]) -> None:
    known = {str(p["name"]) for p in rules.protected_times} if rules else set()
    unknown = [name for name in names if name not in known]
    if unknown:
        raise SemesterInputError(_("You have no protected time called %(name)s.") % {"name": unknown[0]},
                                 detail={"protected": unknown})


def _filler_names(user: User) -> list[str]:
    return sorted(set(Course.objects.filter(user=user, is_filler=True).values_list("name", flat=True)))


def _plans_carry(user: User, wanted: bool, first_monday: date, weeks: int) -> list[int]:
    """Keep the plans with blocks still to do, their window moved into the new semester; return their ids."""
    if not wanted:
        return []
    unfinished = TaskClass.objects.filter(
        user=user, items__status__in=[TaskItem.Status.PENDING, TaskItem.Status.PLACED]).distinct()
    last_day = first_monday + timedelta(weeks=weeks, days=-1)
    kept = []
    for plan in unfinished:
        plan.end_date = plan.end_date if plan.end_date >= first_monday else last_day
        plan.start_date = max(plan.start_date, first_monday)
        plan.save(update_fields=["start_date", "end_date", "updated_at"])
        kept.append(plan.pk)
    # Their placed blocks were on last semester's board, which goes: they wait to be planned again.
    TaskItem.objects.filter(task_class_id__in=kept, status=TaskItem.Status.PLACED).update(
        status=TaskItem.Status.PENDING, placement_reason={})
    return kept


def _live_rows_clear(user: User, first_monday: date, notes_left: Sequence[Task], plans_kept: Sequence[int]) -> None:
    """Take the old semester out of the live tables (its document keeps it)."""
    ChangeSet.objects.filter(user=user).delete()
    PlanPreview.objects.filter(user=user).delete()
    ScheduleEvent.objects.filter(user=user).delete()
    SuspendedMeeting.objects.filter(user=user).delete()
    Course.objects.filter(user=user).delete()
    Exam.objects.filter(user=user, date__lt=first_monday).delete()
    CalendarDay.objects.filter(user=user, first_date__lt=first_monday).delete()
    TaskClass.objects.filter(user=user).exclude(pk__in=plans_kept).delete()
    Task.objects.filter(pk__in=[note.pk for note in notes_left]).delete()


def _rules_carry(rules: StudyRules, carry: Carry) -> None:
    if not carry.rules:
        rules.daily_cap, rules.buffer_sections, rules.latest_section = None, 0, None
    rules.protected_times = [p for p in rules.protected_times if str(p["name"]) in carry.protected]
    rules.save()


@transaction.atomic
def semester_next_start_undo(*, user: User) -> CalendarSettings:
    """Undo the last start of a semester: every row back as it was, the past record gone.

    Raises NotFoundError when there is no start to undo, SemesterUndoRefusedError once something
    was written in the new semester (undo would lose it).
    """
    CalendarSettings.objects.select_for_update().filter(user=user).first()
    past = Semester.objects.select_for_update().filter(user=user).order_by("-first_monday").first()
    # A past semester written another way (the demo's) has no start behind it and no rows to put back.
    if past is None or not past.after_digest:
        raise NotFoundError(_("There is no semester start to undo."))
    if semester_rows_digest(user, promoted_after=past.frozen_at) != past.after_digest:
        raise SemesterUndoRefusedError(_(
            "You have already added or changed things in the new semester (courses, blocks, plans, notes or "
            "settings), so starting it can no longer be undone."), detail={"semester": past.pk})
    semester_rows_restore(user, list(past.document["restore"]))
    past.delete()
    tasks_promote(user=user)  # the notes the job moved meanwhile came back as they were: move them again
    return CalendarSettings.objects.get(user=user)
