"""Find a time for a quick note as a preview: the dashboard's "找个时间" proposes, the student applies or not.

Nothing is written here. The note is put on the student's board (the editing core checks every rule:
free time, the clock, the deadline, the student's own rules) at the first opening from now on, and the
board's change is stored as an ordinary preview (``task_placements``). The week board shows it with
Apply and Discard; applying writes a ChangeSet the undo bar takes back, like every other preview.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from board.boards import board_load, calendar_get
from board.planning import PreviewOrigin, preview_publish
from schedule.core.board import Board, Entry, Spot
from schedule.core.board_edits import OrderRule, place
from schedule.core.board_errors import BoardError
from schedule.core.board_suggest import Opening, openings
from schedule.core.time_model import span_bounds
from schedule.models import PlanPreview, ScheduleEvent
from smartmate.platform.exceptions import ConflictError
from taskclasses.exceptions import NoFreeSlotError
from taskclasses.notes.selectors import task_get

# How far ahead to look when the note has no deadline (or a later one): two weeks from today.
SEARCH_DAYS = 14


def note_slot_preview(*, user: User, task_id: int, now: datetime | None = None) -> PlanPreview:
    """Propose the first time the note fits, from now until its deadline (at most two weeks), as a preview.

    Another student's note is not found (404); a note already on the schedule is a 409; no opening
    before the deadline is NoFreeSlotError. Nothing is written but the preview.
    """
    now = now or timezone.now()
    task = task_get(user=user, task_id=task_id)
    if ScheduleEvent.objects.filter(user=user, task=task).exists():
        raise ConflictError(_("This note is already on your schedule."), code="note_already_scheduled")
    board = _note_board(user=user, task_id=task.pk, deadline=task.deadline, now=now)
    entry = board.find(task_id=task.pk)
    placed = _first_fit(board, entry, task.deadline) if entry is not None else None
    if placed is None:
        raise NoFreeSlotError(_("No free time is left before the note's deadline in the next two weeks."),
                              code="no_free_slot")
    preview = preview_publish(user=user, board=placed, origin=PreviewOrigin(PlanPreview.Source.PAGE), now=now)
    assert preview is not None  # the board places the note, so the preview has a row
    return preview


def preview_first_week(preview: PlanPreview) -> int | None:
    """The week the board should open on to show the proposal."""
    return min((row["week"] for row in preview.task_placements), default=None)


def _ends_at(board: Board, opening: Opening) -> datetime:
    week, day = board.calendar.week_day(opening.day)
    return span_bounds(board.calendar.semester, board.calendar.template, week, day, opening.start, opening.end)[1]


def _note_board(*, user: User, task_id: int, deadline: datetime | None, now: datetime) -> Board:
    calendar = calendar_get(user=user)
    today = calendar.semester.local_date(now)
    last = today + timedelta(days=SEARCH_DAYS - 1)
    if deadline is not None:
        last = min(last, calendar.semester.local_date(deadline))
    return board_load(user=user, now=now, first=today, last=max(last, today), task_ids=[task_id],
                      pending_notes=False, calendar=calendar)


def _first_fit(board: Board, entry: Entry, deadline: datetime | None) -> Board | None:
    """The board with the note at its earliest opening in free time that ends by the deadline, or None."""
    for opening in openings(board, entry):
        if opening.host is not None:  # a quick note takes free time, not a filler course
            continue
        if deadline is not None and _ends_at(board, opening) > deadline:
            return None  # openings come in time order: every later one ends later still
        try:
            return place(board, entry.id, Spot(opening.day, opening.start), order=OrderRule.ALLOW)
        except BoardError:
            continue  # the clock, the deadline or a rule of the student's refuses this one
    return None
