"""Reads of the assistant's conversations: lists, one conversation, its messages and its timeline."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Max, QuerySet
from django.utils.translation import gettext as _

from agent.flow.contracts import Envelope, event_from_json
from agent.models import Conversation, Message, TimelineEvent
from smartmate.platform.exceptions import NotFoundError

HISTORY_MESSAGES = 20  # earlier messages the model sees
REPLAY_PAGE = 500


class ConversationNotFound(NotFoundError):
    code = "conversation_not_found"


def conversation_get(*, user, conversation_id: int) -> Conversation:
    """Return one of the student's conversations; another student's id is simply not found."""
    conversation = Conversation.objects.filter(user=user, pk=conversation_id).first()
    if conversation is None:
        raise ConversationNotFound(_("This conversation does not exist."), detail={"conversation_id": conversation_id})
    return conversation


def conversation_list(*, user, archived: bool = False) -> QuerySet[Conversation]:
    """Return the student's conversations, most recently active first."""
    return Conversation.objects.filter(user=user, archived=archived).order_by("-updated_at", "-id")


def message_list(*, conversation: Conversation) -> QuerySet[Message]:
    """Return a conversation's messages, oldest first."""
    return conversation.messages.order_by("id")


def history_list(*, conversation: Conversation, before_turn: str, limit: int = HISTORY_MESSAGES) -> list[Message]:
    """Return the last ``limit`` user/assistant messages before the turn ``before_turn``, oldest first."""
    rows = (conversation.messages.filter(role__in=[Message.Role.USER, Message.Role.ASSISTANT])
            .exclude(turn_id=before_turn).exclude(content="").order_by("-id")[:limit])
    return list(reversed(rows))


@dataclass(frozen=True)
class RunningTurn:
    """The turn running in a conversation and the seq its events start after."""

    turn_id: str
    after_seq: int


def running_turn_get(*, conversation: Conversation) -> RunningTurn | None:
    """Return the running turn, with the last seq stored before it started (to replay its events)."""
    if conversation.running_turn_id is None:
        return None
    turn_id = str(conversation.running_turn_id)
    events = TimelineEvent.objects.filter(conversation=conversation)
    first = events.filter(turn_id=turn_id).order_by("seq").values_list("seq", flat=True).first()
    after = first - 1 if first is not None else (events.aggregate(last=Max("seq"))["last"] or 0)
    return RunningTurn(turn_id=turn_id, after_seq=after)


def last_seq_get(*, conversation: Conversation) -> int:
    """Return the seq of the conversation's latest event (0 when there is none)."""
    return TimelineEvent.objects.filter(conversation=conversation).aggregate(last=Max("seq"))["last"] or 0


def timeline_event_list(*, conversation: Conversation, after_seq: int = 0,
                        limit: int = REPLAY_PAGE) -> QuerySet[TimelineEvent]:
    """Return up to ``limit`` stored event rows with a seq above ``after_seq``, in order."""
    return TimelineEvent.objects.filter(conversation=conversation, seq__gt=after_seq).order_by("seq")[:limit]


def events_after(*, conversation: Conversation, after_seq: int, limit: int = REPLAY_PAGE) -> list[Envelope]:
    """Return up to ``limit`` stored events with a seq above ``after_seq``, in order."""
    rows = (TimelineEvent.objects.filter(conversation=conversation, seq__gt=after_seq).order_by("seq")
            .values_list("seq", "type", "turn_id", "payload")[:limit])
    return [Envelope(seq=seq, conversation_id=conversation.pk, turn_id=str(turn_id),
                     event=event_from_json({"type": kind, **payload})) for seq, kind, turn_id, payload in rows]
