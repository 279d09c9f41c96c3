"""Lay a week out as table rows for the week board: events, embedded blocks and suggestions."""

from __future__ import annotations

from dataclasses import dataclass, field

from schedule.models import ScheduleEvent
from schedule.preview_view import PreviewBlock
from schedule.selectors import SectionRow, WeekBoard


@dataclass(frozen=True)
class BoardCell:
    day: int
    section: int
    event: ScheduleEvent | None = None
    suggestion: PreviewBlock | None = None  # a suggested block in free time
    rowspan: int = 1
    embedded: tuple[str, ...] = ()  # study blocks already inside this (filler) course meeting
    embedded_suggestions: tuple[PreviewBlock, ...] = field(default=())


@dataclass(frozen=True)
class BoardRow:
    section: SectionRow
    cells: tuple[BoardCell, ...]  # covered cells (inside a longer block) are left out


def board_rows(board: WeekBoard, suggestions: list[PreviewBlock] | None = None) -> list[BoardRow]:
    """Return one row per section; a block's cell spans its sections (HTML rowspan)."""
    suggestions = [s for s in suggestions or [] if s.week == board.week]
    starting: dict[tuple[int, int], BoardCell] = {}
    covered: set[tuple[int, int]] = set()
    for event in board.events:
        hosted = tuple(s for s in suggestions if s.host_event_id == event.pk)
        starting[(event.day, event.start_section)] = BoardCell(
            day=event.day, section=event.start_section, event=event, rowspan=len(event.sections),
            embedded=tuple(board.embedded.get(event.pk, ())), embedded_suggestions=hosted)
        covered.update((event.day, s) for s in range(event.start_section + 1, event.end_section + 1))
    for block in suggestions:
        if block.host_event_id is None:
            starting[(block.day, block.start_section)] = BoardCell(
                day=block.day, section=block.start_section, suggestion=block,
                rowspan=block.end_section - block.start_section + 1)
            covered.update((block.day, s) for s in range(block.start_section + 1, block.end_section + 1))
    rows = []
    for section in board.sections:
        cells = tuple(
            starting.get((day, section.number), BoardCell(day=day, section=section.number))
            for day in range(1, 8) if (day, section.number) not in covered
        )
        rows.append(BoardRow(section=section, cells=cells))
    return rows
