"""Lay a week out as seven day agendas for a phone: one day's blocks as a list, in order.

Built from the week board's rows (``week_presenter.board_rows``), so the agenda shows exactly what the
table shows: events, study blocks embedded in filler courses, and a preview's suggested, moved and
scheduled blocks. Between them, the day's free sections (runs of the table's empty cells) are rows of
their own, where a phone adds an event as a desktop clicks an empty cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from board.week_presenter import BoardCell, BoardRow
from schedule.selectors import SectionRow, WeekBoard


@dataclass(frozen=True)
class _Span:
    """A run of sections from ``first`` to ``last`` (inclusive)."""

    first: SectionRow
    last: SectionRow

    @property
    def sections(self) -> str:
        return str(self.first.number) if self.first == self.last else f"{self.first.number}–{self.last.number}"


@dataclass(frozen=True, kw_only=True)
class AgendaItem(_Span):
    cell: BoardCell


@dataclass(frozen=True, kw_only=True)
class FreeRun(_Span):
    """Consecutive free sections of one day (nothing in the table's cells there)."""

    day: int


@dataclass(frozen=True)
class AgendaDay:
    number: int
    label: str
    date: date
    is_today: bool
    is_shown: bool  # the day the page opens on (today, else the first day of the week, else ``?day=``)
    items: tuple[AgendaItem, ...]
    free: tuple[FreeRun, ...] = ()

    @property
    def rows(self) -> list[AgendaItem | FreeRun]:
        """The day's items and free runs in section order, as the agenda lists them."""
        return sorted([*self.items, *self.free], key=lambda row: row.first.number)

    @property
    def first_free_section(self) -> int:
        """Where the day's "add" starts: its first free section, else the first section."""
        return self.free[0].first.number if self.free else 1


def agenda_days(board: WeekBoard, rows: list[BoardRow], labels: dict[int, str],
                day: int | None = None) -> list[AgendaDay]:
    """Return the week's seven days, each with its filled cells in section order.

    The day shown first is ``day`` when given (1-7), else today when it is in this week, else Monday.
    """
    by_number = {section.number: section for section in board.sections}
    found: dict[int, list[AgendaItem]] = {n: [] for n in range(1, 8)}
    empty: dict[int, list[SectionRow]] = {n: [] for n in range(1, 8)}
    for row in rows:
        for cell in row.cells:
            if cell.event or cell.suggestion or cell.moved or cell.note:
                last = by_number.get(cell.section + cell.rowspan - 1, row.section)
                found[cell.day].append(AgendaItem(cell=cell, first=row.section, last=last))
            else:
                empty[cell.day].append(row.section)
    if day is None or not 1 <= day <= 7:
        day = board.dates.index(board.today) + 1 if board.today in board.dates else 1
    return [AgendaDay(number=n, label=labels[n], date=d, is_today=d == board.today, is_shown=n == day,
                      items=tuple(found[n]), free=_free_runs(n, empty[n]))
            for n, d in enumerate(board.dates, start=1)]


def _free_runs(day: int, sections: list[SectionRow]) -> tuple[FreeRun, ...]:
    """Group a day's free sections (in order) into runs of consecutive section numbers."""
    runs: list[FreeRun] = []
    for section in sections:
        if runs and runs[-1].last.number == section.number - 1:
            runs[-1] = FreeRun(day=day, first=runs[-1].first, last=section)
        else:
            runs.append(FreeRun(day=day, first=section, last=section))
    return tuple(runs)
