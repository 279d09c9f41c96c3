"""Course changes: the filler mark and the course's own fields."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from schedule.models import Course, ScheduleEvent
from schedule.selectors import course_get
from smartmate.platform.exceptions import ConflictError


@transaction.atomic
def course_update(
    *, user: User, course_id: int, is_filler: bool | None = None, name: str | None = None,
    teacher: str | None = None, location: str | None = None,
) -> Course:
    """Change a course; renaming it renames its meetings on the board too."""
    course = Course.objects.select_for_update().get(pk=course_get(user=user, course_id=course_id).pk)
    for field, value in (("is_filler", is_filler), ("name", name), ("teacher", teacher), ("location", location)):
        if value is not None:
            setattr(course, field, value)
    try:
        with transaction.atomic():
            course.save()
    except IntegrityError as exc:
        raise ConflictError(_("You already have a course with this name and teacher."), code="course_exists") from exc
    if name is not None:
        ScheduleEvent.objects.filter(course=course).update(title=name)
    return course


@transaction.atomic
def course_delete(*, user: User, course_id: int) -> int:
    """Delete a course and all its meetings; returns how many meetings were removed."""
    course = course_get(user=user, course_id=course_id)
    meetings = course.events.count()
    course.delete()
    return meetings
