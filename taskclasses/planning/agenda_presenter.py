"""Lay a week out as seven day agendas for a phone: one day's blocks as a list, in order.

Built from the week board's rows (``week_presenter.board_rows``), so the agenda shows exactly what the
table shows: events, study blocks embedded in filler courses, and a preview's suggested, moved and
scheduled blocks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from schedule.selectors import SectionRow, WeekBoard
from taskclasses.planning.week_presenter import BoardCell, BoardRow


@dataclass(frozen=True)
class AgendaItem:
    cell: BoardCell
    first: SectionRow
    last: SectionRow

    @property
    def sections(self) -> str:
        return str(self.first.number) if self.first == self.last else f"{self.first.number}–{self.last.number}"


@dataclass(frozen=True)
class AgendaDay:
    number: int
    label: str
    date: date
    is_today: bool
    is_shown: bool  # the day the page opens on (today, else the first day of the week, else ``?day=``)
    items: tuple[AgendaItem, ...]


def agenda_days(board: WeekBoard, rows: list[BoardRow], labels: dict[int, str],
                day: int | None = None) -> list[AgendaDay]:
    """Return the week's seven days, each with its filled cells in section order.

    The day shown first is ``day`` when given (1-7), else today when it is in this week, else Monday.
    """
    by_number = {section.number: section for section in board.sections}
    found: dict[int, list[AgendaItem]] = {n: [] for n in range(1, 8)}
    for row in rows:
        for cell in row.cells:
            if cell.event or cell.suggestion or cell.moved or cell.note:
                last = by_number.get(cell.section + cell.rowspan - 1, row.section)
                found[cell.day].append(AgendaItem(cell=cell, first=row.section, last=last))
    if day is None or not 1 <= day <= 7:
        day = board.dates.index(board.today) + 1 if board.today in board.dates else 1
    return [AgendaDay(number=n, label=labels[n], date=d, is_today=d == board.today, is_shown=n == day,
                      items=tuple(found[n]))
            for n, d in enumerate(board.dates, start=1)]
