"""Present a preview with what a reader needs: item names, real times, host course titles."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from board.changeset_summaries import changeset_summary
from board.placement_reasons import placement_reason_text
from board.unplaced_reasons import unplaced_reason_text
from schedule.core.change_records import BlockMove, BlockSpot
from schedule.core.time_model import SectionTemplate, Semester, span_bounds
from schedule.models import ChangeSet, PlanPreview, ScheduleEvent
from schedule.selectors import time_frame_get
from taskclasses.models import Task, TaskItem


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
    reason: str = ""  # why it goes there (board/placement_reasons.py)


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
    placements, moves = preview.placement_records(), preview.move_records()
    item_ids = ([p.item_id for p in placements] + [u["item_id"] for u in preview.unplaced]
                + [m.item_id for m in moves if m.item_id])
    contents = dict(TaskItem.objects.filter(pk__in=item_ids).values_list("pk", "content"))
    hosts = dict(ScheduleEvent.objects.filter(
        pk__in={spot.host_event_id for spot in [*(p.spot for p in placements), *(m.target for m in moves)]
                if spot.host_event_id}).values_list("pk", "title"))
    blocks = []
    for placement in placements:
        spot = placement.spot
        starts_at, ends_at = _bounds(semester, template, spot)
        blocks.append(PreviewBlock(
            item_id=placement.item_id, class_id=placement.class_id, content=contents.get(placement.item_id, ""),
            week=spot.week, day=spot.day, start_section=spot.start_section, end_section=spot.end_section,
            starts_at=starts_at, ends_at=ends_at, host_event_id=spot.host_event_id,
            host_title=hosts.get(spot.host_event_id) if spot.host_event_id else None,
            reason=placement_reason_text(placement.reason)))
    figures = {row["class_id"]: row for row in preview.feasibility or []}
    unplaced = [UnplacedBlock(item_id=u["item_id"], class_id=u["class_id"], content=contents.get(u["item_id"], ""),
                              reason=u["reason"], detail=unplaced_reason_text(u["reason"], figures.get(u["class_id"])))
                for u in preview.unplaced]
    return PreviewView(id=preview.pk, status=preview.status, source=preview.source, expires_at=preview.expires_at,
                       task_class_ids=list(preview.task_class_ids), placements=blocks, unplaced=unplaced,
                       feasibility=list(preview.feasibility), conversation_id=preview.conversation_id,
                       moves=_moves(preview, moves, contents, hosts, semester, template),
                       notes=_notes(preview, semester, template))


def _bounds(semester: Semester, template: SectionTemplate, spot: BlockSpot) -> tuple[datetime, datetime]:
    return span_bounds(semester, template, spot.week, spot.day, spot.start_section, spot.end_section)


def _moves(preview: PlanPreview, moves: list[BlockMove], contents: dict[int, str], hosts: dict[int, str],
           semester: Semester, template: SectionTemplate) -> list[MovedBlock]:
    titles = dict(Task.objects.filter(pk__in=[m.task_id for m in moves if m.task_id],
                                      user=preview.user).values_list("pk", "title"))
    found = []
    for move in moves:
        to, origin = move.target, move.origin
        starts_at, ends_at = _bounds(semester, template, to)
        content = (contents.get(move.item_id, "") if move.item_id else "") \
            or (titles.get(move.task_id, "") if move.task_id else "")
        found.append(MovedBlock(
            kind=move.kind, item_id=move.item_id, task_id=move.task_id, event_id=move.event_id,
            content=content, week=to.week, day=to.day, start_section=to.start_section,
            end_section=to.end_section, starts_at=starts_at, ends_at=ends_at, host_event_id=to.host_event_id,
            host_title=hosts.get(to.host_event_id) if to.host_event_id else None, from_week=origin.week,
            from_day=origin.day, from_start_section=origin.start_section, from_end_section=origin.end_section,
            from_starts_at=_bounds(semester, template, origin)[0], reason=placement_reason_text(move.reason)))
    return found


def _notes(preview: PlanPreview, semester: Semester, template: SectionTemplate) -> list[NoteBlock]:
    placements = preview.note_placement_records()
    titles = dict(Task.objects.filter(pk__in=[p.task_id for p in placements], user=preview.user)
                  .values_list("pk", "title"))
    found = []
    for placement in placements:
        spot = placement.spot
        starts_at, ends_at = _bounds(semester, template, spot)
        found.append(NoteBlock(task_id=placement.task_id, content=titles.get(placement.task_id, ""), week=spot.week,
                               day=spot.day, start_section=spot.start_section, end_section=spot.end_section,
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
