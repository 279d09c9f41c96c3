"""The conversation messages memory learns from, read through a port the assistant fills in.

Memory sits below the assistant (README, "Layout"): the assistant recalls memories during a turn,
so memory cannot import the assistant's models. Yet a memory job reads the turn it learns from and
a memory shows the message it came from. The assistant registers its reader when its app is ready
(``agent/apps.py``); without one (no assistant installed) there are no messages to read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from accounts.models import User


@dataclass(frozen=True, slots=True)
class SourceMessage:
    id: int
    conversation_id: int
    content: str
    created_at: datetime


class MessageReader(Protocol):
    def __call__(self, *, user: User, message_ids: Iterable[int]) -> dict[int, SourceMessage]:
        """The student's own messages among ``message_ids`` (another student's or deleted ones are left out)."""
        ...


_reader: MessageReader | None = None


def message_reader_set(reader: MessageReader | None) -> None:
    global _reader
    _reader = reader


def messages_get(*, user: User, message_ids: Iterable[int | None]) -> dict[int, SourceMessage]:
    """The student's messages by id; ``None`` ids, deleted messages and other students' are left out."""
    wanted = [pk for pk in message_ids if pk]
    if not wanted or _reader is None:
        return {}
    return _reader(user=user, message_ids=wanted)
