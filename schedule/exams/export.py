"""Exams in the .ics export and the subscription feed: a timed event, or a whole day when no time is set."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils.translation import gettext as _

from accounts.models import User
from schedule.core.ics_export import ExportEvent, make_uid
from schedule.exams.selectors import exam_list


def exam_export_events(*, user: User) -> list[ExportEvent]:
    """Every exam of the student as an event to export, in the student's zone."""
    zone = user.zone
    events = []
    for exam in exam_list(user=user):
        if exam.start_time is not None and exam.end_time is not None:
            start = datetime.combine(exam.date, exam.start_time, tzinfo=zone)
            end = datetime.combine(exam.date, exam.end_time, tzinfo=zone)
            timed = True
        else:
            start = datetime.combine(exam.date, datetime.min.time(), tzinfo=zone)
            end, timed = start + timedelta(days=1), False
        events.append(ExportEvent(
            uid=make_uid("exam", exam.pk), title=_("Exam: %(title)s") % {"title": exam.title}, start=start, end=end,
            location=exam.place, description=exam.course.name if exam.course else "", all_day=not timed))
    return events
