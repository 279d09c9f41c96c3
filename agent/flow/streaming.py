"""Stream the model's text to the student in fewer, larger events.

A model sends a token or two per chunk; storing and broadcasting each as its own event costs a
database insert and a channel-layer send (about 2.5 ms), which for a long answer adds up to more
than the model's own time. The batcher sends the first piece at once (the student sees the answer
start), then coalesces until ``MAX_CHARS`` characters or ``MAX_WAIT`` seconds have gathered, and
sends what is left when the call ends. Reasoning and answer text are never mixed in one event.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from agent.flow.contracts import AssistantDelta, Event, ReasoningDelta
from smartmate.llm import ReasoningDelta as ModelReasoning
from smartmate.llm import StreamChunk, TextDelta
from smartmate.llm.assembly import OnDelta
from smartmate.llm.errors import StreamStopped

# A fast stream (a local model, the zero-latency fake) fills this before MAX_WAIT: each event is an insert
# and a send, so the cap is a few lines of text; a model streaming at reading speed hits MAX_WAIT first.
MAX_CHARS = 256
MAX_WAIT = 0.05
# How often a streaming call asks whether the student pressed stop (each ask is one small query).
CANCEL_CHECK_EVERY = 0.2


class DeltaBatcher:
    """``on_delta`` for a model call; call ``flush()`` when the call returns or fails."""

    def __init__(self, emit: Callable[[Event], object], *, clock: Callable[[], float] = time.monotonic) -> None:
        self._emit = emit
        self._clock = clock
        self._kind: type | None = None
        self._parts: list[str] = []
        self._since = 0.0
        self._sent_any: set[type] = set()

    def __call__(self, chunk: StreamChunk) -> None:
        if not isinstance(chunk, (TextDelta, ModelReasoning)) or not chunk.text:
            return
        kind = AssistantDelta if isinstance(chunk, TextDelta) else ReasoningDelta
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


class TurnCancelled(StreamStopped):
    """The student pressed stop while the model was answering."""


class CancelWatch:
    """Wraps a call's ``on_delta``: passes each piece on, then stops the stream if the student cancelled.

    The runtime checks for a cancel between nodes; a long streamed answer is one node, so without
    this the stream was read to its end (every delta sent and stored, every token charged). Asking
    at most every ``CANCEL_CHECK_EVERY`` seconds keeps the cost to a few queries per answer while the
    stream stops within a fraction of a second of the stop frame: the client calls ``poll`` while it
    waits for the endpoint, so a silent model (a slow first token, a long gap) is stopped as quickly.
    """

    def __init__(self, on_delta: OnDelta, cancel_requested: Callable[[], bool], *,
                 clock: Callable[[], float] = time.monotonic, every: float = CANCEL_CHECK_EVERY) -> None:
        self._on_delta = on_delta
        self._cancel_requested = cancel_requested
        self._clock = clock
        self._every = every
        self._last_check = clock() - every  # the first piece is checked at once

    def __call__(self, chunk: StreamChunk) -> None:
        self._on_delta(chunk)
        self.poll()

    def poll(self) -> None:
        """Raise TurnCancelled if the student pressed stop (asked at most every ``every`` seconds).

        The client also calls this while the model is silent (``smartmate.llm.client._StreamReader``),
        so a stop ends the call in every phase, not only when the next piece arrives.
        """
        now = self._clock()
        if now - self._last_check < self._every:
            return
        self._last_check = now
        if self._cancel_requested():
            raise TurnCancelled()
