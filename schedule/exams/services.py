"""Exams: create, change, delete. Each write is all or nothing and answers bad input with a clear error.

An exam may be given a time of day as clock times or as sections of the student's template
(``start_section``..``end_section``, turned into the sections' clock times).  A spaced task class
revising for an exam keeps it: its date must stay inside the class's window, and it cannot be
deleted while a class revises for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.time_model import parse_hhmm
from schedule.exams.models import MAX_EXAM_PLACE, MAX_EXAM_TITLE, Exam
from schedule.exams.selectors import exam_get
from schedule.selectors import calendar_settings_get, course_get, time_frame_get
from smartmate.platform.caps import cap_check
from smartmate.platform.dates import EARLIEST_YEAR, LATEST_YEAR
from smartmate.platform.exceptions import AppError, ConflictError

SPACED = "spaced"   # the task class strategy that revises for an exam (taskclasses sits above this layer)


class ExamInputError(AppError):
    code = "invalid_exam"


@dataclass(frozen=True)
class ExamInput:
    """What the student gives: the time either as clock times or as template sections (or neither)."""

    title: str
    date: date
    start_time: time | None = None
    end_time: time | None = None
    start_section: int | None = None
    end_section: int | None = None
    place: str = ""
    course_id: int | None = None


@transaction.atomic
def exam_create(*, user: User, given: ExamInput) -> Exam:
    """Add an exam; past the student's cap a 429 ``limit_reached``."""
    cap_check("exams", Exam.objects.filter(user=user))
    exam = Exam(user=user)
    _fill(user, exam, given)
    exam.save()
    return exam


@transaction.atomic
def exam_update(*, user: User, exam_id: int, given: ExamInput) -> Exam:
    """Replace an exam's fields; a spaced class revising for it must still contain its date."""
    exam = exam_get(user=user, exam_id=exam_id)
    exam = Exam.objects.select_for_update().get(pk=exam.pk)
    _fill(user, exam, given)
    _check_classes_window(exam)
    exam.save()
    return exam


@transaction.atomic
def exam_delete(*, user: User, exam_id: int) -> None:
    """Delete an exam no spaced class revises for."""
    exam = exam_get(user=user, exam_id=exam_id)
    names = list(exam.task_classes.filter(strategy=SPACED).values_list("name", flat=True))
    if names:
        raise ConflictError(
            _("%(classes)s revise for this exam; change their strategy or exam first.")
            % {"classes": "、".join(f"「{name}」" for name in names)}, code="exam_in_use", detail={"classes": names})
    exam.delete()


def _fill(user: User, exam: Exam, given: ExamInput) -> None:
    exam.title = _clean(given.title, MAX_EXAM_TITLE, required=True, code="empty_title",
                        message=_("Give the exam a name."))
    exam.place = _clean(given.place, MAX_EXAM_PLACE, required=False, code="place_too_long", message="")
    exam.date = _checked_date(given.date)
    exam.start_time, exam.end_time = _times(user, given)
    exam.course = course_get(user=user, course_id=given.course_id) if given.course_id is not None else None


def _clean(text: str, limit: int, *, required: bool, code: str, message: str) -> str:
    cleaned = " ".join(str(text or "").split())
    if required and not cleaned:
        raise ExamInputError(message, code=code)
    if len(cleaned) > limit:
        raise ExamInputError(_("At most %(limit)s characters.") % {"limit": limit}, code="text_too_long",
                             detail={"limit": limit, "length": len(cleaned)})
    return cleaned


def _checked_date(day: Any) -> date:
    if not isinstance(day, date) or not EARLIEST_YEAR <= day.year <= LATEST_YEAR:
        raise ExamInputError(_("Give the exam's date (from %(first)s to %(last)s).")
                             % {"first": EARLIEST_YEAR, "last": LATEST_YEAR}, code="invalid_date")
    return day


def _times(user: User, given: ExamInput) -> tuple[time | None, time | None]:
    if given.start_section is not None or given.end_section is not None:
        if given.start_time is not None or given.end_time is not None:
            raise ExamInputError(_("Give the time either as clock times or as sections, not both."),
                                 code="times_and_sections")
        return _section_times(user, given.date, given.start_section, given.end_section)
    start, end = given.start_time, given.end_time
    if (start is None) != (end is None):
        raise ExamInputError(_("Give both the start and the end time, or neither."), code="half_a_time")
    if start is not None and end is not None and end <= start:
        raise ExamInputError(_("The exam ends before it starts."), code="times_reversed",
                             detail={"start_time": start.isoformat("minutes"), "end_time": end.isoformat("minutes")})
    return start, end


def _section_times(user: User, on: date, first: int | None, last: int | None) -> tuple[time, time]:
    _semester, frame = time_frame_get(user=user)
    template = frame.in_force(on)  # an exam after the switch to winter hours is on the winter grid
    first = first if first is not None else last
    last = last if last is not None else first
    assert first is not None and last is not None  # one of them was given
    if not 1 <= first <= last <= template.count:
        raise ExamInputError(_("Sections are numbers from 1 to %(count)s, the first not after the last.")
                             % {"count": template.count}, code="invalid_sections",
                             detail={"start_section": first, "end_section": last, "count": template.count})
    times = template.to_hhmm()
    return parse_hhmm(times[first - 1][0]), parse_hhmm(times[last - 1][1])


def _check_classes_window(exam: Exam) -> None:
    for name, start, end in exam.task_classes.filter(strategy=SPACED).values_list("name", "start_date", "end_date"):
        if not start <= exam.date <= end:
            raise ExamInputError(
                _("「%(name)s」 revises for this exam from %(start)s to %(end)s; the exam must stay in that window.")
                % {"name": name, "start": start.isoformat(), "end": end.isoformat()}, code="exam_outside_class",
                detail={"class": name, "start_date": start.isoformat(), "end_date": end.isoformat()})


@transaction.atomic
def preview_time_set(*, user: User, preview_after: time) -> None:
    """Choose the time of day from which the dashboard previews tomorrow."""
    if not isinstance(preview_after, time):
        raise ExamInputError(_("Give a time like 20:00."), code="invalid_preview_time")
    calendar = calendar_settings_get(user=user)
    calendar.preview_after = preview_after.replace(second=0, microsecond=0)
    calendar.save(update_fields=["preview_after", "updated_at"])
