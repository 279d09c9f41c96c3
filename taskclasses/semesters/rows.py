"""The live rows a semester is made of: written out exactly, put back exactly, and summed up in a digest.

Django's own serializer writes each row with its primary key and every field, and saving it back
"raw" writes those values untouched (no ``auto_now``): undoing the start of a semester puts every row
back under its own id, so what conversations, memory and change sets point at still holds.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import QuerySet

from accounts.models import User
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
from taskclasses.notes.core.promotion import PROMOTIONS


def semester_querysets(user: User) -> list[QuerySet]:
    """The student's rows a semester start rewrites, in an order that inserts each row after what it points at."""

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
        rows += _json_rows(queryset)
    return rows


class _ExactEncoder(DjangoJSONEncoder):
    """Django's encoder, but a time keeps its microseconds (Django's JSON cuts them to milliseconds,
    and a row put back would then differ from the row taken out)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime):
            return o.isoformat().replace("+00:00", "Z")
        return super().default(o)


def _json_rows(queryset: QuerySet) -> list[dict[str, Any]]:
    return json.loads(json.dumps(serializers.serialize("python", queryset), cls=_ExactEncoder))


def semester_rows_digest(user: User, *, promoted_after: datetime | None = None) -> str:
    """A digest of the student's semester rows: it changes when any of them is written.

    Not by the promotion job: a quick note it moved after ``promoted_after`` (2 -> 1 as the deadline
    nears) counts as it was before, so the clock alone never refuses undo (undo puts the note back and
    the job moves it again). A quadrant the student chose clears the job's mark, and counts.
    """
    digest = hashlib.sha256()
    for queryset in semester_querysets(user):
        rows = _json_rows(queryset)
        if queryset.model._meta.label_lower == "taskclasses.task":
            rows = [_as_before_promotion(row, promoted_after) for row in rows]
        digest.update(json.dumps(rows, sort_keys=True).encode())
    return digest.hexdigest()


def _as_before_promotion(row: dict[str, Any], promoted_after: datetime | None) -> dict[str, Any]:
    fields = {**row["fields"], "updated_at": None}
    changed = fields.get("auto_changed_at")
    if (promoted_after is not None and fields.get("auto_reason") == Task.AutoReason.THRESHOLD_REACHED and changed
            and datetime.fromisoformat(changed.replace("Z", "+00:00")) > promoted_after):
        demoted = {new: old for old, new in PROMOTIONS.items()}
        fields.update(quadrant=demoted.get(fields["quadrant"], fields["quadrant"]), auto_reason="",
                      auto_changed_at=None)
    return {**row, "fields": fields}


def semester_rows_restore(user: User, rows: list[dict[str, Any]]) -> None:
    """Replace the student's semester rows by ``rows`` (from ``semester_rows_dump``), ids and all.

    Run inside the caller's transaction; the live rows go first, dependents before what they point at.
    """
    for queryset in reversed(semester_querysets(user)):
        queryset.delete()
    for row in serializers.deserialize("python", rows):
        row.save()
