"""The live rows a semester is made of: written out exactly, put back exactly, and summed up in a digest.

Django's own serializer writes each row with its primary key and every field, and saving it back
"raw" writes those values untouched (no ``auto_now``): undoing the start of a semester puts every row
back under its own id, so what conversations, memory and change sets point at still holds.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.core import serializers
from django.db.models import QuerySet

from accounts.models import User


def semester_querysets(user: User) -> list[QuerySet]:
    """The student's rows a semester start rewrites, in an order that inserts each row after what it points at."""
    from schedule.exams.models import Exam
    from schedule.models import (
        CalendarDay,
        CalendarSettings,
        ChangeSet,
        Course,
        PlanPreview,
        ScheduleEvent,
        ScheduleSlot,
        SuspendedMeeting,
    )
    from schedule.student_rules.models import StudyRules
    from taskclasses.models import Task, TaskClass, TaskItem

    return [qs.order_by("pk") for qs in (
        CalendarSettings.objects.filter(user=user), StudyRules.objects.filter(user=user),
        Course.objects.filter(user=user), Exam.objects.filter(user=user), TaskClass.objects.filter(user=user),
        TaskItem.objects.filter(task_class__user=user), Task.objects.filter(user=user),
        ScheduleEvent.objects.filter(user=user), ScheduleSlot.objects.filter(user=user),
        SuspendedMeeting.objects.filter(user=user), CalendarDay.objects.filter(user=user),
        PlanPreview.objects.filter(user=user), ChangeSet.objects.filter(user=user))]


def semester_rows_dump(user: User) -> list[dict[str, Any]]:
    """Every row of the student's semester tables as ``{"model", "pk", "fields"}`` in JSON types."""
    rows: list[dict[str, Any]] = []
    for queryset in semester_querysets(user):
        rows += json.loads(serializers.serialize("json", queryset))
    return rows


def semester_rows_digest(user: User) -> str:
    """A digest of the student's semester rows: it changes when any of them is written."""
    digest = hashlib.sha256()
    for queryset in semester_querysets(user):
        digest.update(serializers.serialize("json", queryset).encode())
    return digest.hexdigest()


def semester_rows_restore(user: User, rows: list[dict[str, Any]]) -> None:
    """Replace the student's semester rows by ``rows`` (from ``semester_rows_dump``), ids and all.

    Run inside the caller's transaction; the live rows go first, dependents before what they point at.
    """
    for queryset in reversed(semester_querysets(user)):
        queryset.delete()
    for row in serializers.deserialize("python", rows):
        row.save()
