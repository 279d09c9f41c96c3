"""Present a preview with what a reader needs: item names, real times, host course titles."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from schedule.core.time_model import span_bounds
from schedule.models import ChangeSet, PlanPreview, ScheduleEvent
from schedule.selectors import time_frame_get
from taskclasses.models import Task, TaskItem
from taskclasses.planning.changeset_summaries import changeset_summary
from taskclasses.planning.placement_reasons import placement_reason_text
from taskclasses.planning.unplaced_reasons import unplaced_reason_text


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
    reason: str = ""  # why it goes there (taskclasses/planning/placement_reasons.py)


@dataclass(frozen=True)
class MovedBlock:
    """An existing block the preview moves: where it is now and where it goes."""

    kind: str
    item_id: int | None
    task_id: int | None
    event_id: int | None  # its own event now (None: embedded in a filler course)
    content: str
    week: int
    day: int
    start_section: int
    end_section: int
    starts_at: datetime
    ends_at: datetime
    host_event_id: int | None
    host_title: str | None
    from_week: int
    from_day: int
    from_start_section: int
    from_end_section: int
    from_starts_at: datetime
    reason: str = ""  # why it goes there


@dataclass(frozen=True)
class NoteBlock:
    """A quick-note task the preview puts on the board."""

    task_id: int
    content: str
    week: int
    day: int
    start_section: int
    end_section: int
    starts_at: datetime
    ends_at: datetime


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
    moves: list[MovedBlock] = field(default_factory=list)
    notes: list[NoteBlock] = field(default_factory=list)
    conversation_id: int | None = None

    @property
    def change_count(self) -> int:
        return len(self.placements) + len(self.moves) + len(self.notes)

    @property
    def weeks(self) -> list[int]:
        """The weeks the preview touches, for the board's week links."""
        return sorted({b.week for b in self.placements} | {m.week for m in self.moves}
                      | {m.from_week for m in self.moves} | {n.week for n in self.notes})


def preview_view(preview: PlanPreview) -> PreviewView:
    """Return the preview with names and absolute times filled in (two queries)."""
    semester, template = time_frame_get(user=preview.user)
    moves = list(preview.moves or [])
    item_ids = ([p["item_id"] for p in preview.placements] + [u["item_id"] for u in preview.unplaced]
                + [m["item_id"] for m in moves if m.get("item_id")])
    contents = dict(TaskItem.objects.filter(pk__in=item_ids).values_list("pk", "content"))
    hosts = dict(ScheduleEvent.objects.filter(
        pk__in={p["host_event_id"] for p in [*preview.placements, *(m["to"] for m in moves)]
                if p["host_event_id"]}).values_list("pk", "title"))
    blocks = []
    for p in preview.placements:
        starts_at, ends_at = span_bounds(semester, template, p["week"], p["day"], p["start_section"], p["end_section"])
        blocks.append(PreviewBlock(
            item_id=p["item_id"], class_id=p["class_id"], content=contents.get(p["item_id"], ""), week=p["week"],
            day=p["day"], start_section=p["start_section"], end_section=p["end_section"], starts_at=starts_at,
            ends_at=ends_at, host_event_id=p["host_event_id"], host_title=hosts.get(p["host_event_id"]),
            reason=placement_reason_text(p.get("reason"))))
    figures = {row["class_id"]: row for row in preview.feasibility or []}
    unplaced = [UnplacedBlock(item_id=u["item_id"], class_id=u["class_id"], content=contents.get(u["item_id"], ""),
                              reason=u["reason"], detail=unplaced_reason_text(u["reason"], figures.get(u["class_id"])))
                for u in preview.unplaced]
    return PreviewView(id=preview.pk, status=preview.status, source=preview.source, expires_at=preview.expires_at,
                       task_class_ids=list(preview.task_class_ids), placements=blocks, unplaced=unplaced,
                       feasibility=list(preview.feasibility), conversation_id=preview.conversation_id,
                       moves=_moves(preview, contents, hosts, semester, template),
                       notes=_notes(preview, semester, template))


def _moves(preview: PlanPreview, contents: dict, hosts: dict, semester, template) -> list[MovedBlock]:
    titles = dict(Task.objects.filter(pk__in=[m["task_id"] for m in preview.moves or [] if m.get("task_id")],
                                      user=preview.user).values_list("pk", "title"))
    found = []
    for move in preview.moves or []:
        to, origin = move["to"], move["from"]
        starts_at, ends_at = span_bounds(semester, template, to["week"], to["day"], to["start_section"],
                                         to["end_section"])
        from_starts = span_bounds(semester, template, origin["week"], origin["day"], origin["start_section"],
                                  origin["end_section"])[0]
        content = contents.get(move.get("item_id"), "") or titles.get(move.get("task_id"), "")
        found.append(MovedBlock(
            kind=move["kind"], item_id=move.get("item_id"), task_id=move.get("task_id"), event_id=move.get("event_id"),
            content=content, week=to["week"], day=to["day"], start_section=to["start_section"],
            end_section=to["end_section"], starts_at=starts_at, ends_at=ends_at, host_event_id=to["host_event_id"],
            host_title=hosts.get(to["host_event_id"]), from_week=origin["week"], from_day=origin["day"],
            from_start_section=origin["start_section"], from_end_section=origin["end_section"],
            from_starts_at=from_starts, reason=placement_reason_text(move.get("reason"))))
    return found


def _notes(preview: PlanPreview, semester, template) -> list[NoteBlock]:
    placements = list(preview.task_placements or [])
    titles = dict(Task.objects.filter(pk__in=[p["task_id"] for p in placements], user=preview.user)
                  .values_list("pk", "title"))
    found = []
    for p in placements:
        starts_at, ends_at = span_bounds(semester, template, p["week"], p["day"], p["start_section"], p["end_section"])
        found.append(NoteBlock(task_id=p["task_id"], content=titles.get(p["task_id"], ""), week=p["week"],
                               day=p["day"], start_section=p["start_section"], end_section=p["end_section"],
                               starts_at=starts_at, ends_at=ends_at))
    return found


def direct_edit_summary(changeset: ChangeSet) -> str:
    """One line for the undo bar of a direct edit (the wording lives in changeset_summaries)."""
    return changeset_summary(changeset)


def changeset_view(changeset: ChangeSet) -> dict:
    if changeset.kind != ChangeSet.Kind.APPLY:
        return {"id": changeset.pk, "kind": changeset.kind, "summary": direct_edit_summary(changeset),
                "preview_id": None, "applied_at": changeset.applied_at, "undone_at": changeset.undone_at,
                "event_count": 0, "embedded_count": 0}
    summary = changeset_summary(changeset)
    return {"id": changeset.pk, "kind": changeset.kind, "summary": summary, "preview_id": changeset.preview_id,
            "applied_at": changeset.applied_at, "undone_at": changeset.undone_at,
            "event_count": len(changeset.event_ids), "embedded_count": len(changeset.embedded_slot_ids) // 2}
