"""Test data builders and helpers for the assistant."""

from __future__ import annotations

from typing import Any, Literal

from accounts.models import User
from agent import embedded_turns
from agent.models import Conversation, TimelineEvent
from agent.selectors import events_after
from agent.services.turns import turn_resume, turn_start


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


def run_turn(user: User, conversation: Conversation, text: str, **options: Any) -> list[dict[str, Any]]:
    """Start a turn through the service (``options``: task_class_ids, thinking, always_execute), wait
    for its thread, return its stored events as sent."""
    from agent.flow.state import TurnOptions

    started = turn_start(user=user, conversation_id=conversation.pk, text=text,
                         options=TurnOptions(**options) if options else None)
    assert embedded_turns.join(timeout=20), "the turn did not finish"
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



def plan(goal: str = "安排复习", steps: list[str] | None = None, *, rough_build: bool = False,
         task_class_ids: list[int] | None = None, question: str | None = None) -> dict[str, Any]:
    """A scripted plan-stage answer (JSON)."""
    import json

    body = {"goal": goal, "steps": [{"title": title, "done_when": f"{title}完成"} for title in (steps or ["查看空闲时间"])],
            "rough_build": rough_build, "task_class_ids": task_class_ids or [], "question": question}
    return {"text": json.dumps(body, ensure_ascii=False), "prompt_tokens": 150, "completion_tokens": 30}


def tool_call(name: str, arguments: dict[str, Any] | None = None, *, text: str = "",
              call_id: str | None = None) -> dict[str, Any]:
    """A scripted execute-stage answer calling one tool."""
    call = {"name": name, "arguments": arguments or {}}
    if call_id:
        call["id"] = call_id
    return {"text": text, "tool_calls": [call], "prompt_tokens": 200, "completion_tokens": 20}


def resume(user: User, conversation: Conversation, interaction_id: str, action: Literal["accept", "reject", "answer"],
           text: str = "") -> list[dict[str, Any]]:
    """Answer the open card through the service, wait for the turn, return its events."""
    started = turn_resume(user=user, conversation_id=conversation.pk, interaction_id=interaction_id,
                          action=action, text=text)
    assert embedded_turns.join(timeout=20), "the resumed turn did not finish"
    return [frame for frame in timeline(conversation) if frame["turn_id"] == started.turn_id]


def last_of(frames: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    """Return the last frame of type ``kind``."""
    return [frame for frame in frames if frame["type"] == kind][-1]


def shown_answer(frames: list[dict[str, Any]]) -> str:
    """The answer as the chat page builds it: deltas appended, ``answer.reset`` replacing what came before."""
    text = ""
    for frame in frames:
        if frame["type"] == "assistant.delta":
            text += frame["text"]
        elif frame["type"] == "answer.reset":
            text = frame["text"]
    return text
