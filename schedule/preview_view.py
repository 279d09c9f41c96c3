"""Present a preview with what a reader needs: item names, real times, host course titles."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import ngettext

from schedule.core.time_model import span_bounds
from schedule.models import ChangeSet, PlanPreview, ScheduleEvent
from schedule.selectors import time_frame_get
from taskclasses.models import TaskItem


@dataclass(frozen=True)
class PreviewBlock:
    item_id: int
    class_id: int
    content: str
    week: int
    day: int
    start_section: int
    end_section: int
    starts_at: datetime
    ends_at: datetime
    host_event_id: int | None
    host_title: str | None


@dataclass(frozen=True)
class UnplacedBlock:
    item_id: int
    class_id: int
    content: str
    reason: str
    detail: str


@dataclass(frozen=True)
class PreviewView:
    id: int
    status: str
    source: str
    expires_at: datetime
    task_class_ids: list[int]
    placements: list[PreviewBlock]
    unplaced: list[UnplacedBlock]
    feasibility: list[dict]


def preview_view(preview: PlanPreview) -> PreviewView:
    """Return the preview with names and absolute times filled in (two queries)."""
    semester, template = time_frame_get(user=preview.user)
    item_ids = [p["item_id"] for p in preview.placements] + [u["item_id"] for u in preview.unplaced]
    contents = dict(TaskItem.objects.filter(pk__in=item_ids).values_list("pk", "content"))
    hosts = dict(ScheduleEvent.objects.filter(
        pk__in={p["host_event_id"] for p in preview.placements if p["host_event_id"]}).values_list("pk", "title"))
    blocks = []
    for p in preview.placements:
        starts_at, ends_at = span_bounds(semester, template, p["week"], p["day"], p["start_section"], p["end_section"])
        blocks.append(PreviewBlock(
            item_id=p["item_id"], class_id=p["class_id"], content=contents.get(p["item_id"], ""), week=p["week"],
            day=p["day"], start_section=p["start_section"], end_section=p["end_section"], starts_at=starts_at,
            ends_at=ends_at, host_event_id=p["host_event_id"], host_title=hosts.get(p["host_event_id"])))
    unplaced = [UnplacedBlock(item_id=u["item_id"], class_id=u["class_id"], content=contents.get(u["item_id"], ""),
                              reason=u["reason"], detail=u["detail"]) for u in preview.unplaced]
    return PreviewView(id=preview.pk, status=preview.status, source=preview.source, expires_at=preview.expires_at,
                       task_class_ids=list(preview.task_class_ids), placements=blocks, unplaced=unplaced,
                       feasibility=list(preview.feasibility))


def changeset_view(changeset: ChangeSet) -> dict:
    summary = ngettext("%(count)s block placed", "%(count)s blocks placed", changeset.block_count) % {
        "count": changeset.block_count}
    return {"id": changeset.pk, "summary": summary, "preview_id": changeset.preview_id,
            "applied_at": changeset.applied_at, "undone_at": changeset.undone_at,
            "event_count": len(changeset.event_ids), "embedded_count": len(changeset.embedded_slot_ids) // 2}
