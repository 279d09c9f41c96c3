"""The conversation's working schedule (``agent.flow.working``): its glue to the database and the planner.

Every rule is the core's. This module only loads the board (``board.boards``), replays
a conversation's edits onto a reload (``schedule.core.board_replay``, saying why one is dropped),
rough-builds with the planner, and hands the changes to schedule's one preview writer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from datetime import datetime

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.models import User
from agent.flow.working import Working
from board.boards import board_load
from board.planning import (
    PreviewOrigin,
    board_with_plan,
    plan_reasons,
    planning_instance_build,
    preview_publish,
)
from schedule.board_messages import place_text, refusal_message
from schedule.core.board import Board, occupied_sections
from schedule.core.board_edits import Unplace, batch
from schedule.core.board_errors import BoardError
from schedule.core.board_replay import Dropped, Overtaken, pending_edits, replay
from schedule.core.planning import OccupiedSection, PlanningInstance, plan
from schedule.models import PlanPreview
from taskclasses.models import TaskClass

WORKING_EVENT_ID = -2  # marks sections the conversation already uses, for the planner


# --- Loading -----------------------------------------------------------------------------------------

def working_load(*, user: User, now: datetime, task_class_ids: Iterable[int] = (),
                 previous: Working | None = None) -> Working:
    """Load the board from today through the classes' windows (or the next 14 days).

    With ``previous`` (the conversation's older working schedule), entries keep their ids, its
    suggestions and moves are replayed where they still fit, and its queue stays.
    """
    if previous is None:
        return Working(board_load(user=user, now=now, class_ids=task_class_ids), user.pk)
    return working_rebase(user=user, now=now, working=previous, task_class_ids=task_class_ids)[0]


def working_rebase(*, user: User, now: datetime, working: Working, task_class_ids: Iterable[int] = (),
                   replay_edits: bool = True) -> tuple[Working, tuple[str, ...]]:
    """Load the student's board as the database has it now and replay the conversation's edits onto it.

    Returns the new working schedule and one sentence for each edit dropped because the board no
    longer takes it (the student applied a plan, dragged a block, added an event meanwhile). The
    classes planned stay planned and every entry keeps its id; ``task_class_ids`` adds classes.
    Without ``replay_edits`` (its preview was applied or discarded) only the ids carry over.
    """
    older = working.board
    notes = [e.task_id for e in pending_edits(older) if e.task_id is not None]
    board = board_load(user=user, now=now, class_ids=sorted({*older.planned_class_ids, *task_class_ids}),
                       task_ids=notes, previous=older)
    if not replay_edits:
        return Working(board, user.pk), ()
    replayed = replay(board, older)
    rebased = Working(replayed.board, user.pk, working.queue, working.reasons)
    return rebased, tuple(dropped_text(dropped, board) for dropped in replayed.dropped)


def dropped_text(dropped: Dropped, board: Board) -> str:
    """One sentence, for the student and the model, on an earlier edit that was dropped and why."""
    entry = dropped.entry
    assert entry.place is not None, "a dropped edit had a place"
    change = _("“%(entry)s” at %(place)s") % {"entry": entry.name,
                                                "place": place_text(entry.place.spot, entry.length)}
    why = dropped.why
    if isinstance(why, BoardError):
        return _("The earlier change putting %(change)s was dropped: %(reason)s") % {
            "change": change, "reason": refusal_message(why, board)}
    return str(OVERTAKEN_TEXT[why]) % {"change": change}


OVERTAKEN_TEXT = {
    Overtaken.GONE: gettext_lazy("The earlier change putting %(change)s was dropped: it is no longer on your "
                                 "schedule."),
    Overtaken.PLACED_MEANWHILE: gettext_lazy("The earlier suggestion putting %(change)s was dropped: it has "
                                             "been given a place on your schedule since."),
    Overtaken.MOVED_MEANWHILE: gettext_lazy("The earlier change putting %(change)s was dropped: you have moved "
                                            "it yourself since, and your place stays."),
}


# --- Rough build -------------------------------------------------------------------------------------

def working_rough_build(*, user: User, now: datetime, task_class_ids: Iterable[int],
                        working: Working | None) -> tuple[Working, str]:
    """Run the planner for these classes and put its placements on the board as suggestions (no LLM).

    Earlier suggestions of these classes are planned again; the conversation's other suggestions
    and moves stay and count as taken. Raises PlanningError when a class's window has passed.
    """
    wanted = list(TaskClass.objects.filter(user=user, pk__in=list(task_class_ids)).order_by("pk"))
    wanted_ids = {c.pk for c in wanted}
    if working is None or not wanted_ids <= set(working.board.planned_class_ids):
        loaded = set(working.board.planned_class_ids) if working is not None else set()
        working = working_load(user=user, now=now, task_class_ids=sorted(loaded | wanted_ids), previous=working)
    board = _without_suggestions(working.board, wanted_ids)
    if not wanted:
        return working.with_board(board), _("No task class was chosen, so nothing was planned.")
    instance = _with_conversation_changes(planning_instance_build(user=user, task_classes=wanted, now=now), board)
    result = plan(instance)
    board, _refused = board_with_plan(board, result.placements)
    why = plan_reasons(user=user, instance=instance, result=result, classes=wanted)
    mine = [e for e in board.entries if e.class_id in wanted_ids and e.item_id is not None]
    placed, left = sum(1 for e in mine if e.suggested), sum(1 for e in mine if e.place is None)
    summary = ngettext("Suggested %(count)s block", "Suggested %(count)s blocks", placed) % {"count": placed}
    if left:
        summary += "; " + ngettext("%(count)s block found no place", "%(count)s blocks found no place",
                                   left) % {"count": left}
    return working.with_board(board).with_reasons(why), summary + "."


def _without_suggestions(board: Board, class_ids: set[int]) -> Board:
    return batch(board, [Unplace(e.id) for e in board.entries if e.suggested and e.class_id in class_ids])


def _with_conversation_changes(instance: PlanningInstance, board: Board) -> PlanningInstance:
    """Mark the sections the conversation already uses (suggestions, moved blocks) as taken for the planner."""
    used: dict[tuple[int, int, int], str] = {}
    for day, section, holder in occupied_sections(board):
        if holder.suggested or holder.moved:
            used[(*board.calendar.week_day(day), section)] = holder.name
    occupied = [dataclasses.replace(o, embeddable=False) if (o.week, o.day, o.section) in used else o
                for o in instance.occupied]
    known = {(o.week, o.day, o.section) for o in instance.occupied}
    occupied += [OccupiedSection(event_id=WORKING_EVENT_ID, week=week, day=day, section=section, name=name)
                 for (week, day, section), name in used.items() if (week, day, section) not in known]
    return dataclasses.replace(instance, occupied=tuple(occupied))


# --- To a preview ------------------------------------------------------------------------------------

def working_publish(*, user: User, working: Working, conversation_id: int, now: datetime) -> PlanPreview | None:
    """Make the conversation's changes its one open preview (None when there are none), each block still
    where the planner or a catch-up put it with its reason (applying keeps the reason with the block)."""
    return preview_publish(user=user, board=working.board, now=now,
                           origin=PreviewOrigin(PlanPreview.Source.ASSISTANT, conversation_id),
                           placement_reasons=working.reasons_in_place())
