"""Writes of turns: start one for a message, resume one from an answered card, regenerate, cancel.

One running turn per conversation: ``turn_start`` takes the conversation's lock with a conditional
UPDATE (``running_turn_id`` NULL -> the new turn), which only one of two racing requests can win; the
turn releases it the same way when it ends (``agent.services.running``). While it runs, its worker
holds a lease on it (``agent.services.leases``); a turn whose worker died is resumed or ended by the
sweeper, or by the next message here (``agent.services.recovery``). A started turn is handed to a
worker once its transaction commits (``agent.services.dispatch``).
"""

from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Literal

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from agent.exceptions import InvalidText, NothingToRegenerate, StaleInteraction, TurnBusyError
from agent.flow.contracts import MAX_TEXT_LENGTH, StatusEvent, TurnDone
from agent.flow.graph import GRAPH
from agent.flow.state import PendingInteraction, Resume, TurnOptions, TurnState, TurnUsage
from agent.models import Checkpoint, Conversation, Message, TimelineEvent
from agent.selectors import conversation_get
from agent.services.dispatch import turn_dispatch
from agent.services.recovery import turn_recover
from agent.services.running import turn_history
from agent.timeline import TimelineEmitter
from agent.titles import title_from

# Above CELERY_TASK_TIME_LIMIT: only a dead worker holds it that long; a last resort behind the lease sweeper.
STALE_TURN_AFTER = timedelta(minutes=10)


@dataclass(frozen=True)
class TurnStarted:
    """A turn that was accepted and handed to a worker."""

    conversation_id: int
    turn_id: str
    message_id: int


def turn_start(*, user: User, conversation_id: int, text: str, language: str | None = None,
               options: TurnOptions | None = None, client_message_id: str = "") -> TurnStarted:
    """Store the student's message (with the page's ``options``) and start a turn that answers it.

    ``client_message_id`` is the page's idempotency key for the message: a resend with a key already
    stored here returns that message's turn and starts nothing (the first send reached the server, its
    acknowledgement did not reach the page). Raises ConversationNotFound, InvalidText, or TurnBusyError
    while another turn runs here.
    """
    text = _valid_text(text)
    language = _language(language)
    conversation = _settle_dead_turn(user, conversation_id)
    sent_before = _message_sent_before(conversation, client_message_id)
    if sent_before is not None:
        return sent_before
    try:
        with transaction.atomic():  # the lock's conditional UPDATE is the check: the row just read is not re-read
            turn_id = _lock_for_turn(conversation, language)
            if not conversation.title:
                Conversation.objects.filter(pk=conversation.pk, title="").update(title=title_from(text))
            message = Message.objects.create(
                conversation=conversation, role=Message.Role.USER, content=text, turn_id=turn_id,
                options=dataclasses.asdict(options or TurnOptions()), client_message_id=client_message_id or None)
            _dispatch_on_commit(user, conversation, turn_id, language)
    except (TurnBusyError, IntegrityError):
        # A resend racing its own first send: the first one holds the turn (busy) or wrote the key first.
        sent_before = _message_sent_before(conversation, client_message_id)
        if sent_before is None:
            raise
        return sent_before
    return TurnStarted(conversation_id=conversation.pk, turn_id=turn_id, message_id=message.pk)


def _message_sent_before(conversation: Conversation, client_message_id: str) -> TurnStarted | None:
    """Return the turn of the student's message stored under ``client_message_id`` here, if there is one."""
    if not client_message_id:
        return None
    message = Message.objects.filter(conversation=conversation, role=Message.Role.USER,
                                     client_message_id=client_message_id).first()
    if message is None:
        return None
    return TurnStarted(conversation_id=conversation.pk, turn_id=str(message.turn_id), message_id=message.pk)


def turn_cancel(*, user: User, conversation_id: int) -> bool:
    """Ask the running turn to stop; return whether one was running.

    A turn that started stops within a fraction of a second (between nodes, or while its model call
    waits or streams: ``agent.flow.streaming.CancelWatch``). A turn no worker has started yet (queued behind
    the student's other turn, or waiting for a thread or a worker) ends here and now: it would notice
    the stop only once it started, seconds later.
    """
    conversation = conversation_get(user=user, conversation_id=conversation_id)
    asked = bool(Conversation.objects.filter(pk=conversation.pk, running_turn_id__isnull=False)
                 .update(cancel_requested=True))
    if asked:
        _end_if_not_started(conversation.pk)
    return asked


def _end_if_not_started(conversation_id: int) -> None:
    """End the conversation's turn with ``cancelled`` if no attempt has started it; its worker then skips it.

    Not started: no lease was ever taken (``lease_expires_at`` NULL), no event but the queued notice and
    no checkpoint of its own. A turn that answers a card has one: its runtime takes the answer in first
    (an accepted change is made and delivered, then the turn stops). The conditional UPDATE decides a race
    with a worker claiming the lease (``lease_claim``): exactly one of the two wins.
    """
    waiting = Conversation.objects.filter(pk=conversation_id, lease_expires_at__isnull=True)
    row = waiting.values_list("running_turn_id", "turn_language").first()
    if row is None or row[0] is None or _turn_begun(conversation_id, str(row[0])):
        return
    turn_id, language = str(row[0]), row[1] or settings.LANGUAGE_CODE
    ended = waiting.filter(running_turn_id=turn_id).update(
        running_turn_id=None, turn_started_at=None, cancel_requested=False, turn_sent_at=None, lease_owner="")
    if not ended:
        return  # a worker took it meanwhile: its runtime stops it
    emit = TimelineEmitter(conversation_id=conversation_id, turn_id=turn_id)
    with translation.override(language):
        emit(StatusEvent(code="cancelled", message=_("Stopped at your request.")))
    emit(TurnDone(outcome="cancelled"))


def _turn_begun(conversation_id: int, turn_id: str) -> bool:
    """Tell whether an attempt ran the turn, or it resumes a checkpoint (an answered card)."""
    events = TimelineEvent.objects.filter(conversation_id=conversation_id, turn_id=turn_id).exclude(
        type=StatusEvent.type, payload__code="queued")
    return events.exists() or Checkpoint.objects.filter(conversation_id=conversation_id, turn_id=turn_id).exists()


def turn_resume(*, user: User, conversation_id: int, interaction_id: str,
                action: Literal["accept", "reject", "answer"], text: str = "",
                language: str | None = None) -> TurnStarted:
    """Answer the open confirmation or question and start the turn that goes on from it.

    Only the interaction the last turn left open can be answered, and only in its own way (accept /
    reject a confirmation, answer a question); anything else is ``stale_interaction``. What runs on
    accept is what the server stored with the card, never something the client sends.
    """
    language = _language(language)
    _settle_dead_turn(user, conversation_id)
    with transaction.atomic():
        conversation = conversation_get(user=user, conversation_id=conversation_id)
        checkpoint = Checkpoint.objects.select_for_update().filter(conversation=conversation).first()
        pending = _open_interaction(checkpoint, interaction_id, action)
        assert checkpoint is not None  # _open_interaction refused a missing one
        if action == "answer":
            text = _valid_text(text)
        turn_id = _lock_for_turn(conversation, language)
        state = TurnState.from_json(checkpoint.state, now=timezone.now())
        shown = text or (_("Accepted: %(what)s") if action == "accept" else _("Declined: %(what)s")) % {
            "what": pending.prompt[:200]}
        Message.objects.create(conversation=conversation, role=Message.Role.USER, content=shown, turn_id=turn_id,
                               options=dataclasses.asdict(state.options))
        resumed = state.updated(
            turn_id=turn_id, user_text=shown, resume=Resume(interaction_id, action, text), answer="", reasoning="",
            usage=TurnUsage(), outcome=None, preview_id=None, actions=(), history=turn_history(conversation, turn_id))
        checkpoint.turn_id, checkpoint.phase, checkpoint.state = turn_id, GRAPH.start, resumed.to_json()
        checkpoint.save(update_fields=["turn_id", "phase", "state", "updated_at"])
        _dispatch_on_commit(user, conversation, turn_id, language)
    return TurnStarted(conversation_id=conversation.pk, turn_id=turn_id, message_id=0)


def turn_regenerate(*, user: User, conversation_id: int, language: str | None = None) -> TurnStarted:
    """Answer the conversation's last message again: its earlier answer is replaced, not kept beside it.

    The last turn's two messages are removed (its timeline events stay: the timeline is a log) and a
    new turn starts with the same text and page choices. Refused while a turn runs.
    """
    language = _language(language)
    _settle_dead_turn(user, conversation_id)
    with transaction.atomic():
        conversation = conversation_get(user=user, conversation_id=conversation_id)
        last = conversation.messages.filter(role=Message.Role.USER).order_by("-created_at", "-pk").first()
        if last is None:
            raise NothingToRegenerate(_("There is no message to answer again yet."),
                                      detail={"conversation_id": conversation.pk})
        turn_id = _lock_for_turn(conversation, language)
        Message.objects.filter(conversation=conversation, turn_id=last.turn_id).delete()
        Checkpoint.objects.filter(conversation=conversation).update(phase="completed")
        message = Message.objects.create(conversation=conversation, role=Message.Role.USER, content=last.content,
                                         turn_id=turn_id, options=last.options,
                                         client_message_id=last.client_message_id)
        _dispatch_on_commit(user, conversation, turn_id, language)
    return TurnStarted(conversation_id=conversation.pk, turn_id=turn_id, message_id=message.pk)


def _lock_for_turn(conversation: Conversation, language: str) -> str:
    """Take the conversation for a new turn and return its id; raise TurnBusyError if one runs.

    The turn is handed off (``turn_sent_at``) but not leased yet: the worker that starts it takes the
    lease (``agent.services.leases``). A turn older than ``STALE_TURN_AFTER`` whose lease is not
    alive is taken over as a last resort (the sweeper normally ends such a turn within a minute).
    """
    now = timezone.now()
    turn_id = str(uuid.uuid4())
    stale = Q(turn_started_at__lt=now - STALE_TURN_AFTER) & (
        Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now))
    taken = Conversation.objects.filter(Q(running_turn_id__isnull=True) | stale, pk=conversation.pk).update(
        running_turn_id=turn_id, turn_started_at=now, cancel_requested=False, updated_at=now, turn_sent_at=now,
        turn_attempts=1, lease_expires_at=None, lease_owner="", turn_language=language)
    if not taken:
        raise TurnBusyError.in_conversation(conversation.pk)
    return turn_id


def _settle_dead_turn(user: User, conversation_id: int) -> Conversation:
    """End or resume a turn of this conversation whose worker died, so a new message need not wait for beat;
    return the conversation (the student's own: raises ConversationNotFound otherwise).

    Outside the new turn's transaction: what it reports is sent at once and must not roll back with
    a refused message. A conversation with no turn running has nothing to rescue (no recovery queries).
    """
    conversation = conversation_get(user=user, conversation_id=conversation_id)
    if conversation.running_turn_id is not None:
        turn_recover(conversation_id=conversation.pk)
    return conversation


def _dispatch_on_commit(user: User, conversation: Conversation, turn_id: str, language: str) -> None:
    # A worker that started before the commit would not find the turn's message or lock.
    transaction.on_commit(partial(turn_dispatch, student_id=user.pk, conversation_id=conversation.pk,
                                  turn_id=turn_id, language=language))


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
    return PendingInteraction.from_json(pending)


def _language(language: str | None) -> str:
    return language or translation.get_language() or settings.LANGUAGE_CODE


def _valid_text(text: str) -> str:
    text = (text or "").strip()
    if not text:
        raise InvalidText(_("Write a message first."), detail={"field": "text"})
    if len(text) > MAX_TEXT_LENGTH:
        raise InvalidText(_("The message is too long: at most %(max)s characters.") % {"max": MAX_TEXT_LENGTH},
                          detail={"field": "text", "max": MAX_TEXT_LENGTH}, code="text_too_long")
    return text
