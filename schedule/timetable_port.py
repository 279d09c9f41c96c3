"""Course changes and re-imports that move study blocks, through a port the week board fills in.

Deleting a course meeting, a whole course, turning a filler course off or re-importing the timetable
takes study blocks off the board: they wait to be planned again, which is the week board's business
(``board/``, above the schedule, README "Layout"). The schedule's pages and API call the editor here;
``board/apps.py`` registers it when the app is ready (``board.timetable_edits``). The port stays now that
the board has its own app because the schedule's own pages and API (import, courses, events) need the
editor while the schedule sits below the board and may not import it.
Every change is one ``ChangeSet`` that ``changeset_undo`` reverses; ``dry_run`` only reports. The
student's own events go through here too, so adding, changing and deleting them is undoable the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from accounts.models import User
from schedule.services.event_series import Scope
from schedule.services.events import Span
from schedule.services.timetable_sync import DisplacedBlock, SyncPlan


@dataclass(frozen=True)
class TimetableEditResult:
    """What a change did (or, in a dry run, would do): the blocks it displaces and its change set."""

    dry_run: bool
    displaced: tuple[DisplacedBlock, ...]
    changeset_id: int | None = None
    summary: str = ""
    plan: SyncPlan | None = None  # a re-import's diff


@dataclass(frozen=True)
class OwnEventEdit:
    """What an own-event write returned (the event, the series, or how many went) and its change set."""

    written: Any
    changeset_id: int | None = None
    summary: str = ""


class TimetableEditor(Protocol):
    def course_change(self, *, user: User, course_id: int, values: dict, dry_run: bool = False
                      ) -> TimetableEditResult: ...

    def course_remove(self, *, user: User, course_id: int, dry_run: bool = False) -> TimetableEditResult: ...

    def meeting_remove(self, *, user: User, event_id: int, dry_run: bool = False) -> TimetableEditResult: ...

    def timetable_sync(self, *, user: User, data: bytes, fmt: str, dry_run: bool = False,
                       expected: str | None = None) -> TimetableEditResult: ...

    def own_event_add(self, *, user: User, title: str, span: Span, weeks: str | None = None, location: str = "",
                      note: str = "") -> OwnEventEdit: ...

    def own_event_change(self, *, user: User, event_id: int, scope: Scope = "this", **values) -> OwnEventEdit: ...

    def own_event_remove(self, *, user: User, event_id: int, scope: Scope = "this") -> OwnEventEdit: ...


_editor: TimetableEditor | None = None


def timetable_editor_set(editor: TimetableEditor | None) -> None:
    global _editor
    _editor = editor


def timetable_editor() -> TimetableEditor:
    """The registered editor; the board app is always installed with the schedule."""
    if _editor is None:
        raise RuntimeError("No timetable editor registered (board/apps.py registers it).")
    return _editor
