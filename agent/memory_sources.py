"""The assistant's side of memory's message port: memory reads the turns it learns from here."""

from __future__ import annotations

from collections.abc import Iterable

from accounts.models import User
from agent.models import Message
from memory.conversations import SourceMessage


def messages_for_memory(*, user: User, message_ids: Iterable[int]) -> dict[int, SourceMessage]:
    """The student's own messages among ``message_ids``, for memory (see ``memory/conversations.py``)."""
    rows = (Message.objects.filter(pk__in=list(message_ids), conversation__user=user)
            .values_list("pk", "conversation_id", "content", "created_at"))
    return {pk: SourceMessage(id=pk, conversation_id=conversation_id, content=content, created_at=created_at)
            for pk, conversation_id, content, created_at in rows}
