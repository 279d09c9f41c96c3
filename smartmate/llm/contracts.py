"""Types the LLM layer speaks: messages, tools, stream deltas, completions and stage settings.

All are frozen dataclasses of plain values, so they are safe to share between threads and
serialise with ``dataclasses.asdict``. Nothing here knows about HTTP, the ``openai`` package or
Django; ``to_openai()`` renders the Chat Completions wire shape the client sends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["system", "user", "assistant", "tool"]
Thinking = Literal["auto", "on", "off"]
STAGES: tuple[str, ...] = ("route", "plan", "execute", "deliver", "memory", "title", "quick_add")
CUT_OFF_PROBLEM = "the reply was cut off at the length limit; answer more briefly"


@dataclass(frozen=True)
class ToolCall:
    """One function call the model asked for; ``arguments`` is the JSON text exactly as sent."""

    id: str
    name: str
    arguments: str

    def parsed_arguments(self) -> dict[str, Any]:
        """Return the arguments as a dict; raise MalformedOutput when they are not a JSON object."""
        from smartmate.llm.json_extract import extract_json_object

        # No arguments at all is how models call a tool that takes none.
        return extract_json_object(self.arguments) if self.arguments.strip() else {}

    def to_openai(self) -> dict[str, Any]:
        """Render the call as it appears in an assistant message."""
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}}


@dataclass(frozen=True)
class ChatMessage:
    """One message of a conversation sent to the model.

    ``tool_calls`` only on assistant messages; ``tool_call_id`` (and optionally ``name``) only on
    tool messages, answering the call with that id.
    """

    role: Role
    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None

    @classmethod
    def system(cls, content: str) -> ChatMessage:
        """Build a system message."""
        return cls(role="system", content=content)

    @classmethod
    def user(cls, content: str) -> ChatMessage:
        """Build a user message."""
        return cls(role="user", content=content)

    @classmethod
    def assistant(cls, content: str | None = None, tool_calls: tuple[ToolCall, ...] = ()) -> ChatMessage:
        """Build an assistant message, possibly carrying tool calls."""
        return cls(role="assistant", content=content, tool_calls=tuple(tool_calls))

    @classmethod
    def tool(cls, tool_call_id: str, content: str, name: str | None = None) -> ChatMessage:
        """Build the result of a tool call."""
        return cls(role="tool", content=content, tool_call_id=tool_call_id, name=name)

    def to_openai(self) -> dict[str, Any]:
        """Render the message in the Chat Completions shape, leaving out empty optional fields."""
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [call.to_openai() for call in self.tool_calls]
        if self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        if self.name is not None:
            out["name"] = self.name
        return out


@dataclass(frozen=True)
class ToolSpec:
    """A function the model may call: its name, what it does, and a JSON Schema of its arguments."""

    name: str
    description: str
    parameters: Mapping[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})

    def to_openai(self) -> dict[str, Any]:
        """Render the tool in the Chat Completions ``tools`` shape."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": dict(self.parameters)},
        }


@dataclass(frozen=True)
class TextDelta:
    """A piece of visible answer text, in arrival order."""

    text: str
    type: Literal["text"] = "text"


@dataclass(frozen=True)
class ReasoningDelta:
    """A piece of the model's reasoning (DeepSeek-style ``reasoning_content``), in arrival order."""

    text: str
    type: Literal["reasoning"] = "reasoning"


@dataclass(frozen=True)
class ToolCallDelta:
    """A fragment of a streamed tool call: ``index`` says which call; id and name come once."""

    index: int
    id: str | None = None
    name: str | None = None
    arguments: str = ""
    type: Literal["tool_call"] = "tool_call"


StreamChunk = TextDelta | ReasoningDelta | ToolCallDelta


@dataclass(frozen=True)
class Usage:
    """Tokens one call cost; ``estimated`` is True when the endpoint reported none and we guessed."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    estimated: bool = False


@dataclass(frozen=True)
class Completion:
    """The model's whole answer to one call, assembled from the stream or the JSON body.

    Already cleaned (``smartmate.llm.cleaning``): ``text`` is the answer only (thinking written in
    the text is in ``reasoning``, tool calls written as text are in ``tool_calls``);
    ``call_problem`` names a tool call written as text that could not be read (e.g. cut off).
    ``finish_reason`` is the endpoint's: "length" means the answer was cut at the token limit.
    """

    text: str
    reasoning: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    finish_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    call_problem: str = ""

    @property
    def truncated(self) -> bool:
        """Tell whether the endpoint cut the answer at its token limit."""
        return self.finish_reason == "length"

    def json(self) -> dict[str, Any]:
        """Return the text as a JSON object; raise MalformedOutput (with model feedback) if it is not one.

        A cut answer is malformed even when part of it parses: an object found in a cut text is a
        fragment (a plan's first step, say), not the answer.
        """
        from smartmate.llm.errors import MalformedOutput
        from smartmate.llm.json_extract import extract_json_object

        if self.truncated:
            raise MalformedOutput(CUT_OFF_PROBLEM, raw=self.text)
        return extract_json_object(self.text)

    def to_message(self) -> ChatMessage:
        """Return the assistant message to append to the history (reasoning is not sent back)."""
        return ChatMessage.assistant(content=self.text or None, tool_calls=self.tool_calls)


@dataclass(frozen=True)
class StageConfig:
    """How one stage calls the model.

    ``temperature`` / ``max_tokens`` of None leave the endpoint's default. ``thinking`` is the
    stage's wish for a reasoning pass; "auto" sends nothing and lets the model decide.
    ``json_mode`` asks for ``response_format={"type": "json_object"}``.
    """

    model: str
    temperature: float | None = None
    max_tokens: int | None = None
    thinking: Thinking = "auto"
    json_mode: bool = False
