"""Run a started turn to its end: from its checkpoint (or afresh), through the graph, then free the conversation.

Called by the Celery task (``agent.tasks``) or an embedded thread (``agent.services.dispatch``),
never by a request: a turn may take as long as the model does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Literal, cast

from django.utils import timezone, translation
from django.utils.translation import gettext as _

from agent.broadcast import broadcast
from agent.contracts import ErrorEvent, StatusEvent, TurnDone
from agent.deps import Deps, UsageMeter
from agent.graph import GRAPH, TERMINAL_PHASES
from agent.models import Checkpoint, Conversation, Message
from agent.runtime import run_turn
from agent.selectors import history_list
from agent.state import HistoryMessage, TurnOptions, TurnState
from agent.timeline import TimelineEmitter
from agent.turn_services import DjangoTurnServices
from agent.working import Working, working_from_json
from schedule.models import PlanPreview
from smartmate.llm import get_llm_client

log = logging.getLogger("agent.services")


def turn_run(*, conversation_id: int, turn_id: str, language: str) -> None:
    """Run (or resume after a crash) the turn ``turn_id`` to its end, then release the conversation.

    A turn that no longer holds the lock (a duplicate delivery, a conversation deleted meanwhile)
    is skipped.
    """
    conversation = Conversation.objects.select_related("user").filter(pk=conversation_id).first()
    if conversation is None or str(conversation.running_turn_id) != turn_id:
        log.info("Turn %s of conversation %s is not running any more; skipped", turn_id, conversation_id)
        return
    done_sender = TurnDoneAfterRelease()
    emitter = TimelineEmitter(conversation_id=conversation_id, turn_id=turn_id, send=done_sender)
    try:
        with translation.override(language):
            _run_graph(conversation, turn_id, language, emitter)
    except Exception:  # the process edge: log, tell the student, free the conversation
        log.exception("Turn %s of conversation %s crashed", turn_id, conversation_id)
        _close_crashed_turn(emitter)
    finally:
        Conversation.objects.filter(pk=conversation_id, running_turn_id=turn_id).update(
            running_turn_id=None, turn_started_at=None, cancel_requested=False)
        done_sender.release()


def _run_graph(conversation: Conversation, turn_id: str, language: str, emitter: TimelineEmitter) -> None:
    state, start = _turn_state(conversation, turn_id, language)
    if start != GRAPH.start:
        emitter(StatusEvent(code="resumed", message=_("Picking up where the assistant stopped…")))
    services = DjangoTurnServices(user=conversation.user, conversation_id=conversation.pk, turn_id=turn_id)
    deps = Deps(llm=get_llm_client, emit=emitter, services=services, clock=timezone.now,
                meter=UsageMeter(state.usage))
    run_turn(GRAPH, state, deps, checkpoint=partial(_checkpoint_save, conversation.pk, turn_id), start=start)


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
    """Return the state to run and the node to run first: the checkpoint's, or a fresh turn's."""
    checkpoint = Checkpoint.objects.filter(conversation=conversation).first()
    if checkpoint is not None and str(checkpoint.turn_id) == turn_id and checkpoint.phase not in TERMINAL_PHASES:
        return TurnState.from_json(checkpoint.state, now=timezone.now()), checkpoint.phase
    message = Message.objects.get(conversation=conversation, turn_id=turn_id, role=Message.Role.USER)
    working, preview_id = _carried_over(checkpoint)
    state = TurnState(conversation_id=conversation.pk, turn_id=turn_id, user_text=message.content,
                      history=turn_history(conversation, turn_id), language=language,
                      options=TurnOptions.from_json(message.options), working=working, preview_id=preview_id)
    return state, GRAPH.start


def _carried_over(checkpoint: Checkpoint | None) -> tuple[Working | None, int | None]:
    """Return what a new turn inherits from the last one: its working schedule and preview, unless applied.

    Once the conversation's preview is applied or discarded, the drafts in the working schedule are
    either in the database or unwanted: the next turn loads the schedule afresh.
    """
    state = checkpoint.state if checkpoint is not None else {}
    preview_id = state.get("preview_id")
    if preview_id and not PlanPreview.objects.filter(pk=preview_id, status=PlanPreview.Status.OPEN).exists():
        return None, None
    return working_from_json(state.get("working"), now=timezone.now()), preview_id


def _checkpoint_save(conversation_id: int, turn_id: str, phase: str, state: TurnState) -> None:
    Checkpoint.objects.update_or_create(conversation_id=conversation_id,
                                        defaults={"turn_id": turn_id, "phase": phase, "state": state.to_json()})


def _close_crashed_turn(emitter: TimelineEmitter) -> None:
    try:
        emitter(ErrorEvent(code="internal_error",
                           message=_("Something went wrong on our side. Please try again in a moment.")))
        emitter(TurnDone(outcome="failed"))
    except Exception:  # the database itself may be what failed
        log.exception("Could not report the crash of turn %s", emitter.turn_id)
