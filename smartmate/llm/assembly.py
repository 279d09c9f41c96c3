"""Turn Chat Completions JSON (streamed chunks or one body) into our Completion.

Kept apart from the client so the shape-handling (reasoning fields, tool-call fragments, usage in
the last chunk) reads on its own. The answer text goes through ``cleaning.CompletionCleaner`` on
both paths (thinking in the text, tool calls written as text), so what the caller streams and the
Completion it gets agree. It works on the decoded JSON dicts, not the ``openai`` package's
typed models: building those costs about 0.1 ms per chunk, which is most of the client's own
overhead on a long stream (see ``bench/llm_client_bench.py``), and they would hide nothing we need.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from smartmate.llm.cleaning import CleanText, CompletionCleaner, clean_text
from smartmate.llm.contracts import (
    Completion,
    StreamChunk,
    ToolCall,
    ToolCallDelta,
    Usage,
)

OnDelta = Callable[[StreamChunk], None]


Json = dict[str, Any]


def _reasoning_of(part: Json) -> str:
    # DeepSeek, Qwen and Ark send ``reasoning_content``; vLLM and OpenRouter send ``reasoning``.
    value = part.get("reasoning_content") or part.get("reasoning")
    return value if isinstance(value, str) else ""


def _usage_of(body: Json) -> Usage | None:
    usage = body.get("usage")
    if not isinstance(usage, dict):
        return None
    prompt = int(usage.get("prompt_tokens") or 0)
    produced = int(usage.get("completion_tokens") or 0)
    total = int(usage.get("total_tokens") or 0) or prompt + produced
    return Usage(prompt_tokens=prompt, completion_tokens=produced, total_tokens=total)


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class StreamAssembly:
    """Collect streamed chunks into a Completion, passing each delta to ``on_delta`` as it comes."""

    def __init__(self, on_delta: OnDelta | None, *, tools_offered: bool = False, hold_start: bool = False) -> None:
        self._on_delta = on_delta
        # hold_start: the model's template opens <think> (cleaning.py): hold its answer's start
        self._cleaner = CompletionCleaner(tools_offered=tools_offered, emit=self._emit, hold_start=hold_start)
        self._calls: dict[int, _PartialCall] = {}
        self._finish_reason: str | None = None
        self._usage: Usage | None = None
        self._model = ""
        self.emitted = False  # whether the caller has seen anything: then a retry would repeat it

    @property
    def template_thinks(self) -> bool:
        """Whether the answer had a lone closing thinking tag (the model's template opens the thought)."""
        return self._cleaner.template_thinks

    @property
    def partial_text(self) -> str:
        """The answer text passed on so far (what the student saw)."""
        return self._cleaner.text_so_far

    def add(self, chunk: Json) -> None:
        """Fold one ``chat.completion.chunk`` in."""
        self._model = chunk.get("model") or self._model
        # Usage may come on its own last chunk (choices empty) or, on some servers, on every chunk.
        self._usage = _usage_of(chunk) or self._usage
        for choice in chunk.get("choices") or ():
            if choice.get("index", 0) != 0:
                continue  # we never ask for n > 1
            self._add_delta(choice.get("delta") or {})
            self._finish_reason = choice.get("finish_reason") or self._finish_reason

    def _add_delta(self, delta: Json) -> None:
        reasoning = _reasoning_of(delta)
        if reasoning:
            self._cleaner.feed_reasoning(reasoning)
        content = delta.get("content")
        if content:
            self._cleaner.feed(content)
        for fragment in delta.get("tool_calls") or ():
            self._add_tool_fragment(fragment)

    def _add_tool_fragment(self, fragment: Json) -> None:
        index = int(fragment.get("index", 0))
        call = self._calls.setdefault(index, _PartialCall())
        function = fragment.get("function") or {}
        name = function.get("name") or None
        arguments = function.get("arguments") or ""
        # Id and name arrive once, on the first fragment; only the arguments are split up.
        call.id = call.id or (fragment.get("id") or "")
        call.name = call.name or (name or "")
        call.arguments.append(arguments)
        self._emit(ToolCallDelta(index=index, id=fragment.get("id"), name=name, arguments=arguments))

    def _emit(self, delta: StreamChunk) -> None:
        self.emitted = True
        if self._on_delta is not None:
            self._on_delta(delta)

    def completion(self, requested_model: str) -> tuple[Completion, Usage | None]:
        """Return the assembled Completion and the usage the endpoint reported (None if it sent none)."""
        native = tuple(
            ToolCall(id=call.id or f"call_{index}", name=call.name, arguments="".join(call.arguments))
            for index, call in sorted(self._calls.items())
        )
        clean = self._cleaner.finish()  # may pass on the text it held back
        return _completion(clean, native, self._finish_reason, self._model or requested_model), self._usage


def completion_from_response(body: Json, requested_model: str, *,
                             tools_offered: bool = False) -> tuple[Completion, Usage | None]:
    """Convert a non-streamed ``chat.completion`` body and return it with the reported usage."""
    choices = body.get("choices") or [{}]
    choice = choices[0]
    message = choice.get("message") or {}
    calls = tuple(
        ToolCall(id=call.get("id") or f"call_{index}", name=call["function"].get("name") or "",
                 arguments=call["function"].get("arguments") or "")
        for index, call in enumerate(message.get("tool_calls") or ())
        if isinstance(call.get("function"), dict)
    )
    clean = clean_text(message.get("content") or "", reasoning=_reasoning_of(message), tools_offered=tools_offered)
    return _completion(clean, calls, choice.get("finish_reason"), body.get("model") or requested_model), _usage_of(body)


def _completion(clean: CleanText, native: tuple[ToolCall, ...], finish_reason: str | None, model: str) -> Completion:
    return Completion(text=clean.text, reasoning=clean.reasoning, tool_calls=(*native, *clean.calls),
                      finish_reason=finish_reason, model=model, call_problem=clean.call_problem)
