"""The data check after the load: every student's rows are exactly what its answers said, nothing lost or doubled.

For each step a student finished, its rows must be there exactly (the apply's blocks once each, one
conversation, one student and one assistant message); for a step it never reached, there must be
none; for the step it failed in, at most one (a write may have landed before the answer was lost,
but never twice). Background work (outbox events, memory jobs) must settle: none dead, none left
unfinished within ``settle`` seconds.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bench.loadcheck.client import StudentResult


@dataclass
class DataCheck:
    """Mismatches (target none) and the totals the report prints."""

    problems: list[str] = field(default_factory=list)
    totals: Counter = field(default_factory=Counter)
    background: dict[str, Counter] = field(default_factory=dict)


def _expected(result: StudentResult, step: str, done: int, *, also_failed_in: tuple[str, ...] = ()) -> tuple[int, int]:
    """Return the (least, most) rows a step leaves: exact when taken, none when not reached, at most ``done``
    (or 1) when the student failed in it, or in one of ``also_failed_in`` (steps after its write was sent)."""
    if step in result.seconds:
        return done, done
    if result.failed_step == step or result.failed_step in also_failed_in:
        return 0, max(done, 1)
    return 0, 0


def _per_user(queryset, user_field: str = "user_id") -> dict[int, int]:
    from django.db.models import Count

    return {row[user_field]: row["n"] for row in queryset.values(user_field).annotate(n=Count("id"))}


def data_check(results: Sequence[StudentResult], *, since: datetime, settle: float = 120.0) -> DataCheck:
    """Compare the database with what the students were told; wait up to ``settle`` s for the background
    work created ``since`` the run began."""
    check = DataCheck()
    check.background = _background_settle(since, settle)
    counts = _counts([result.student.user_id for result in results])
    for result in results:
        for name, (actual, least, most) in _student_rows(result, counts).items():
            check.totals[name] += actual
            if not least <= actual <= most:
                wanted = str(least) if least == most else f"{least}-{most}"
                check.problems.append(f"{result.student.username}: {name} {actual}, expected {wanted}")
    for kind, statuses in check.background.items():
        for status in ("dead", "unfinished"):
            if statuses.get(status):
                check.problems.append(f"{kind}: {statuses[status]} {status}")
    return check


def _student_rows(result: StudentResult, counts: dict[str, dict[int, int]]) -> dict[str, tuple[int, int, int]]:
    """Return, per kind of row, (actual, least expected, most expected) for one student."""
    user = result.student.user_id
    blocks = result.student.blocks
    placed = result.applied_events if result.applied_events is not None else blocks
    rows = {
        "course events": (counts["courses"].get(user, 0), result.student.course_events, result.student.course_events),
        "block events": (counts["blocks"].get(user, 0), *_expected(result, "plan_apply", placed)),
        "blocks placed twice": (counts["doubled"].get(user, 0), 0, 0),
        "applied previews": (counts["applied"].get(user, 0), *_expected(result, "plan_apply", 1)),
        "change sets": (counts["changesets"].get(user, 0), *_expected(result, "plan_apply", 1)),
        "conversations": (counts["conversations"].get(user, 0), *_expected(result, "conversation", 1)),
        # The chat message is sent before its first event comes back: failing while waiting for it, the turn may run.
        "student messages": (counts["user_messages"].get(user, 0),
                             *_expected(result, "chat_turn", 1, also_failed_in=("chat_first_event",))),
        "assistant messages": (counts["assistant_messages"].get(user, 0),
                               *_expected(result, "chat_turn", 1, also_failed_in=("chat_first_event",))),
    }
    if result.placements is not None:
        # The seed leaves room for every block: a preview that places fewer lost some.
        rows["blocks in the preview"] = (result.placements, blocks, blocks)
    if result.applied_events is not None:
        rows["blocks the apply wrote"] = (result.applied_events, result.placements or 0, result.placements or 0)
    return rows


def _counts(user_ids: list[int]) -> dict[str, dict[int, int]]:
    from django.db.models import Count

    from agent.models import Conversation, Message
    from schedule.models import ChangeSet, PlanPreview, ScheduleEvent

    events = ScheduleEvent.objects.filter(user_id__in=user_ids)
    blocks = events.filter(kind=ScheduleEvent.Kind.TASK_ITEM)
    doubled: dict[int, int] = defaultdict(int)
    for row in blocks.values("user_id", "task_item_id").annotate(n=Count("id")).filter(n__gt=1):
        doubled[row["user_id"]] += 1
    messages = Message.objects.filter(conversation__user_id__in=user_ids)
    return {
        "courses": _per_user(events.filter(kind=ScheduleEvent.Kind.COURSE)),
        "blocks": _per_user(blocks),
        "doubled": dict(doubled),
        "applied": _per_user(PlanPreview.objects.filter(user_id__in=user_ids, status=PlanPreview.Status.APPLIED)),
        # The seed's timetable import is a change set of its own (undoable); count the walk's applies.
        "changesets": _per_user(ChangeSet.objects.filter(user_id__in=user_ids).exclude(kind=ChangeSet.Kind.IMPORT)),
        "conversations": _per_user(Conversation.objects.filter(user_id__in=user_ids)),
        "user_messages": _per_user(messages.filter(role=Message.Role.USER), "conversation__user_id"),
        "assistant_messages": _per_user(messages.filter(role=Message.Role.ASSISTANT), "conversation__user_id"),
    }


def _background_settle(since: datetime, settle: float) -> dict[str, Counter]:
    """Wait until no outbox event or memory job is unfinished (or ``settle`` s pass); return their statuses."""
    deadline = time.monotonic() + settle
    while True:
        statuses = _background_statuses(since)
        if not any(counter.get("unfinished") for counter in statuses.values()) or time.monotonic() > deadline:
            return statuses
        time.sleep(0.5)


def _background_statuses(since: datetime) -> dict[str, Counter]:
    from memory.models import MemoryJob
    from smartmate.platform.models import OutboxEvent

    statuses = {}
    for name, model in (("outbox events", OutboxEvent), ("memory jobs", MemoryJob)):
        counter: Counter = Counter()
        for status in model.objects.filter(created_at__gte=since).values_list("status", flat=True):
            counter["unfinished" if status in model.UNFINISHED else status] += 1
        statuses[name] = counter
    return statuses

