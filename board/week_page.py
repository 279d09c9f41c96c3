"""The week board page as one typed record: everything the template shows, gathered in one place.

``week_page_get`` reads the week, the open preview (if any) and the student's last change once each;
the view only parses the request, calls it and renders ``WeekPage.context()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from accounts.models import User
from board.agenda_presenter import AgendaDay, agenda_days
from board.changeset_summaries import changeset_summary
from board.heal_views import heal_offers
from board.preview_presenter import PreviewView, preview_view
from board.week_presenter import BoardRow, board_reasons, board_rows, placed_blocks_get
from schedule import selectors
from schedule.exams.models import Exam
from schedule.exams.selectors import week_exams
from schedule.messages import day_label
from schedule.models import ChangeSet, PlanPreview
from schedule.selectors import WeekBoard


@dataclass(frozen=True)
class WeekPage:
    board: WeekBoard
    preview: PreviewView | None
    days: list[dict[str, Any]]
    rows: list[BoardRow]
    agenda: list[AgendaDay]
    reasons: dict[int, str]
    heal: dict[str, Any] | None
    exams: dict[int, list[Exam]]
    last_change: ChangeSet | None

    @property
    def previous_week(self) -> int | None:
        return self.board.week - 1 if self.board.week > 1 else None

    @property
    def next_week(self) -> int | None:
        return self.board.week + 1 if self.board.week < self.board.weeks else None

    def context(self) -> dict[str, Any]:
        """The template's names (``board/week.html`` and its partials)."""
        return {"board": self.board, "rows": self.rows, "days": self.days, "agenda": self.agenda,
                "reasons": self.reasons, "heal": self.heal, "preview": self.preview,
                "preview_weeks": self.preview.weeks if self.preview else [], "exams": self.exams,
                "last_change": self.last_change,
                "last_change_summary": changeset_summary(self.last_change) if self.last_change else "",
                "previous_week": self.previous_week, "next_week": self.next_week}


def week_page_get(*, user: User, week: int | None, preview: PlanPreview | None, day: int | None) -> WeekPage:
    """One week of the board with ``preview`` overlaid; raises TimeModelError for a week outside the semester."""
    board = selectors.week_board_get(user=user, week=week)
    shown = preview_view(preview) if preview else None
    days: list[dict[str, Any]] = [{"number": n, "label": day_label(n), "date": d, "is_today": d == board.today}
                                  for n, d in enumerate(board.dates, start=1)]
    placed = None if shown else placed_blocks_get(user=user, board=board)
    rows = board_rows(board, preview=shown, placed=placed)
    last_change = ChangeSet.objects.filter(user=user, undone_at__isnull=True).first()
    return WeekPage(
        board=board, preview=shown, days=days, rows=rows,
        agenda=agenda_days(board, rows, {d["number"]: d["label"] for d in days}, day=day),
        reasons=board_reasons(board=board, placed=placed, preview=preview),
        heal=None if preview else heal_offers(user=user, last_change=last_change),
        exams=week_exams(user=user, dates=board.dates), last_change=last_change)
