"""Filler marks that follow the next timetable by course name, as the student chose when starting the semester."""

from __future__ import annotations

from accounts.models import User
from schedule.models import Course
from schedule.semesters.selectors import semester_previous_get


def semester_filler_names_for(*, user: User) -> set[str]:
    """Names whose courses the student asked to keep as filler when they started the current semester."""
    latest = semester_previous_get(user=user)
    return set(latest.carried.get("filler_names", [])) if latest else set()


def semester_filler_marks_apply(*, course: Course) -> None:
    """Mark a newly imported course as filler when its name was a filler course last semester."""
    if not course.is_filler and course.name in semester_filler_names_for(user=course.user):
        Course.objects.filter(pk=course.pk).update(is_filler=True)
        course.is_filler = True
