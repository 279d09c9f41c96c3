"""Reads of the student's exams: the list, one exam, the countdowns and the exams of a week."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.exams.models import Exam
from smartmate.platform.exceptions import NotFoundError

COUNTDOWN_LIMIT = 5


class ExamNotFoundError(NotFoundError):
    code = "exam_not_found"


@dataclass(frozen=True)
class Countdown:
    """An upcoming exam and the whole days left until it (0 = today)."""

    exam: Exam
    days_left: int


def exam_list(*, user: User) -> QuerySet[Exam]:
    """The student's exams in date order, with their courses."""
    return Exam.objects.filter(user=user).select_related("course").order_by("date", "start_time", "pk")


def exam_get(*, user: User, exam_id: int) -> Exam:
    """One of the student's exams; another student's is not found."""
    exam = exam_list(user=user).filter(pk=exam_id).first()
    if exam is None:
        raise ExamNotFoundError(_("Exam not found."))
    return exam


def exam_countdowns(*, user: User, today: date, limit: int = COUNTDOWN_LIMIT) -> list[Countdown]:
    """The next exams from today on, nearest first, with the days left."""
    upcoming = exam_list(user=user).filter(date__gte=today)[:limit]
    return [Countdown(exam, (exam.date - today).days) for exam in upcoming]


def exams_between(*, user: User, first: date, last: date) -> list[Exam]:
    """The student's exams from ``first`` to ``last`` (inclusive), in order."""
    return list(exam_list(user=user).filter(date__gte=first, date__lte=last))


def week_exams(*, user: User, dates: tuple[date, ...]) -> dict[int, list[Exam]]:
    """The exams of a board's week by weekday (1 = Monday), for the day headers and the agenda."""
    by_day: dict[int, list[Exam]] = {}
    if not dates:
        return by_day
    for exam in exams_between(user=user, first=dates[0], last=dates[-1]):
        by_day.setdefault(dates.index(exam.date) + 1, []).append(exam)
    return by_day
