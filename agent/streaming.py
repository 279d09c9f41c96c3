"""Stream the model's text to the student in fewer, larger events.

A model sends a token or two per chunk; storing and broadcasting each as its own event costs a
database insert and a channel-layer send (about 2.5 ms), which for a long answer adds up to more
than the model's own time. The batcher sends the first piece at once (the student sees the answer
start), then coalesces until ``MAX_CHARS`` characters or ``MAX_WAIT`` seconds have gathered, and
sends what is left when the call ends. Reasoning and answer text are never mixed in one event.
"""

from __future__ import annotations

import time
from typing import Callable

from agent.contracts import AssistantDelta, Event, ReasoningDelta
from agent.llm import ReasoningDelta as ModelReasoning
from agent.llm import StreamChunk, TextDelta

MAX_CHARS = 48
MAX_WAIT = 0.05


class DeltaBatcher:
    """``on_delta`` for a model call; call ``flush()`` when the call returns or fails."""

    def __init__(self, emit: Callable[[Event], None], *, clock: Callable[[], float] = time.monotonic) -> None:
        self._emit = emit
        self._clock = clock
        self._kind: type | None = None
        self._parts: list[str] = []
        self._since = 0.0
        self._sent_any: set[type] = set()

    def __call__(self, chunk: StreamChunk) -> None:
        kind = AssistantDelta if isinstance(chunk, TextDelta) else ReasoningDelta \
            if isinstance(chunk, ModelReasoning) else None
        if kind is None or not chunk.text:
            return
        if kind is not self._kind:
            self.flush()
            self._kind, self._since = kind, self._clock()
        self._parts.append(chunk.text)
        if (kind not in self._sent_any or sum(map(len, self._parts)) >= MAX_CHARS
                or self._clock() - self._since >= MAX_WAIT):
            self.flush()

    def flush(self) -> None:
        """Send what has gathered."""
        if self._parts and self._kind is not None:
            self._emit(self._kind(text="".join(self._parts)))
            self._sent_any.add(self._kind)
        self._parts = []
        self._since = self._clock()
