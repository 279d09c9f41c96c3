"""Test data builders and helpers for the assistant."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from agent import services
from agent.models import Conversation, TimelineEvent
from agent.selectors import events_after


def make_conversation(user: User, *, title: str = "") -> Conversation:
    return Conversation.objects.create(user=user, title=title)


def route(name: str, *, prompt_tokens: int = 100, completion_tokens: int = 5) -> dict[str, Any]:
    """A scripted router answer choosing ``name``."""
    return {"text": f'{{"route": "{name}", "reason": "test"}}', "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens}


def reply(text: str, *, reasoning: str = "", prompt_tokens: int = 120, completion_tokens: int = 8,
          **fields: Any) -> dict[str, Any]:
    """A scripted streamed answer."""
    return {"text": text, "reasoning": reasoning, "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens, **fields}


def run_turn(user: User, conversation: Conversation, text: str) -> list[dict[str, Any]]:
    """Start a turn through the service, wait for its thread, return its stored events as sent."""
    started = services.turn_start(user=user, conversation_id=conversation.pk, text=text)
    assert services.turn_threads_join(timeout=20), "the turn did not finish"
    return [frame for frame in timeline(conversation) if frame["turn_id"] == started.turn_id]


def timeline(conversation: Conversation, after_seq: int = 0) -> list[dict[str, Any]]:
    """Return every stored event of the conversation as the frame clients got."""
    return [envelope.to_json() for envelope in events_after(conversation=conversation, after_seq=after_seq,
                                                               limit=10_000)]


def types(frames: list[dict[str, Any]]) -> list[str]:
    """Return the event types with runs of deltas folded: ["status", "assistant.delta*", ...]."""
    folded: list[str] = []
    for frame in frames:
        kind = frame["type"]
        if kind.endswith(".delta"):
            kind += "*"
            if folded and folded[-1] == kind:
                continue
        folded.append(kind)
    return folded


def deltas(frames: list[dict[str, Any]], kind: str = "assistant.delta") -> list[str]:
    return [frame["text"] for frame in frames if frame["type"] == kind]


def last_seq(conversation: Conversation) -> int:
    return TimelineEvent.objects.filter(conversation=conversation).count()

