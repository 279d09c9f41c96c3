"""Conversation titles: the stand-in a new conversation gets from its first message.

The turn services give a conversation this stand-in at once; the title consumer
(``agent.outbox_topics``) later replaces it with the model's title, but only while the stand-in
is still there, so a title the student chose is never overwritten.
"""

from __future__ import annotations

TITLE_LENGTH = 30


def title_from(text: str) -> str:
    """Return the stand-in title made of the message's first words."""
    line = " ".join(text.split())
    return line if len(line) <= TITLE_LENGTH else line[:TITLE_LENGTH - 1] + "…"
