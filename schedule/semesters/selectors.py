"""Reads of the student's semesters: the past ones, one of them with its frozen document, and the current one."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.semester_archive import SemesterArchive, season_of
from schedule.models import CalendarSettings
from schedule.semesters.models import Semester, semester_label
from smartmate.platform.exceptions import NotFoundError


class SemesterNotFoundError(NotFoundError):
    code = "semester_not_found"


@dataclass(frozen=True)
class CurrentSemester:
    label: str
    first_monday: date
    weeks: int
    last_day: date


def semester_current_get(*, user: User) -> CurrentSemester:
    """The semester the live tables hold, named like the past ones."""
    calendar = CalendarSettings.objects.for_user(user)
    year, season = season_of(calendar.semester_start)
    return CurrentSemester(label=semester_label(year, season), first_monday=calendar.semester_start,
                           weeks=calendar.semester_weeks, last_day=calendar.semester_end)


def semester_list(*, user: User) -> QuerySet[Semester]:
    """The student's past semesters, the latest first (the frozen documents left unread)."""
    return Semester.objects.filter(user=user).defer("document").order_by("-first_monday")


def semester_get(*, user: User, semester_id: int) -> Semester:
    """One of the student's past semesters; another student's is not found."""
    past = Semester.objects.filter(user=user, pk=semester_id).first()
    if past is None:
        raise SemesterNotFoundError(_("Semester not found."))
    return past


def semester_archive_get(*, user: User, semester_id: int) -> tuple[Semester, SemesterArchive]:
    """A past semester and its frozen document, read."""
    past = semester_get(user=user, semester_id=semester_id)
    return past, SemesterArchive.from_json(past.document)


def semester_previous_get(*, user: User) -> Semester | None:
    """The semester before the current one (what "last semester" means), if the student has one."""
    return Semester.objects.filter(user=user).order_by("-first_monday").first()
