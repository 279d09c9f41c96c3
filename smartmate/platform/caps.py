"""Per-student caps on the rows a student can create without other bound.

Rate limits slow a burst down; they do not stop a patient script (81,500 task classes in 45 s,
then as many more the next minute). Each kind of row a student creates at will has a ceiling in
``settings.STUDENT_CAPS`` (env ``CAP_<KIND>``); past it the write is a 429 ``limit_reached`` with
a message in the student's language saying what to delete. The count is taken inside the writing
transaction, so a refusal leaves nothing half-written; two concurrent writes at the very edge may
both pass (a cap is an abuse ceiling, not an accounting rule).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from smartmate.platform.exceptions import AppError

# What each cap counts, as the student reads it ("你最多可以有 200 个任务类").
CAP_NAMES: dict[str, Any] = {
    "task_classes": gettext_lazy("study plans"),
    "conversations": gettext_lazy("conversations"),
    "exams": gettext_lazy("exams"),
    "memories": gettext_lazy("memories"),
    "quick_notes": gettext_lazy("quick notes"),
    "custom_events": gettext_lazy("events of your own"),
    "ws_tickets": gettext_lazy("unused chat connection tickets"),
    "idempotency_keys": gettext_lazy("idempotency keys in the last 24 hours"),
}


class CapReached(AppError):
    """The student already has as many rows of a kind as the cap allows."""

    code = "limit_reached"
    status = 429


def cap_limit(kind: str) -> int | None:
    """The configured cap of ``kind``; None when it has none."""
    return settings.STUDENT_CAPS.get(kind)


def cap_check(kind: str, rows: QuerySet[Any], *, adding: int = 1) -> None:
    """Raise CapReached when ``rows`` (the student's rows of ``kind``) plus ``adding`` would pass the cap."""
    limit = cap_limit(kind)
    if limit is None:
        return
    count = rows.count()
    if count + adding > limit:
        raise cap_reached(kind, limit=limit, count=count)


def cap_reached(kind: str, *, limit: int, count: int) -> CapReached:
    """The 429 of a full cap, naming what and how many."""
    message = _("You have reached the limit of %(limit)s %(what)s. Delete some you no longer need first.") % {
        "limit": limit, "what": CAP_NAMES.get(kind, kind)}
    return CapReached(message, detail={"kind": kind, "limit": limit, "count": count})
