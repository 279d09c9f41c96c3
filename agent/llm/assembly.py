"""Turn the ``openai`` package's response objects into our Completion, streamed or not.

Kept apart from the client so the shape-handling (reasoning fields, tool-call fragments, usage in
the last chunk) is readable on its own. Objects are read by attribute only; the ``openai`` models
keep unknown fields (``reasoning_content``) as attributes, which is how reasoning arrives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from agent.llm.contracts import (
    Completion,
    ReasoningDelta,
    StreamChunk,
    TextDelta,
    ToolCall,
    ToolCallDelta,
    Usage,
)

OnDelta = Callable[[StreamChunk], None]


def _reasoning_of(obj: Any) -> str:
    # DeepSeek, Qwen and Ark send ``reasoning_content``; vLLM and OpenRouter send ``reasoning``.
    value = getattr(obj, "reasoning_content", None) or getattr(obj, "reasoning", None)
    return value if isinstance(value, str) else ""


def _usage_of(obj: Any) -> Usage | None:
    usage = getattr(obj, "usage", None)
    if usage is None:
        return None
    prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
    produced = int(getattr(usage, "completion_tokens", 0) or 0)
    total = int(getattr(usage, "total_tokens", 0) or 0) or prompt + produced
    return Usage(prompt_tokens=prompt, completion_tokens=produced, total_tokens=total)


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class StreamAssembly:
    """Collect streamed chunks into a Completion, passing each delta to ``on_delta`` as it comes."""

    def __init__(self, on_delta: OnDelta | None) -> None:
        self._on_delta = on_delta
        self._text: list[str] = []
        self._reasoning: list[str] = []
        self._calls: dict[int, _PartialCall] = {}
        self._finish_reason: str | None = None
        self._usage: Usage | None = None
        self._model = ""
        self.emitted = False  # whether the caller has seen anything: then a retry would repeat it

    @property
    def partial_text(self) -> str:
        return "".join(self._text)

    def add(self, chunk: Any) -> None:
        """Fold one ``ChatCompletionChunk`` in."""
        self._model = getattr(chunk, "model", None) or self._model
        # Usage may come on its own last chunk (choices empty) or, on some servers, on every chunk.
        self._usage = _usage_of(chunk) or self._usage
        for choice in getattr(chunk, "choices", None) or ():
            if getattr(choice, "index", 0) != 0:
                continue  # we never ask for n > 1
            self._add_delta(choice.delta)
            self._finish_reason = choice.finish_reason or self._finish_reason

    def _add_delta(self, delta: Any) -> None:
        if delta is None:
            return
        reasoning = _reasoning_of(delta)
        if reasoning:
            self._reasoning.append(reasoning)
            self._emit(ReasoningDelta(reasoning))
        if delta.content:
            self._text.append(delta.content)
            self._emit(TextDelta(delta.content))
        for fragment in delta.tool_calls or ():
            self._add_tool_fragment(fragment)

    def _add_tool_fragment(self, fragment: Any) -> None:
        call = self._calls.setdefault(fragment.index, _PartialCall())
        function = fragment.function
        name = (function.name if function else None) or None
        arguments = (function.arguments if function else None) or ""
        # Id and name arrive once, on the first fragment; only the arguments are split up.
        call.id = call.id or (fragment.id or "")
        call.name = call.name or (name or "")
        call.arguments.append(arguments)
        self._emit(ToolCallDelta(index=fragment.index, id=fragment.id, name=name, arguments=arguments))

    def _emit(self, delta: StreamChunk) -> None:
        self.emitted = True
        if self._on_delta is not None:
            self._on_delta(delta)

    def completion(self, requested_model: str) -> tuple[Completion, Usage | None]:
        """Return the assembled Completion and the usage the endpoint reported (None if it sent none)."""
        calls = tuple(
            ToolCall(id=call.id or f"call_{index}", name=call.name, arguments="".join(call.arguments))
            for index, call in sorted(self._calls.items())
        )
        completion = Completion(text="".join(self._text), reasoning="".join(self._reasoning), tool_calls=calls,
                                finish_reason=self._finish_reason, model=self._model or requested_model)
        return completion, self._usage


def completion_from_response(response: Any, requested_model: str) -> tuple[Completion, Usage | None]:
    """Convert a non-streamed ``ChatCompletion`` and return it with the reported usage."""
    choice = response.choices[0] if response.choices else None
    message = choice.message if choice else None
    calls = tuple(
        ToolCall(id=call.id or f"call_{index}", name=call.function.name, arguments=call.function.arguments or "")
        for index, call in enumerate((message.tool_calls if message else None) or ())
        if getattr(call, "function", None) is not None
    )
    completion = Completion(
        text=(message.content if message else None) or "",
        reasoning=_reasoning_of(message) if message else "",
        tool_calls=calls,
        finish_reason=choice.finish_reason if choice else None,
        model=response.model or requested_model,
    )
    return completion, _usage_of(response)
