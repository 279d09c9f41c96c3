"""The assistant's wire protocol: every frame between the browser (or an API client) and the server.

The protocol (connecting, client frames, stored events and their order, error frames, cancel,
replay) is described in docs/event-protocol.md; the dataclasses below are its only implementation,
and the tests round-trip each of them through JSON. Change the document with the code.

Client frames: ``chat.send``, ``chat.resume``, ``chat.regenerate``, ``chat.cancel``, ``replay``.
Server events, stored and numbered by ``seq`` per conversation: ``status``, ``context``,
``reasoning.delta``, ``assistant.delta``, ``tool.call``, ``tool.result``, ``confirm.request``,
``ask.user``, ``preview.ready``, ``usage``, ``answer.reset``, ``error`` and ``turn.done`` (always a turn's last).
A refused client frame is answered by an ``error`` frame that is not stored and has no ``seq``; a stored
``chat.send`` by a ``chat.ack`` frame (not stored either).
"""

from __future__ import annotations

import dataclasses
import re
import uuid
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeGuard

from smartmate.platform.exceptions import AppError

MAX_TEXT_LENGTH = 4000
MAX_FRAME_BYTES = 16 * 1024

Outcome = Literal["completed", "failed", "cancelled", "interrupted", "truncated"]


# --- Server events ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class StatusEvent:
    """What the assistant is doing now (``code`` is stable, ``message`` is for people)."""

    code: str
    message: str
    type: ClassVar[str] = "status"


@dataclass(frozen=True)
class AssistantDelta:
    """The next piece of the visible answer."""

    text: str
    type: ClassVar[str] = "assistant.delta"


@dataclass(frozen=True)
class ReasoningDelta:
    """The next piece of the model's reasoning."""

    text: str
    type: ClassVar[str] = "reasoning.delta"


@dataclass(frozen=True)
class ToolCallEvent:
    """The assistant calls a tool."""

    call_id: str
    name: str  # for the details fold and clients; students see ``label``
    arguments: dict[str, Any] = field(default_factory=dict)
    summary: str = ""
    label: str = ""
    type: ClassVar[str] = "tool.call"


@dataclass(frozen=True)
class ToolResultEvent:
    """A tool answered (``status``: done, failed or blocked)."""

    call_id: str
    name: str
    status: Literal["done", "failed", "blocked"]
    summary: str = ""
    result: dict[str, Any] = field(default_factory=dict)
    label: str = ""
    type: ClassVar[str] = "tool.result"


@dataclass(frozen=True)
class ConfirmRequest:
    """The turn waits for the student to accept or reject something (a plan, a write)."""

    interaction_id: str
    title: str
    summary: str
    details: dict[str, Any] = field(default_factory=dict)
    type: ClassVar[str] = "confirm.request"


@dataclass(frozen=True)
class AskUser:
    """The turn waits for the student to answer a question."""

    interaction_id: str
    question: str
    type: ClassVar[str] = "ask.user"


@dataclass(frozen=True)
class PreviewReady:
    """A schedule preview is ready to look at and apply."""

    preview_id: int
    summary: str = ""
    type: ClassVar[str] = "preview.ready"


@dataclass(frozen=True)
class ContextUsage:
    """How the prompt's token budget is spent, part by part."""

    parts: dict[str, int]
    used: int
    budget: int
    type: ClassVar[str] = "context"


@dataclass(frozen=True)
class UsageEvent:
    """The tokens the turn's model calls cost."""

    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    calls: int
    estimated: bool = False
    type: ClassVar[str] = "usage"


@dataclass(frozen=True)
class TurnDone:
    """The turn is over; always its last event."""

    outcome: Outcome
    message_id: int | None = None
    type: ClassVar[str] = "turn.done"


@dataclass(frozen=True)
class AnswerReset:
    """A turn runs again after its worker died: show ``text`` (and ``reasoning``) as its answer so far.

    What the dead attempt streamed after its last checkpoint is streamed again by the new attempt;
    a client that kept it would show that part twice.
    """

    text: str = ""
    reasoning: str = ""
    type: ClassVar[str] = "answer.reset"


@dataclass(frozen=True)
class ErrorEvent:
    """Something went wrong; the same ``{code, message, detail}`` shape as every API error."""

    code: str
    message: str
    detail: Any = None
    type: ClassVar[str] = "error"

    @classmethod
    def from_error(cls, error: AppError) -> ErrorEvent:
        """Render a domain error as an event, in the words meant for the student."""
        return cls(code=error.code, message=error.student_message(), detail=error.student_detail())


Event = (StatusEvent | AssistantDelta | ReasoningDelta | ToolCallEvent | ToolResultEvent | ConfirmRequest
         | AskUser | PreviewReady | ContextUsage | UsageEvent | AnswerReset | TurnDone | ErrorEvent)
EVENT_TYPES: dict[str, type[Event]] = {kind.type: kind for kind in (
    StatusEvent, AssistantDelta, ReasoningDelta, ToolCallEvent, ToolResultEvent, ConfirmRequest, AskUser,
    PreviewReady, ContextUsage, UsageEvent, AnswerReset, TurnDone, ErrorEvent)}


def event_payload(event: Event) -> dict[str, Any]:
    """Return the event's own fields (without ``type``), as stored in the timeline."""
    return dataclasses.asdict(event)


def event_to_json(event: Event) -> dict[str, Any]:
    """Return the event as a JSON object with its ``type``."""
    return {"type": event.type, **event_payload(event)}


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild an event from its JSON object; raise ValueError for an unknown type or fields."""
    kind = EVENT_TYPES.get(str(data.get("type")))
    if kind is None:
        raise ValueError(f"Unknown event type {data.get('type')!r}.")
    fields = {name: value for name, value in data.items() if name != "type"}
    try:
        return kind(**fields)
    except TypeError as exc:
        raise ValueError(f"Bad fields for {kind.type}: {exc}") from exc


@dataclass(frozen=True)
class Envelope:
    """A stored event as sent: its place in the conversation and the turn that produced it."""

    seq: int
    conversation_id: int
    turn_id: str
    event: Event

    def to_json(self) -> dict[str, Any]:
        """Return the frame sent to clients: the event's fields plus the envelope's."""
        return {**event_to_json(self.event), "seq": self.seq, "conversation_id": self.conversation_id,
                "turn_id": self.turn_id}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Envelope:
        """Parse a frame built by ``to_json``."""
        rest = {name: value for name, value in data.items() if name not in ("seq", "conversation_id", "turn_id")}
        return cls(seq=int(data["seq"]), conversation_id=int(data["conversation_id"]),
                   turn_id=str(data["turn_id"]), event=event_from_json(rest))


def error_frame(error: AppError, **extra: Any) -> dict[str, Any]:
    """Return an unstored error frame answering one client frame."""
    return {"type": "error", **error.as_dict(), **extra}


# --- Client frames ----------------------------------------------------------------------------------


class FrameError(AppError):
    """A client frame that cannot be accepted as sent."""

    code = "invalid_frame"


@dataclass(frozen=True)
class ChatSend:
    """Start a turn with the student's message and the page's choices for it."""

    conversation_id: int
    text: str
    task_class_ids: tuple[int, ...] = ()
    thinking: Literal["auto", "on", "off"] = "auto"
    always_execute: bool = False
    # The client's own id of this message: a resend with the same id (the socket dropped before the
    # ack) is acknowledged again and never starts a second turn. Empty: the client does not resend.
    client_message_id: str = ""
    type: ClassVar[str] = "chat.send"


@dataclass(frozen=True)
class ChatResume:
    """Answer an open confirmation or question."""

    conversation_id: int
    interaction_id: str
    action: Literal["accept", "reject", "answer"]
    text: str = ""
    type: ClassVar[str] = "chat.resume"


@dataclass(frozen=True)
class ChatRegenerate:
    """Answer the last message again."""

    conversation_id: int
    type: ClassVar[str] = "chat.regenerate"


@dataclass(frozen=True)
class ChatCancel:
    """Stop the running turn at its next node boundary."""

    conversation_id: int
    type: ClassVar[str] = "chat.cancel"


@dataclass(frozen=True)
class Replay:
    """Follow a conversation and receive its stored events after ``after_seq``."""

    conversation_id: int
    after_seq: int = 0
    type: ClassVar[str] = "replay"


ClientFrame = ChatSend | ChatResume | ChatRegenerate | ChatCancel | Replay
FRAME_TYPES: dict[str, type[ClientFrame]] = {kind.type: kind for kind in (ChatSend, ChatResume, ChatRegenerate,
                                                                          ChatCancel, Replay)}
RESUME_ACTIONS = ("accept", "reject", "answer")
THINKING_CHOICES = ("auto", "on", "off")
MAX_TASK_CLASSES = 20
MAX_ID = 2**63 - 1
MAX_CLIENT_MESSAGE_ID = 64
_CLIENT_MESSAGE_ID = re.compile(rf"^[A-Za-z0-9_-]{{1,{MAX_CLIENT_MESSAGE_ID}}}$")


def frame_to_json(frame: ClientFrame) -> dict[str, Any]:
    """Return the frame as a client sends it."""
    return {"type": frame.type, **dataclasses.asdict(frame)}


def frame_from_json(data: Any) -> ClientFrame:
    """Validate a decoded client frame; raise FrameError saying exactly what is wrong."""
    if not isinstance(data, dict):
        raise FrameError("A frame must be a JSON object.", code="malformed_frame")
    name = data.get("type")
    kind = FRAME_TYPES.get(name) if isinstance(name, str) else None
    if kind is None:
        raise FrameError("Unknown frame type; send one of: " + ", ".join(FRAME_TYPES) + ".",
                         code="unknown_frame", detail={"type": data.get("type")})
    unknown = set(data) - {"type"} - {f.name for f in dataclasses.fields(kind)}
    if unknown:
        raise FrameError(f"Unknown fields in {kind.type}: {', '.join(sorted(unknown))}.",
                         detail={"fields": sorted(unknown)})
    conversation_id = _positive_int(data, "conversation_id")
    if kind is ChatSend:
        return _send(data, conversation_id)
    if kind is ChatCancel:
        return ChatCancel(conversation_id=conversation_id)
    if kind is ChatRegenerate:
        return ChatRegenerate(conversation_id=conversation_id)
    if kind is Replay:
        after = data.get("after_seq", 0)
        if not _is_int(after) or after < 0:
            raise FrameError("after_seq must be a whole number, 0 or more.", detail={"field": "after_seq"})
        return Replay(conversation_id=conversation_id, after_seq=after)
    return _resume(data, conversation_id)


def _send(data: dict[str, Any], conversation_id: int) -> ChatSend:
    ids = data.get("task_class_ids", [])
    if (not isinstance(ids, list) or len(ids) > MAX_TASK_CLASSES
            or not all(_is_int(value) and value > 0 for value in ids)):
        raise FrameError(f"task_class_ids must be a list of at most {MAX_TASK_CLASSES} task class ids.",
                         detail={"field": "task_class_ids"})
    thinking = data.get("thinking", "auto")
    if thinking not in THINKING_CHOICES:
        raise FrameError("thinking must be auto, on or off.", detail={"field": "thinking"})
    always_execute = data.get("always_execute", False)
    if not isinstance(always_execute, bool):
        raise FrameError("always_execute must be true or false.", detail={"field": "always_execute"})
    return ChatSend(conversation_id=conversation_id, text=_text(data, "text", required=True),
                    task_class_ids=tuple(dict.fromkeys(ids)), thinking=thinking, always_execute=always_execute,
                    client_message_id=_client_message_id(data))


def _client_message_id(data: dict[str, Any]) -> str:
    value = data.get("client_message_id", "")
    if value == "":
        return ""
    if not isinstance(value, str) or not _CLIENT_MESSAGE_ID.match(value):
        raise FrameError(f"client_message_id must be 1 to {MAX_CLIENT_MESSAGE_ID} letters, digits, - or _.",
                         detail={"field": "client_message_id"})
    return value


def send_ack(*, conversation_id: int, client_message_id: str, message_id: int, turn_id: str) -> dict[str, Any]:
    """Return the unstored frame that tells the client its ``chat.send`` is stored (sent after the commit)."""
    return {"type": "chat.ack", "conversation_id": conversation_id, "client_message_id": client_message_id,
            "message_id": message_id, "turn_id": turn_id}


def _resume(data: dict[str, Any], conversation_id: int) -> ChatResume:
    action = data.get("action")
    if action not in RESUME_ACTIONS:
        raise FrameError("action must be accept, reject or answer.", detail={"field": "action"})
    interaction_id = data.get("interaction_id")
    if not isinstance(interaction_id, str) or not interaction_id.strip():
        raise FrameError("interaction_id is required.", detail={"field": "interaction_id"})
    text = _text(data, "text", required=action == "answer")
    return ChatResume(conversation_id=conversation_id, interaction_id=interaction_id.strip(), action=action,
                      text=text)


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _positive_int(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if not _is_int(value) or not 1 <= value <= MAX_ID:  # past 64 bits no database can look it up
        raise FrameError(f"{name} must be a conversation id (a positive whole number).", detail={"field": name})
    return value


def _text(data: dict[str, Any], name: str, *, required: bool) -> str:
    value = data.get(name, "")
    if not isinstance(value, str):
        raise FrameError(f"{name} must be a string.", detail={"field": name})
    value = value.strip()
    if required and not value:
        raise FrameError(f"{name} must not be empty.", detail={"field": name})
    if len(value) > MAX_TEXT_LENGTH:
        raise FrameError(f"{name} is too long: at most {MAX_TEXT_LENGTH} characters.", code="text_too_long",
                         detail={"field": name, "max": MAX_TEXT_LENGTH, "length": len(value)})
    return value


def new_interaction_id() -> str:
    """Return a fresh id for a confirmation or question."""
    return uuid.uuid4().hex
