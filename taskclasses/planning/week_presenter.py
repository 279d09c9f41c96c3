"""Lay a week out as table rows for the week board: events, embedded blocks and a preview's changes."""

from __future__ import annotations

from dataclasses import dataclass, field

from schedule.models import ScheduleEvent
from schedule.selectors import SectionRow, WeekBoard
from taskclasses.planning.preview_presenter import MovedBlock, NoteBlock, PreviewBlock, PreviewView


@dataclass(frozen=True)
class BoardCell:
    day: int
    section: int
    event: ScheduleEvent | None = None
    suggestion: PreviewBlock | None = None  # a suggested block in free time
    moved: MovedBlock | None = None  # an existing block the preview moves here (free time)
    note: NoteBlock | None = None  # a quick note the preview puts here
    rowspan: int = 1
    embedded: tuple[str, ...] = ()  # study blocks already inside this (filler) course meeting
    embedded_suggestions: tuple[PreviewBlock, ...] = field(default=())
    embedded_moves: tuple[MovedBlock, ...] = field(default=())


@dataclass(frozen=True)
class BoardRow:
    section: SectionRow
    cells: tuple[BoardCell, ...]  # covered cells (inside a longer block) are left out


def board_rows(board: WeekBoard, suggestions: list[PreviewBlock] | None = None,
               preview: PreviewView | None = None) -> list[BoardRow]:
    """Return one row per section; a block's cell spans its sections (HTML rowspan).

    With ``preview``, its moves and quick notes are drawn too: a moved block appears at its new
    place (saying where it came from) and no longer at its old one.
    """
    if preview is not None and suggestions is None:
        suggestions = preview.placements
    suggestions = [s for s in suggestions or [] if s.week == board.week]
    moves = list(preview.moves) if preview else []
    notes = [n for n in (preview.notes if preview else []) if n.week == board.week]
    leaving = {m.event_id for m in moves if m.event_id is not None}
    starting: dict[tuple[int, int], BoardCell] = {}
    covered: set[tuple[int, int]] = set()

    def put(day: int, first: int, last: int, **values) -> None:
        starting[(day, first)] = BoardCell(day=day, section=first, rowspan=last - first + 1, **values)
        covered.update((day, s) for s in range(first + 1, last + 1))

    for event in board.events:
        if event.pk in leaving:
            continue
        hosted = tuple(s for s in suggestions if s.host_event_id == event.pk)
        hosted_moves = tuple(m for m in moves if m.host_event_id == event.pk and m.week == board.week)
        gone = {m.content for m in moves if m.event_id is None and (m.from_week, m.from_day) == (event.week, event.day)
                and event.start_section <= m.from_start_section <= event.end_section}
        put(event.day, event.start_section, event.end_section, event=event,
            embedded=tuple(c for c in board.embedded.get(event.pk, ()) if c not in gone),
            embedded_suggestions=hosted, embedded_moves=hosted_moves)
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
