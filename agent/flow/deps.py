"""What a node may use besides the state: the model, the clock, ``emit`` and a narrow services facade.

Nodes never touch the ORM, Channels or Celery; everything with side effects outside the turn goes
through ``TurnServices``, implemented on the Django side (``agent.turn_services``) and easy to fake.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, Protocol

from agent.flow.contracts import Event
from agent.flow.state import TurnOptions, TurnUsage
from agent.flow.streaming import CancelWatch
from agent.flow.working import Working
from agent.tools.support.base import ToolResult
from smartmate.llm import ChatMessage, Completion, LLMClient, OnDelta, StageConfig, ToolSpec, Usage
from smartmate.llm.usage import call_reservation


@dataclass(frozen=True)
class TimetableEntry:
    """One of today's events, as the prompt shows it."""

    start: str
    end: str
    title: str
    location: str = ""


@dataclass(frozen=True)
class PromptContext:
    """What the system prompt says about the student's day."""

    today: date
    now: datetime
    week: int | None
    weeks: int
    timetable: tuple[TimetableEntry, ...] = ()
    # Tomorrow's too: "我明天有什么课" is then answered from the prompt, without a tool round.
    tomorrow: tuple[TimetableEntry, ...] = ()
    memory: str = ""  # the memory block: what the assistant remembers that bears on this message
    # Which semester this is ("2026 秋季学期") and the past ones, newest first: "上学期" is then the first.
    semester: str = ""
    past_semesters: tuple[str, ...] = ()


class Toolbox(Protocol):
    """The assistant's tools as a node sees them (``agent.toolbox`` wraps ``agent.tools.support.registry``)."""

    def specs(self, route: str, packs: Sequence[str] = ()) -> list[ToolSpec]:
        """Return the tools of ``packs`` (none: the default packs of ``route``: execute, quick_note)."""
        ...

    def packs_default(self, route: str) -> tuple[str, ...]:
        """The packs a route gets when nothing named any."""
        ...

    def check(self, name: str, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Return the validated arguments; raise an AppError the model can act on."""
        ...

    def writes(self, name: str) -> bool:
        """Tell whether the tool changes anything (and so needs the student's confirmation)."""
        ...

    def confirmation(self, name: str, args: Mapping[str, Any], working: Working | None) -> str:
        """Return what the student is asked to accept."""
        ...

    def label(self, name: str) -> str:
        """Return the tool's translated label (students never see raw tool names)."""
        ...

    def needs_confirmation(self, name: str, args: Mapping[str, Any], seen: Sequence[str]) -> bool:
        """Whether this call waits for the student's confirmation (every write; web_fetch of a made-up URL)."""
        ...

    def run(self, name: str, args: Mapping[str, Any], *, call_id: str, working: Working | None,
            options: TurnOptions) -> ToolResult:
        """Run the tool for the turn's student (the user id comes from the server)."""
        ...


class TurnServices(Protocol):
    """The side effects a turn needs from the rest of the app."""

    def prompt_context(self, query: str = "") -> PromptContext:
        """Return today's date, semester week, timetable and memories relevant to ``query``."""
        ...

    def quota_reserve(self, tokens: int) -> int:
        """Hold ``tokens`` of the student's window for one model call (accounts.quota); return what was held.
        Raises QuotaExceeded when nothing is left."""
        ...

    def quota_settle(self, reserved: int, used: int) -> None:
        """Replace one call's reservation by the tokens it really used."""
        ...

    def cancel_requested(self) -> bool:
        """Tell whether the student asked the running turn to stop."""
        ...

    def assistant_message_save(self, *, content: str, reasoning: str, prompt_tokens: int,
                               completion_tokens: int, outcome: str = "completed") -> int:
        """Store the turn's answer (once per turn, safe to re-run) with how the turn ended; return its id."""
        ...

    @property
    def tools(self) -> Toolbox:
        """The tools the execute node may call."""
        ...

    def task_classes_describe(self, task_class_ids: Sequence[int]) -> str:
        """Describe the student's task classes for the plan prompt (all of them when ``task_class_ids`` is empty)."""
        ...

    def task_class_names(self, task_class_ids: Sequence[int]) -> list[str]:
        """The names of the student's own task classes among ``task_class_ids``, in that order."""
        ...

    def working_load(self, task_class_ids: Sequence[int]) -> Working:
        """Load the working schedule for the classes' planning window."""
        ...

    def working_index(self, working: Working) -> str:
        """Return the working schedule's compact day index for the prompt."""
        ...

    def rough_build(self, task_class_ids: Sequence[int], working: Working) -> tuple[Working, str]:
        """Run the planner for the classes into the working schedule; return it and a summary."""
        ...

    def preview_publish(self, working: Working) -> tuple[int, str] | None:
        """Turn the working schedule's changes into a plan preview; return (id, summary) or None."""
        ...


class UsageMeter:
    """Adds up the turn's model calls as they are charged, even when a node fails afterwards."""

    def __init__(self, start: TurnUsage | None = None) -> None:
        self._total = start or TurnUsage()
        self._lock = threading.Lock()

    def add(self, usage: Usage) -> None:
        """Count one call."""
        with self._lock:
            self._total = self._total.add(usage)

    @property
    def total(self) -> TurnUsage:
        """Return the sum so far."""
        with self._lock:
            return self._total


@dataclass(frozen=True)
class Deps:
    """A node's dependencies. ``llm`` is a getter: it raises LLMNotConfigured when no model is set."""

    llm: Callable[[], LLMClient]
    emit: Callable[[Event], object]  # what it returns (the stored envelope) is not used
    services: TurnServices
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    meter: UsageMeter = field(default_factory=UsageMeter)

    def complete(self, stage: str, messages: Sequence[ChatMessage], *, on_delta: OnDelta | None = None,
                 config: StageConfig | None = None, tools: Sequence[ToolSpec] | None = None) -> Completion:
        """Call the model once: configured, within quota, and charged with the usage the API reports.

        Raises LLMNotConfigured, TokenQuotaExceededError (before any request) or an LLMError.
        """
        client = self.llm()
        # Reserved before the request, so concurrent calls cannot all pass a check and overspend together.
        reserved = self.services.quota_reserve(call_reservation(client, stage, messages, tools, config))
        used: list[int] = []

        def charge(usage: Usage) -> None:
            self.meter.add(usage)
            used.append(usage.total_tokens)

        # Stop is asked for while the model is silent and as it streams, plain calls too: raises TurnCancelled.
        watch = CancelWatch(on_delta or _unstreamed, self.services.cancel_requested)
        try:
            return client.complete(stage, messages, tools=tools, on_delta=watch if on_delta else None,
                                   config=config, record_usage=charge, poll=watch.poll)
        finally:
            self.services.quota_settle(reserved, sum(used))


def _unstreamed(chunk: object) -> None:
    """A plain call's watch passes nothing on: only its ``poll`` is used."""
