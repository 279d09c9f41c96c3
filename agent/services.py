"""Writes of the assistant: conversations, starting / cancelling / running turns, and websocket tickets.

Where a turn runs: with a broker configured, on the Celery ``agent`` queue (task ``agent.run_turn``;
events reach sockets through the Redis channel layer). In embedded mode (no broker, Celery eager)
it runs on a small thread pool of the web process instead (``agent.embedded_turns``): an
eager task would run inside the websocket consumer's call and block that socket (and its event
loop's thread pool slot) until the whole answer was written, so the student would see nothing
stream. The thread hands its events to the server's event loop (see ``agent.broadcast``).

One running turn per conversation: ``turn_start`` takes the conversation's lock with a conditional
UPDATE (``running_turn_id`` NULL -> the new turn), which only one of two racing requests can win; the
turn releases it the same way when it ends. A lock older than ``STALE_TURN_AFTER`` (a worker that
died) may be taken over.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from agent.contracts import MAX_TEXT_LENGTH, ErrorEvent, StatusEvent, TurnDone
from agent.deps import Deps, UsageMeter
from agent.embedded_turns import EMBEDDED_TURNS
from agent.exceptions import InvalidText, NothingToRegenerate, StaleInteraction, TicketInvalid, TurnBusyError
from agent.graph import GRAPH, TERMINAL_PHASES
from smartmate.llm import get_llm_client
from agent.models import Checkpoint, Conversation, Message, WebsocketTicket
from agent.runtime import run_turn
from agent.selectors import (  # noqa: F401 - reads the brief names as services too
    conversation_get,
    conversation_list,
    events_after,
    history_list,
)
from agent.state import HistoryMessage, PendingInteraction, Resume, TurnOptions, TurnState, TurnUsage
from agent.broadcast import broadcast
from agent.timeline import TimelineEmitter
from agent.turn_services import DjangoTurnServices
from schedule.models import PlanPreview

log = logging.getLogger("agent.services")

STALE_TURN_AFTER = timedelta(minutes=10)  # above CELERY_TASK_TIME_LIMIT: only a dead worker holds it that long
TITLE_LENGTH = 30
TICKET_LIFETIME = timedelta(seconds=60)


# --- Conversations --------------------------------------------------------------------------------


def conversation_create(*, user: User, title: str = "") -> Conversation:
    """Start an empty conversation."""
    return Conversation.objects.create(user=user, title=title.strip()[:100])


def conversation_rename(*, user: User, conversation_id: int, title: str) -> Conversation:
    """Give a conversation a new title."""
    conversation = conversation_get(user=user, conversation_id=conversation_id)
    conversation.title = title.strip()[:100]
    conversation.save(update_fields=["title", "updated_at"])
    return conversation


def conversation_archive(*, user: User, conversation_id: int, archived: bool = True) -> Conversation:
    """Move a conversation to the archive (or back)."""
    conversation = conversation_get(user=user, conversation_id=conversation_id)
    conversation.archived = archived
    conversation.save(update_fields=["archived", "updated_at"])
    return conversation


def conversation_delete(*, user: User, conversation_id: int) -> None:
    """Delete a conversation with its messages and timeline; refused while a turn runs in it."""
    conversation = conversation_get(user=user, conversation_id=conversation_id)
    deleted, _rows = Conversation.objects.filter(pk=conversation.pk, running_turn_id__isnull=True).delete()
    if not deleted:
        raise _busy(conversation.pk)


# --- Turns ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnStarted:
    """A turn that was accepted and handed to a worker."""

    conversation_id: int
    turn_id: str
    message_id: int


def turn_start(*, user: User, conversation_id: int, text: str, language: str | None = None,
               options: TurnOptions | None = None) -> TurnStarted:
    """Store the student's message (with the page's ``options``) and start a turn that answers it.

    Raises ConversationNotFound, InvalidText, or TurnBusyError while another turn runs here.
    """
    text = _valid_text(text)
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    with transaction.atomic():
        conversation = conversation_get(user=user, conversation_id=conversation_id)
        turn_id = _lock_for_turn(conversation)
        if not conversation.title:
            Conversation.objects.filter(pk=conversation.pk, title="").update(title=title_from(text))
        message = Message.objects.create(conversation=conversation, role=Message.Role.USER, content=text,
                                         turn_id=turn_id, options=dataclasses.asdict(options or TurnOptions()))
        transaction.on_commit(partial(_turn_dispatch, user.pk, conversation.pk, turn_id, language))
    return TurnStarted(conversation_id=conversation.pk, turn_id=turn_id, message_id=message.pk)


def _lock_for_turn(conversation: Conversation) -> str:
    """Take the conversation for a new turn and return its id; raise TurnBusyError if one runs."""
    now = timezone.now()
    turn_id = str(uuid.uuid4())
    free = Q(running_turn_id__isnull=True) | Q(turn_started_at__lt=now - STALE_TURN_AFTER)
    taken = Conversation.objects.filter(free, pk=conversation.pk).update(
        running_turn_id=turn_id, turn_started_at=now, cancel_requested=False, updated_at=now)
    if not taken:
        raise _busy(conversation.pk)
    return turn_id


def _history(conversation: Conversation, turn_id: str) -> tuple[HistoryMessage, ...]:
    return tuple(HistoryMessage(role=row.role, content=row.content)
                 for row in history_list(conversation=conversation, before_turn=turn_id))


def turn_cancel(*, user: User, conversation_id: int) -> bool:
    """Ask the running turn to stop at its next node boundary; return whether one was running."""
    conversation = conversation_get(user=user, conversation_id=conversation_id)
    return bool(Conversation.objects.filter(pk=conversation.pk, running_turn_id__isnull=False)
                .update(cancel_requested=True))


def turn_resume(*, user: User, conversation_id: int, interaction_id: str, action: str, text: str = "",
                language: str | None = None) -> TurnStarted:
    """Answer the open confirmation or question and start the turn that goes on from it.

    Only the interaction the last turn left open can be answered, and only in its own way (accept /
    reject a confirmation, answer a question); anything else is ``stale_interaction``. What runs on
    accept is what the server stored with the card, never something the client sends.
    """
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    with transaction.atomic():
        conversation = conversation_get(user=user, conversation_id=conversation_id)
        checkpoint = Checkpoint.objects.select_for_update().filter(conversation=conversation).first()
        pending = _open_interaction(checkpoint, interaction_id, action)
        if action == "answer":
            text = _valid_text(text)
        turn_id = _lock_for_turn(conversation)
        state = TurnState.from_json(checkpoint.state)
        shown = text or (_("Accepted: %(what)s") if action == "accept" else _("Declined: %(what)s")) % {
            "what": pending.prompt[:200]}
        Message.objects.create(conversation=conversation, role=Message.Role.USER, content=shown, turn_id=turn_id,
                               options=dataclasses.asdict(state.options))
        resumed = state.updated({
            "turn_id": turn_id, "user_text": shown, "resume": Resume(interaction_id, action, text),
            "answer": "", "reasoning": "", "usage": TurnUsage(), "outcome": None, "preview_id": None,
            "actions": (), "history": _history(conversation, turn_id)})
        checkpoint.turn_id, checkpoint.phase, checkpoint.state = turn_id, GRAPH.start, resumed.to_json()
        checkpoint.save(update_fields=["turn_id", "phase", "state", "updated_at"])
        transaction.on_commit(partial(_turn_dispatch, user.pk, conversation.pk, turn_id, language))
    return TurnStarted(conversation_id=conversation.pk, turn_id=turn_id, message_id=0)


def turn_regenerate(*, user: User, conversation_id: int, language: str | None = None) -> TurnStarted:
    """Answer the conversation's last message again: its earlier answer is replaced, not kept beside it.

    The last turn's two messages are removed (its timeline events stay: the timeline is a log) and a
    new turn starts with the same text and page choices. Refused while a turn runs.
    """
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    with transaction.atomic():
        conversation = conversation_get(user=user, conversation_id=conversation_id)
        last = conversation.messages.filter(role=Message.Role.USER).order_by("-created_at", "-pk").first()
        if last is None:
            raise NothingToRegenerate(_("There is no message to answer again yet."),
                                      detail={"conversation_id": conversation.pk})
        turn_id = _lock_for_turn(conversation)
        Message.objects.filter(conversation=conversation, turn_id=last.turn_id).delete()
        Checkpoint.objects.filter(conversation=conversation).update(phase="completed")
        message = Message.objects.create(conversation=conversation, role=Message.Role.USER, content=last.content,
                                         turn_id=turn_id, options=last.options)
        transaction.on_commit(partial(_turn_dispatch, user.pk, conversation.pk, turn_id, language))
    return TurnStarted(conversation_id=conversation.pk, turn_id=turn_id, message_id=message.pk)


def _open_interaction(checkpoint: Checkpoint | None, interaction_id: str, action: str) -> PendingInteraction:
    """Return the interaction the last turn left open if ``interaction_id`` names it and ``action`` fits it."""
    state = checkpoint.state if checkpoint is not None else {}
    pending = state.get("pending") or {}
    open_now = checkpoint is not None and checkpoint.phase == "interrupted"
    if not open_now or pending.get("interaction_id") != interaction_id:
        raise StaleInteraction(_("This confirmation or question is no longer open."),
                               detail={"interaction_id": interaction_id})
    fits = action == "answer" if pending["kind"] == "ask_user" else action in ("accept", "reject")
    if not fits:
        raise StaleInteraction(_("This card expects a different answer: accept or reject a confirmation, "
                                 "answer a question."), detail={"interaction_id": interaction_id, "action": action})
    return PendingInteraction(**pending)


def turn_run(*, conversation_id: int, turn_id: str, language: str) -> None:
    """Run (or resume after a crash) the turn ``turn_id`` to its end, then release the conversation.

    Called by the Celery task or the embedded thread. A turn that no longer holds the lock
    (a duplicate delivery, a conversation deleted meanwhile) is skipped.
    """
    conversation = Conversation.objects.select_related("user").filter(pk=conversation_id).first()
    if conversation is None or str(conversation.running_turn_id) != turn_id:
        log.info("Turn %s of conversation %s is not running any more; skipped", turn_id, conversation_id)
        return
    done_sender = TurnDoneAfterRelease()
    emitter = TimelineEmitter(conversation_id=conversation_id, turn_id=turn_id, send=done_sender)
    try:
        with translation.override(language):
            state, start = _turn_state(conversation, turn_id, language)
            if start != GRAPH.start:
                emitter(StatusEvent(code="resumed", message=_("Picking up where the assistant stopped…")))
            services = DjangoTurnServices(user=conversation.user, conversation_id=conversation_id, turn_id=turn_id)
            deps = Deps(llm=get_llm_client, emit=emitter, services=services, clock=timezone.now,
                        meter=UsageMeter(state.usage))
            run_turn(GRAPH, state, deps, checkpoint=partial(_checkpoint_save, conversation_id, turn_id),
                     start=start)
    except Exception:  # noqa: BLE001 - the process edge: log, tell the student, free the conversation
        log.exception("Turn %s of conversation %s crashed", turn_id, conversation_id)
        _close_crashed_turn(emitter)
    finally:
        Conversation.objects.filter(pk=conversation_id, running_turn_id=turn_id).update(
            running_turn_id=None, turn_started_at=None, cancel_requested=False)
        done_sender.release()


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


def _turn_state(conversation: Conversation, turn_id: str, language: str) -> tuple[TurnState, str]:
    checkpoint = Checkpoint.objects.filter(conversation=conversation).first()
    if checkpoint is not None and str(checkpoint.turn_id) == turn_id and checkpoint.phase not in TERMINAL_PHASES:
        return TurnState.from_json(checkpoint.state), checkpoint.phase
    message = Message.objects.get(conversation=conversation, turn_id=turn_id, role=Message.Role.USER)
    carried = _carried_over(checkpoint)
    state = TurnState(conversation_id=conversation.pk, turn_id=turn_id, user_text=message.content,
                      history=_history(conversation, turn_id), language=language,
                      options=TurnOptions.from_json(message.options), working=carried.get("working"),
                      preview_id=carried.get("preview_id"))
    return state, GRAPH.start


def _carried_over(checkpoint: Checkpoint | None) -> dict:
    """Return what a new turn inherits from the last one: its working schedule, unless it became real.

    Once the conversation's preview is applied or discarded, the drafts in the working schedule are
    either in the database or unwanted: the next turn loads the schedule afresh.
    """
    state = checkpoint.state if checkpoint is not None else {}
    preview_id = state.get("preview_id")
    if preview_id and not PlanPreview.objects.filter(pk=preview_id, status=PlanPreview.Status.OPEN).exists():
        return {}
    return {"working": state.get("working"), "preview_id": preview_id}


def _checkpoint_save(conversation_id: int, turn_id: str, phase: str, state: TurnState) -> None:
    Checkpoint.objects.update_or_create(conversation_id=conversation_id,
                                        defaults={"turn_id": turn_id, "phase": phase, "state": state.to_json()})


def _close_crashed_turn(emitter: TimelineEmitter) -> None:
    try:
        emitter(ErrorEvent(code="internal_error",
                           message=_("Something went wrong on our side. Please try again in a moment.")))
        emitter(TurnDone(outcome="failed"))
    except Exception:  # noqa: BLE001 - the database itself may be what failed
        log.exception("Could not report the crash of turn %s", emitter.turn_id)


def _valid_text(text: str) -> str:
    text = (text or "").strip()
    if not text:
        raise InvalidText(_("Write a message first."), detail={"field": "text"})
    if len(text) > MAX_TEXT_LENGTH:
        raise InvalidText(_("The message is too long: at most %(max)s characters.") % {"max": MAX_TEXT_LENGTH},
                          detail={"field": "text", "max": MAX_TEXT_LENGTH}, code="text_too_long")
    return text


def title_from(text: str) -> str:
    """Return the stand-in title made of the message's first words."""
    line = " ".join(text.split())
    return line if len(line) <= TITLE_LENGTH else line[:TITLE_LENGTH - 1] + "…"


def _busy(conversation_id: int) -> TurnBusyError:
    return TurnBusyError(_("The assistant is still answering in this conversation. Wait for it to finish, "
                           "or stop it first."), detail={"conversation_id": conversation_id})


# --- Where turns run --------------------------------------------------------------------------------

def _turn_dispatch(student_id: int, conversation_id: int, turn_id: str, language: str) -> None:
    """Queue the turn on Celery (broker configured) or on the embedded pool (embedded mode)."""
    try:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            EMBEDDED_TURNS.submit(student_id=student_id, turn_id=turn_id,
                                  work=partial(_turn_thread, conversation_id, turn_id, language))
        else:
            from agent.tasks import run_turn as run_turn_task

            run_turn_task.delay(conversation_id, turn_id, language)
    except Exception:
        # Nothing will run the turn: free the conversation so the student can try again.
        Conversation.objects.filter(pk=conversation_id, running_turn_id=turn_id).update(running_turn_id=None)
        raise


def _turn_thread(conversation_id: int, turn_id: str, language: str) -> None:
    try:
        close_old_connections()
        turn_run(conversation_id=conversation_id, turn_id=turn_id, language=language)
    finally:
        connection.close()  # this thread's own connection; nothing else would ever close it


def turn_threads_join(timeout: float = 30.0) -> bool:
    """Wait for the embedded turns of this process; return whether all finished (tests, shutdown)."""
    return EMBEDDED_TURNS.join(timeout)


# --- Websocket tickets ------------------------------------------------------------------------------


@dataclass(frozen=True)
class IssuedTicket:
    """A ticket as handed to the client (only its hash is stored)."""

    ticket: str
    expires_at: datetime


def ticket_create(*, user: User) -> IssuedTicket:
    """Issue a single-use ticket that opens ``/ws/agent/`` within 60 seconds."""
    now = timezone.now()
    WebsocketTicket.objects.filter(expires_at__lt=now - timedelta(hours=1)).delete()  # keep the table small
    ticket = secrets.token_urlsafe(32)
    expires_at = now + TICKET_LIFETIME
    WebsocketTicket.objects.create(user=user, digest=_digest(ticket), expires_at=expires_at)
    return IssuedTicket(ticket=ticket, expires_at=expires_at)


def ticket_redeem(*, ticket: str) -> User:
    """Use a ticket up and return its student; raise TicketInvalid when unknown, used or expired."""
    digest = _digest(ticket)
    now = timezone.now()
    used = WebsocketTicket.objects.filter(digest=digest, used_at__isnull=True, expires_at__gt=now).update(used_at=now)
    user = WebsocketTicket.objects.select_related("user").get(digest=digest).user if used else None
    if user is None or not user.is_active:
        raise TicketInvalid(_("This ticket is unknown, already used or expired. Ask for a new one."))
    return user


def _digest(ticket: str) -> str:
    return hashlib.sha256(ticket.encode("utf-8")).hexdigest()
