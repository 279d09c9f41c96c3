"""Run a started turn to its end: from its checkpoint (or afresh), through the graph, then free the conversation.

Called by the Celery task (``agent.tasks``) or an embedded thread (``agent.services.dispatch``),
never by a request: a turn may take as long as the model does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Literal, cast

from celery.exceptions import SoftTimeLimitExceeded
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.broadcast import broadcast
from agent.flow.contracts import AnswerReset, ErrorEvent, StatusEvent, TurnDone
from agent.flow.deps import Deps, UsageMeter
from agent.flow.graph import GRAPH, TERMINAL_PHASES
from agent.flow.state import HistoryMessage, TurnOptions, TurnState
from agent.flow.working import Working, working_for, working_from_json
from agent.models import Checkpoint, Conversation, Message, TimelineEvent
from agent.runtime import run_turn
from agent.selectors import history_list
from agent.services.leases import (
    LeaseHeartbeat,
    LeaseLost,
    TurnLease,
    lease_claim,
    lease_release,
    with_database_retries,
)
from agent.timeline import TimelineEmitter
from agent.tools.support.working_schedule import working_publish, working_rebase
from agent.turn_services import DjangoTurnServices
from schedule.models import PlanPreview
from smartmate.llm import get_llm_client
from smartmate.platform.outbox.background import background_held

log = logging.getLogger("agent.services")
StrOrPromise = str | Promise
# What the student reads when a turn dies (stored with the error event, in the turn's language).
TIMED_OUT = gettext_lazy("The answer took too long and was stopped. Please try again, perhaps with a shorter request.")
CRASHED = gettext_lazy("Something went wrong on our side. Please try again in a moment.")
INTERRUPTED = gettext_lazy("The assistant was interrupted before it finished. Please send your message again.")


def turn_run(*, conversation_id: int, turn_id: str, language: str) -> None:
    """Run (or resume after a crash) the turn ``turn_id`` to its end, then release the conversation.

    The attempt first takes the turn's lease (``agent.services.leases``) and renews it while it runs.
    A turn that is over, or whose lease another live attempt holds (a duplicate delivery), is skipped.
    However this attempt dies, the student gets an ``error`` and ``turn.done`` and the conversation is
    freed; only a killed process says nothing, and then its lease runs out and the sweeper takes over.
    """
    with background_held():  # the turn's title and memory work starts once it has ended (see there)
        _turn_run(conversation_id, turn_id, language)


def _turn_run(conversation_id: int, turn_id: str, language: str) -> None:
    lease = lease_claim(conversation_id=conversation_id, turn_id=turn_id)
    if lease is None:
        log.info("Turn %s of conversation %s is over or held by another attempt; skipped", turn_id, conversation_id)
        return
    done_sender = TurnDoneAfterRelease()
    error: ErrorEvent | None = None
    try:
        with LeaseHeartbeat(lease):
            try:
                with translation.override(language):
                    _run_graph(lease, language, done_sender)
            except SoftTimeLimitExceeded:
                log.warning("Turn %s of conversation %s hit the soft time limit", turn_id, conversation_id)
                error = _turn_error(language, "turn_timeout", TIMED_OUT)
            except Exception:  # the process edge: log, tell the student, free the conversation
                log.exception("Turn %s of conversation %s crashed", turn_id, conversation_id)
                error = _turn_error(language, "internal_error", CRASHED)
    except LeaseLost:
        log.warning("Turn %s of conversation %s: another attempt took over; this one stops", turn_id, conversation_id)
        return  # the attempt holding the lease now reports and releases
    except BaseException:  # SystemExit (SIGTERM), KeyboardInterrupt: the process is going away
        log.warning("Turn %s of conversation %s was stopped with its process", turn_id, conversation_id)
        _settle(lease, _turn_error(language, "turn_interrupted", INTERRUPTED), done_sender)
        raise
    _settle(lease, error, done_sender)


def _turn_error(language: str, code: str, message: StrOrPromise) -> ErrorEvent:
    with translation.override(language):
        return ErrorEvent(code=code, message=str(message))


def _settle(lease: TurnLease, error: ErrorEvent | None, done_sender: TurnDoneAfterRelease) -> None:
    """End the turn: report ``error`` (if the turn failed) and free the conversation, through a database blip.

    If the database stays away longer than the retries, the lease runs out and the sweeper ends or
    resumes the turn (``agent.services.recovery``).
    """
    def settle() -> bool:
        if error is not None:
            turn_close_with_error(lease, error, send=done_sender)
        return lease_release(lease)

    with_database_retries(settle, what=f"end turn {lease.turn_id}")
    done_sender.release()


def turn_close_with_error(lease: TurnLease, error: ErrorEvent, *, send: Callable[[int, dict], None] = broadcast) -> None:
    """Store and send ``error`` and a failed ``turn.done`` for the turn, unless it already sent its ``turn.done``.

    Records the outcome on the checkpoint (phase ``failed``) so no later attempt resumes it. Safe to
    call again after a failure half-way (a retry, the sweeper): a turn never gets two ``turn.done``.
    """
    if _has_ended(lease):
        return
    emitter = TimelineEmitter(conversation_id=lease.conversation_id, turn_id=lease.turn_id, send=send)
    with transaction.atomic():
        emitter(error)
        emitter(TurnDone(outcome="failed"))
        Checkpoint.objects.filter(conversation_id=lease.conversation_id, turn_id=lease.turn_id).exclude(
            phase__in=TERMINAL_PHASES).update(phase="failed")


def _run_graph(lease: TurnLease, language: str, send: Callable[[int, dict], None]) -> None:
    sent = _events_sent(lease)
    if TurnDone.type in sent:
        return  # its worker died between its turn.done and the release: only the release is left to do
    conversation = Conversation.objects.select_related("user").get(pk=lease.conversation_id)
    turn_id = lease.turn_id
    emitter = TimelineEmitter(conversation_id=conversation.pk, turn_id=turn_id, send=send, guard=lease.check)
    state, start = _turn_state(conversation, turn_id, language)
    if start != GRAPH.start or sent:
        # An earlier attempt died: what it streamed after its checkpoint is streamed again now, so the
        # page is told what the answer is so far and drops the rest (docs/event-protocol.md).
        emitter(StatusEvent(code="resumed", message=_("Picking up where the assistant stopped…")))
        emitter(AnswerReset(text=state.answer, reasoning=state.reasoning))
    services = DjangoTurnServices(user=conversation.user, conversation_id=conversation.pk, turn_id=turn_id)
    if start == GRAPH.start and state.resume is None:
        services.memory_prefetch(state.user_text)  # its embedding overlaps what comes before the first prompt
    deps = Deps(llm=get_llm_client, emit=emitter, services=services, clock=timezone.now,
                meter=UsageMeter(state.usage))
    run_turn(GRAPH, state, deps, checkpoint=partial(_checkpoint_save, lease), start=start)


def _has_ended(lease: TurnLease) -> bool:
    """Tell whether the turn already stored its ``turn.done`` (its last event)."""
    return TimelineEvent.objects.filter(conversation_id=lease.conversation_id, turn_id=lease.turn_id,
                                        type=TurnDone.type).exists()


def _events_sent(lease: TurnLease) -> set[str]:
    """The types of the events earlier attempts of the turn sent: whether it ended and whether it ran
    before, in one query (the ``queued`` notice, sent before any attempt, does not count)."""
    return set(TimelineEvent.objects.filter(conversation_id=lease.conversation_id, turn_id=lease.turn_id).exclude(
        type=StatusEvent.type, payload__code="queued").order_by().values_list("type", flat=True).distinct())


class TurnDoneAfterRelease:
    """Sends a turn's frames as they come, except ``turn.done``, which waits for the conversation's release.

    A client answers ``turn.done`` at once (a card's accept, the next message); had it arrived before
    the lock was released, that answer would find the conversation busy. The event is still stored
    (and numbered) while the turn holds the lock; only the broadcast waits.
    """

    def __init__(self, send: Callable[[int, dict], None] = broadcast) -> None:
        self._send = send
        self._held: list[tuple[int, dict]] = []

    def __call__(self, conversation_id: int, frame: dict) -> None:
        if frame.get("type") == TurnDone.type:
            self._held.append((conversation_id, frame))
        else:
            self._send(conversation_id, frame)

    def release(self) -> None:
        held, self._held = self._held, []
        for conversation_id, frame in held:
            self._send(conversation_id, frame)


def turn_history(conversation: Conversation, turn_id: str) -> tuple[HistoryMessage, ...]:
    """Return the messages before the turn ``turn_id``, as the model sees them."""
    # history_list returns user and assistant rows only.
    return tuple(HistoryMessage(role=cast(Literal["user", "assistant"], row.role), content=row.content)
                 for row in history_list(conversation=conversation, before_turn=turn_id))


def _turn_state(conversation: Conversation, turn_id: str, language: str) -> tuple[TurnState, str]:
    """Return the state to run and the node to run first: the checkpoint's, or a fresh turn's.

    A turn that starts (afresh, or going on from a card she answered) works on her board as it is now.
    """
    checkpoint = Checkpoint.objects.filter(conversation=conversation).first()
    if checkpoint is not None and str(checkpoint.turn_id) == turn_id and checkpoint.phase not in TERMINAL_PHASES:
        state = TurnState.from_json(checkpoint.state, now=timezone.now())
        if checkpoint.phase != GRAPH.start:
            return state, checkpoint.phase
        return _on_current_board(conversation, state), GRAPH.start
    message = Message.objects.get(conversation=conversation, turn_id=turn_id, role=Message.Role.USER)
    working, preview_id, settled = _carried_over(checkpoint)
    state = TurnState(conversation_id=conversation.pk, turn_id=turn_id, user_text=message.content,
                      history=turn_history(conversation, turn_id), language=language,
                      options=TurnOptions.from_json(message.options), working=working, preview_id=preview_id)
    return _on_current_board(conversation, state, replay_edits=not settled), GRAPH.start


def _carried_over(checkpoint: Checkpoint | None) -> tuple[Working | None, int | None, bool]:
    """Return what a new turn inherits from the last one: its working schedule, its open preview, and
    whether that preview was settled (applied or discarded).

    Once the conversation's preview is settled, the edits in the working schedule are either in the
    database or unwanted: only its ids go on (the model has seen them), not its edits.
    """
    state = checkpoint.state if checkpoint is not None else {}
    preview_id: int | None = state.get("preview_id")
    settled = preview_id is not None and not PlanPreview.objects.filter(
        pk=preview_id, status=PlanPreview.Status.OPEN).exists()
    return working_from_json(state.get("working"), now=timezone.now()), None if settled else preview_id, settled


def _on_current_board(conversation: Conversation, state: TurnState, *, replay_edits: bool = True) -> TurnState:
    """Replay the conversation's edits onto the student's board as the database has it now.

    She may have applied a plan on the planning page, dragged a block or added an event since the
    last turn: the model must read and edit that board, not the one it saw then. An edit that no
    longer fits is dropped, with a sentence the turn passes on, and the open preview is written
    again without it, so applying it cannot meet a conflict the conversation already knows about.
    """
    now = timezone.now()
    working = working_for(state.working, user_id=conversation.user_id, now=now)
    if working is None:
        return state.updated(working=None, dropped=())
    rebased, dropped = working_rebase(user=conversation.user, now=now, working=working, replay_edits=replay_edits)
    if not dropped:
        return state.updated(working=rebased, dropped=())
    preview = working_publish(user=conversation.user, working=rebased, conversation_id=conversation.pk, now=now)
    return state.updated(working=rebased, dropped=dropped, preview_id=preview.pk if preview is not None else None)


def _checkpoint_save(lease: TurnLease, phase: str, state: TurnState) -> None:
    lease.check()  # an attempt that lost the turn must not overwrite the one that took it over
    values = {"turn_id": lease.turn_id, "phase": phase, "state": state.to_json()}
    # One UPDATE (a conversation has one checkpoint row, written after every node), not update_or_create's
    # BEGIN, SELECT, SAVEPOINT and write; ``updated_at`` is set by hand as ``update()`` skips auto_now.
    if Checkpoint.objects.filter(conversation_id=lease.conversation_id).update(**values, updated_at=timezone.now()):
        return
    try:
        with transaction.atomic():
            Checkpoint.objects.create(conversation_id=lease.conversation_id, **values)
    except IntegrityError:  # created meanwhile (only a lease lost at that moment could race here)
        Checkpoint.objects.filter(conversation_id=lease.conversation_id).update(**values, updated_at=timezone.now())
