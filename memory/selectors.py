"""Memory reads, always for one student."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from memory.conversations import messages_get
from memory.core.dedup import normalize_text
from memory.core.forget_requests import is_forget_everything
from memory.exceptions import MemoryNotFound
from memory.models import MemoryItem, MemorySettings


def memory_list(*, user: User, status: str | None = MemoryItem.Status.ACTIVE, memory_type: str | None = None,
                query: str = "") -> QuerySet[MemoryItem]:
    """The student's memories, newest first, filtered by status, type and a text search."""
    rows = MemoryItem.objects.filter(user=user).select_related("superseded_by")
    if status:
        rows = rows.filter(status=status)
    if memory_type:
        rows = rows.filter(memory_type=memory_type)
    if query.strip():
        rows = rows.filter(Q(content__icontains=query.strip()))
    return rows.order_by("-updated_at", "-id")


#: What the forget tool is told to pass when the student wants everything forgotten (and what else means it).
EVERYTHING_WORDS = frozenset({"全部", "所有", "一切", "全部记忆", "所有记忆", "everything", "all", "all memories"})


def memory_forget_wants_everything(*, texts: list[str]) -> bool:
    """True when the words given to forget mean every memory ("全部", "把你记得的都忘掉", "everything")."""
    return any(normalize_text(text) in EVERYTHING_WORDS or is_forget_everything(text) for text in texts)


def memory_find_by_text(*, user: User, texts: list[str], limit: int = 20) -> list[MemoryItem]:
    """The student's active memories that say one of ``texts``: the same words, or words that contain
    or are contained in them (after normalizing case, width, spacing and punctuation); oldest first.
    Words that mean everything (``memory_forget_wants_everything``) find every active memory."""
    if memory_forget_wants_everything(texts=texts):
        return list(MemoryItem.objects.filter(user=user, status=MemoryItem.Status.ACTIVE).order_by("id"))
    wanted = [text for text in (normalize_text(raw) for raw in texts) if len(text) >= 2]
    if not wanted:
        return []
    rows = MemoryItem.objects.filter(user=user, status=MemoryItem.Status.ACTIVE).only("id", "memory_type", "content")
    found = [row for row in rows.order_by("id") if _says(normalize_text(row.content), wanted)]
    return found[:limit]


def _says(content: str, wanted: list[str]) -> bool:
    return any(text in content or (len(content) >= 2 and content in text) for text in wanted)


def memory_get(*, user: User, memory_id: int) -> MemoryItem:
    """One of the student's memories; another student's id is not found."""
    item = MemoryItem.objects.filter(user=user, pk=memory_id).select_related("superseded_by").first()
    if item is None:
        raise MemoryNotFound(_("This memory does not exist."), detail={"id": memory_id})
    return item


@dataclass(frozen=True)
class MemorySource:
    """Why the assistant knows a memory: what the student said, and when."""

    memory_id: int
    origin: str
    message_id: int | None
    conversation_id: int | None
    text: str
    said_at: datetime | None
    learned_at: datetime


def memory_source_get(*, user: User, memory_id: int) -> MemorySource:
    """Return the message a memory was learned from (empty text when it is gone)."""
    item = memory_get(user=user, memory_id=memory_id)
    message = messages_get(user=user, message_ids=[item.source_message_id]).get(item.source_message_id or 0)
    return MemorySource(memory_id=item.pk, origin=item.origin, message_id=message.id if message else None,
                        conversation_id=message.conversation_id if message else None,
                        text=message.content if message else "", said_at=message.created_at if message else None,
                        learned_at=item.created_at)


def memory_settings_get(*, user: User) -> MemorySettings:
    """The student's memory settings (defaults when they never changed them)."""
    row = MemorySettings.objects.filter(user=user).first()
    return row or MemorySettings(user=user)
