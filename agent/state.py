"""The typed state of one turn, as nodes see it and as the checkpoint stores it (plain JSON).

State is immutable: a node returns the fields it changes and the runtime builds the next state,
so a checkpoint is always a whole, consistent snapshot. ``to_json`` / ``from_json`` round-trip
exactly; ``version`` lets a later slice migrate old checkpoints.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from smartmate.llm import Usage

STATE_VERSION = 2

Route = Literal["", "reply", "plan", "execute", "quick_note"]
ROUTES: tuple[str, ...] = ("reply", "plan", "execute", "quick_note")


@dataclass(frozen=True)
class HistoryMessage:
    """One earlier message of the conversation, as the model sees it."""

    role: Literal["user", "assistant"]
    content: str


@dataclass(frozen=True)
class TurnUsage:
    """What the turn's model calls cost so far."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    calls: int = 0
    estimated: bool = False

    def add(self, usage: Usage) -> TurnUsage:
        """Return the sum with one more call."""
        return TurnUsage(prompt_tokens=self.prompt_tokens + usage.prompt_tokens,
                         completion_tokens=self.completion_tokens + usage.completion_tokens,
                         total_tokens=self.total_tokens + usage.total_tokens, calls=self.calls + 1,
                         estimated=self.estimated or usage.estimated)


@dataclass(frozen=True)
class PendingInteraction:
    """A question or confirmation the turn waits on (opened by the plan / execute nodes, next slice).

    The next client frame must carry ``interaction_id``; ``resume_node`` is where the graph goes on.
    """

    interaction_id: str
    kind: Literal["ask_user", "confirm"]
    prompt: str
    resume_node: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TurnOptions:
    """The page's choices sent with the message: classes to plan, thinking, always-execute."""

    task_class_ids: tuple[int, ...] = ()
    thinking: Literal["auto", "on", "off"] = "auto"
    always_execute: bool = False

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> TurnOptions:
        """Rebuild options stored as JSON (missing fields take their defaults)."""
        data = dict(data or {})
        data["task_class_ids"] = tuple(data.get("task_class_ids", ()))
        return cls(**{key: value for key, value in data.items() if key in _OPTION_FIELDS})


_OPTION_FIELDS = ("task_class_ids", "thinking", "always_execute")


@dataclass(frozen=True)
class Resume:
    """The student's answer to the open interaction, carried into the resumed turn."""

    interaction_id: str
    action: Literal["accept", "reject", "answer"]
    text: str = ""


@dataclass(frozen=True)
class Outcome:
    """How the turn ended; ``code`` and ``message`` say why when it did not complete."""

    status: Literal["completed", "failed", "cancelled", "interrupted"]
    code: str = ""
    message: str = ""


@dataclass(frozen=True)
class TurnState:
    """Everything a turn knows between nodes."""

    conversation_id: int
    turn_id: str
    user_text: str
    history: tuple[HistoryMessage, ...] = ()
    language: str = "zh-hans"
    route: Route = ""
    options: TurnOptions = field(default_factory=TurnOptions)
    resume: Resume | None = None
    # The plan node's plan: {"goal", "steps": [{"title", "done_when"}], "rough_build": [class ids]}.
    plan: dict[str, Any] | None = None
    plan_confirmed: bool = False
    # The execute node's transcript since the plan (OpenAI-shaped messages) and its rounds used.
    scratch: tuple[dict[str, Any], ...] = ()
    rounds: int = 0
    # The conversation's working schedule (a schedule.core Board with the work queue, as the JSON of
    # agent.tools.working_schedule), carried across turns.
    working: dict[str, Any] | None = None
    preview_id: int | None = None
    # What the turn did and did not do, for the honest summary: [{"tool", "status", "summary"}].
    actions: tuple[dict[str, Any], ...] = ()
    answer: str = ""
    reasoning: str = ""
    corrections: int = 0
    usage: TurnUsage = field(default_factory=TurnUsage)
    pending: PendingInteraction | None = None
    outcome: Outcome | None = None
    version: int = STATE_VERSION

    def updated(self, changes: Mapping[str, Any]) -> TurnState:
        """Return the state with ``changes`` applied; raise TypeError for a field that does not exist."""
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """Return the state as plain JSON values."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TurnState:
        """Rebuild a state stored by ``to_json``."""
        values = dict(data)
        values["history"] = tuple(HistoryMessage(**message) for message in values.get("history", ()))
        values["usage"] = TurnUsage(**values.get("usage", {}))
        values["pending"] = PendingInteraction(**values["pending"]) if values.get("pending") else None
        values["options"] = TurnOptions.from_json(values.get("options"))
        values["resume"] = Resume(**values["resume"]) if values.get("resume") else None
        values["scratch"] = tuple(values.get("scratch", ()))
        values["actions"] = tuple(values.get("actions", ()))
        values["outcome"] = Outcome(**values["outcome"]) if values.get("outcome") else None
        return cls(**values)
