"""Writes of conversations: create, rename, archive, delete."""

from __future__ import annotations

from accounts.models import User
from agent.exceptions import TurnBusyError
from agent.models import Conversation
from agent.selectors import conversation_get
from smartmate.platform.caps import cap_check

TITLE_MAX_LENGTH = 100  # the model field's length


def conversation_create(*, user: User, title: str = "") -> Conversation:
    """Start an empty conversation; past the student's cap a 429 ``limit_reached``."""
    cap_check("conversations", Conversation.objects.filter(user=user))
    return Conversation.objects.create(user=user, title=title.strip()[:TITLE_MAX_LENGTH])


def conversation_rename(*, user: User, conversation_id: int, title: str) -> Conversation:
    """Give a conversation a new title."""
    conversation = conversation_get(user=user, conversation_id=conversation_id)
    conversation.title = title.strip()[:TITLE_MAX_LENGTH]
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
        raise TurnBusyError.in_conversation(conversation.pk)
