"""Lay a week's events out as table rows for the week board page."""

from __future__ import annotations

from dataclasses import dataclass

from schedule.models import ScheduleEvent
from schedule.selectors import SectionRow, WeekBoard


@dataclass(frozen=True)
class BoardCell:
    day: int
    section: int
    event: ScheduleEvent | None = None
    rowspan: int = 1


@dataclass(frozen=True)
class BoardRow:
    section: SectionRow
    cells: tuple[BoardCell, ...]  # covered cells (inside a longer event) are left out


def board_rows(board: WeekBoard) -> list[BoardRow]:
    """Return one row per section; an event's cell spans its sections (HTML rowspan)."""
    starting: dict[tuple[int, int], ScheduleEvent] = {}
    covered: set[tuple[int, int]] = set()
    for event in board.events:
        starting[(event.day, event.start_section)] = event
        covered.update((event.day, section) for section in range(event.start_section + 1, event.end_section + 1))
    rows = []
    for section in board.sections:
        cells = []
        for day in range(1, 8):
            if (day, section.number) in covered:
                continue
            event = starting.get((day, section.number))
            span = event.end_section - event.start_section + 1 if event else 1
            cells.append(BoardCell(day=day, section=section.number, event=event, rowspan=span))
        rows.append(BoardRow(section=section, cells=tuple(cells)))
    return rows
