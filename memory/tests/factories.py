"""Builders for memory tests."""

from __future__ import annotations

from accounts.models import User
from agent.models import Conversation, Message
from memory.core.dedup import content_hash
from memory.models import MemoryItem


def make_memory(user: User, content: str, memory_type: str = "preference", *, status: str = "active",
                source: Message | None = None, **fields) -> MemoryItem:
    """An active (or given-status) memory row, without going through the write path."""
    from django.utils import timezone

    now = timezone.now()
    fields.setdefault("valid_from", now)
    if status != "active":
        fields.setdefault("valid_to", now)
    return MemoryItem.objects.create(user=user, memory_type=memory_type, content=content,
                                     content_hash=content_hash(memory_type, content), status=status,
                                     source_message=source, **fields)


def make_message(user: User, text: str) -> Message:
    conversation = Conversation.objects.create(user=user)
    return Message.objects.create(conversation=conversation, role=Message.Role.USER, content=text)
