"""A past semester's week as a read-only board: one row per section, one column per day.

Blocks that overlap on a day share one cell (a meeting shown beside another, a clash the timetable
had); study blocks inside a filler course are listed in their host's cell. Pure: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from schedule.core.semester_archive import ArchivedEvent, SemesterArchive, week_events

DAYS = range(1, 8)


@dataclass(frozen=True)
class BoardCell:
    """A cell of the board: empty (no events), or blocks spanning ``rowspan`` sections from ``section``."""

    day: int
    section: int
    rowspan: int = 1
    events: tuple[ArchivedEvent, ...] = ()
    embedded: tuple[ArchivedEvent, ...] = ()


@dataclass(frozen=True)
class BoardRow:
    section: int
    start: str
    end: str
    cells: tuple[BoardCell, ...]


def _clusters(events: list[ArchivedEvent]) -> list[list[ArchivedEvent]]:
    """Group a day's blocks into runs that overlap, in section order."""
    clusters: list[list[ArchivedEvent]] = []
    for event in sorted(events, key=lambda e: (e.first, e.last)):
        if clusters and event.first <= max(e.last for e in clusters[-1]):
            clusters[-1].append(event)
        else:
            clusters.append([event])
    return clusters


def _day_cells(week: tuple[ArchivedEvent, ...], day: int, sections: int) -> dict[int, BoardCell | None]:
    """Section -> the cell starting there, or None where a cell above covers it."""
    today = [e for e in week if e.day == day]
    cells: dict[int, BoardCell | None] = {}
    for cluster in _clusters([e for e in today if not e.embedded]):
        first, last = cluster[0].first, min(max(e.last for e in cluster), sections)
        inside = tuple(e for e in today if e.embedded and first <= e.first <= last)
        cells[first] = BoardCell(day=day, section=first, rowspan=last - first + 1, events=tuple(cluster),
                                 embedded=inside)
        cells.update({covered: None for covered in range(first + 1, last + 1)})
    return cells


def week_board(archive: SemesterArchive, week: int) -> tuple[BoardRow, ...]:
    """The rows of one week's board, section by section."""
    events = week_events(archive, week)
    sections = len(archive.section_times)
    by_day = {day: _day_cells(events, day, sections) for day in DAYS}
    rows = []
    for number, (start, end) in enumerate(archive.section_times, start=1):
        cells = []
        for day in DAYS:
            if number not in by_day[day]:
                cells.append(BoardCell(day=day, section=number))
            elif (cell := by_day[day][number]) is not None:
                cells.append(cell)
        rows.append(BoardRow(section=number, start=start, end=end, cells=tuple(cells)))
    return tuple(rows)
