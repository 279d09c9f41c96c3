"""Lay a week out as table rows for the week board: events, embedded blocks and a preview's changes."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.utils import timezone

from accounts.models import User
from board.direct_edits import block_version
from board.placement_reasons import preview_reason_texts, week_reasons
from board.preview_presenter import MovedBlock, NoteBlock, PreviewBlock, PreviewView
from schedule.core.weekspec import format_weeks
from schedule.models import PlanPreview, ScheduleEvent, ScheduleSlot
from schedule.selectors import SectionRow, WeekBoard
from taskclasses.models import Task, TaskItem


@dataclass(frozen=True)
class EmbeddedBlock:
    """A study block inside a filler course meeting; with its id and version the board can open or drag it."""

    content: str
    item_id: int | None = None  # None: shown only (under a preview, nothing on the board is edited)
    version: str = ""
    status: str = ""  # the study item's status: "done" and "missed" look different on the board


@dataclass(frozen=True)
class BoardCell:
    day: int
    section: int
    event: ScheduleEvent | None = None
    suggestion: PreviewBlock | None = None  # a suggested block in free time
    moved: MovedBlock | None = None  # an existing block the preview moves here (free time)
    note: NoteBlock | None = None  # a quick note the preview puts here
    rowspan: int = 1
    embedded: tuple[EmbeddedBlock, ...] = ()  # study blocks already inside this (filler) course meeting
    version: str = ""  # the event's study block or quick note, as the direct-edit API's version
    status: str = ""  # the block's status ("placed", "done", "missed"; a quick note: "placed" or "done")
    begun: bool = False  # the event has started: a missed block in it can be caught up
    series_weeks: str = ""  # a repeating custom event's weeks ("1-16单")
    embedded_suggestions: tuple[PreviewBlock, ...] = field(default=())
    embedded_moves: tuple[MovedBlock, ...] = field(default=())
    beside: tuple[ScheduleEvent, ...] = ()  # course meetings at the same time, shown side by side with this one


@dataclass(frozen=True)
class PlacedBlocks:
    """The week's applied blocks as direct edits need them: the embedded ones' ids, everyone's version."""

    embedded: dict[int, tuple[EmbeddedBlock, ...]]  # host event id -> the study blocks inside it
    versions: dict[int, str]  # event id of a study block or a quick note -> the block's version
    statuses: dict[int, str] = field(default_factory=dict)  # the same events -> the block's status
    series_weeks: dict[int, str] = field(default_factory=dict)  # custom event id -> its series' weeks ("1-16单")


def placed_blocks_get(*, user: User, board: WeekBoard) -> PlacedBlocks:
    """Read what the board's direct edits need: block ids, statuses and places, series weeks (four queries)."""
    statuses = _event_block_statuses(board.events)
    return PlacedBlocks(embedded=_embedded_blocks(user, board.week), versions=_event_block_versions(board.events, statuses),
                        statuses=statuses, series_weeks=_series_weeks(user, board.events))


def _series_weeks(user: User, events: tuple[ScheduleEvent, ...]) -> dict[int, str]:
    """Each repeating event's weeks as the edit dialog shows them, so "所有周" starts from what is there."""
    series = {e.series_id: e.pk for e in events if e.series_id is not None}
    if not series:
        return {}
    weeks: dict[int, list[int]] = {}
    rows = ScheduleEvent.objects.filter(user=user, series_id__in=list(series)).order_by("week")
    for series_id, week in rows.values_list("series_id", "week"):
        if series_id in series:
            weeks.setdefault(series[series_id], []).append(week)
    return {event_id: format_weeks(found) for event_id, found in weeks.items()}


def _event_block_statuses(events: tuple[ScheduleEvent, ...]) -> dict[int, str]:
    """Each study block's or quick note's status by event id (two queries)."""
    item_ids = [e.task_item_id for e in events if e.task_item_id]
    task_ids = [e.task_id for e in events if e.task_id]
    item_status = dict(TaskItem.objects.filter(pk__in=item_ids).values_list("pk", "status")) if item_ids else {}
    done = dict(Task.objects.filter(pk__in=task_ids).values_list("pk", "completed")) if task_ids else {}
    statuses = {}
    for event in events:
        if event.task_item_id:
            statuses[event.pk] = item_status.get(event.task_item_id, "")
        elif event.task_id:
            statuses[event.pk] = "done" if done.get(event.task_id) else "placed"  # as direct edits name it
    return statuses


def _event_block_versions(events: tuple[ScheduleEvent, ...], statuses: dict[int, str]) -> dict[int, str]:
    return {event.pk: block_version(event_id=event.pk, week=event.week, day=event.day,
                                    start_section=event.start_section, end_section=event.end_section,
                                    host_event_id=None, status=statuses[event.pk])
            for event in events if event.pk in statuses}


def _embedded_blocks(user: User, week: int) -> dict[int, tuple[EmbeddedBlock, ...]]:
    rows = (ScheduleSlot.objects.filter(user=user, week=week, embedded_item__isnull=False)
            .order_by("event_id", "section")
            .values_list("event_id", "embedded_item_id", "day", "section", "embedded_item__content",
                         "embedded_item__status"))
    held: dict[tuple[int, int], list] = {}
    for event_id, item_id, day, section, content, status in rows:
        held.setdefault((event_id, item_id), []).append((day, section, content, status))
    found: dict[int, list[EmbeddedBlock]] = {}
    for (event_id, item_id), slots in held.items():
        day, first, content, status = slots[0]
        version = block_version(event_id=None, week=week, day=day, start_section=first, end_section=slots[-1][1],
                                host_event_id=event_id, status=status)
        found.setdefault(event_id, []).append(EmbeddedBlock(content=content, item_id=item_id, version=version,
                                                            status=status))
    return {event_id: tuple(blocks) for event_id, blocks in found.items()}


@dataclass(frozen=True)
class BoardRow:
    section: SectionRow
    cells: tuple[BoardCell, ...]  # covered cells (inside a longer block) are left out


def board_rows(board: WeekBoard, suggestions: list[PreviewBlock] | None = None,
               preview: PreviewView | None = None, placed: PlacedBlocks | None = None) -> list[BoardRow]:
    """Return one row per section; a block's cell spans its sections (HTML rowspan).

    With ``preview``, its moves and quick notes are drawn too: a moved block appears at its new
    place (saying where it came from) and no longer at its old one. With ``placed`` (no preview),
    the applied blocks carry their ids and versions so the board can edit them.
    """
    if preview is not None and suggestions is None:
        suggestions = preview.placements
    suggestions = [s for s in suggestions or [] if s.week == board.week]
    moves = list(preview.moves) if preview else []
    notes = [n for n in (preview.notes if preview else []) if n.week == board.week]
    leaving = {m.event_id for m in moves if m.event_id is not None}
    now = timezone.now()
    starting: dict[tuple[int, int], BoardCell] = {}
    covered: set[tuple[int, int]] = set()

    def put(day: int, first: int, last: int, **values) -> None:
        starting[(day, first)] = BoardCell(day=day, section=first, rowspan=last - first + 1, **values)
        covered.update((day, s) for s in range(first + 1, last + 1))

    for event in board.events:
        if event.pk in leaving or event.beside:
            continue
        hosted = tuple(s for s in suggestions if s.host_event_id == event.pk)
        hosted_moves = tuple(m for m in moves if m.host_event_id == event.pk and m.week == board.week)
        gone = {m.content for m in moves if m.event_id is None and (m.from_week, m.from_day) == (event.week, event.day)
                and event.start_section <= m.from_start_section <= event.end_section}
        inside = (placed.embedded.get(event.pk, ()) if placed is not None
                  else tuple(EmbeddedBlock(content) for content in board.embedded.get(event.pk, ())))
        put(event.day, event.start_section, event.end_section, event=event,
            embedded=tuple(b for b in inside if b.content not in gone),
            embedded_suggestions=hosted, embedded_moves=hosted_moves,
            version=placed.versions.get(event.pk, "") if placed is not None else "",
            status=placed.statuses.get(event.pk, "") if placed is not None else "",
            begun=event.starts_at <= now,
            series_weeks=placed.series_weeks.get(event.pk, "") if placed is not None else "")
    for event in board.events:
        if event.beside:
            _put_beside(starting, event, put)
    for block in suggestions:
        if block.host_event_id is None:
            put(block.day, block.start_section, block.end_section, suggestion=block)
    for move in moves:
        if move.host_event_id is None and move.week == board.week:
            put(move.day, move.start_section, move.end_section, moved=move)
    for note in notes:
        put(note.day, note.start_section, note.end_section, note=note)
    rows = []
    for section in board.sections:
        cells = tuple(
            starting.get((day, section.number), BoardCell(day=day, section=section.number))
            for day in range(1, 8) if (day, section.number) not in covered
        )
        rows.append(BoardRow(section=section, cells=cells))
    return rows


def _put_beside(starting: dict[tuple[int, int], BoardCell], event: ScheduleEvent, put) -> None:
    """Show a meeting beside the course meeting whose cell covers its first section (its own cell if none)."""
    for (day, first), cell in starting.items():
        if cell.event is not None and day == event.day and first <= event.start_section < first + cell.rowspan:
            starting[(day, first)] = replace(cell, beside=(*cell.beside, event))
            return
    put(event.day, event.start_section, event.end_section, event=event)


def board_reasons(*, board: WeekBoard, placed: PlacedBlocks | None, preview: PlanPreview | None) -> dict[int, str]:
    """The week page's reasons by item id: the applied blocks of the week and a shown preview's blocks."""
    embedded = [b.item_id for blocks in (placed.embedded.values() if placed else ()) for b in blocks if b.item_id]
    texts = week_reasons(events=board.events, embedded_item_ids=embedded)
    if preview is not None:
        texts.update(preview_reason_texts(preview))
    return texts
