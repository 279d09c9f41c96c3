"""The typed state of one turn, as nodes see it and as the checkpoint stores it (plain JSON).

State is immutable: a node returns the next state, built with ``state.updated(field=value, ...)``,
so a checkpoint is always a whole, consistent snapshot, and a misspelt field is caught by the type
checker (and raises TypeError when it runs). ``to_json`` / ``from_json`` round-trip exactly;
``version`` (``STATE_VERSION``) is stored in every checkpoint, so a future change of the format
can tell old checkpoints apart and migrate them.

The JSON is the one version 2 has always written (plans, actions and pending data as plain objects,
the transcript as OpenAI-shaped messages, the working schedule as ``agent.flow.working`` describes), so
checkpoints stored before these types existed load unchanged, and the ones written now stay
readable the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Literal, TypedDict, Unpack

from agent.flow.working import Working, working_from_json, working_to_json
from smartmate.llm import ChatMessage, ToolCall, Usage

STATE_VERSION = 2

Route = Literal["", "reply", "plan", "execute", "quick_note"]
ROUTES: tuple[str, ...] = ("reply", "plan", "execute", "quick_note")
ActionStatus = Literal["done", "failed", "blocked"]


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


# --- The plan and what the turn did ---------------------------------------------------------------


@dataclass(frozen=True)
class PlanStep:
    """One step of a plan, and how the student will know it is done."""

    title: str
    done_when: str = ""


@dataclass(frozen=True)
class Plan:
    """The plan the student is asked to confirm (the plan node's answer, checked by the server)."""

    goal: str
    steps: tuple[PlanStep, ...]
    rough_build: bool = False  # run the planner for ``task_class_ids`` before the execute rounds
    task_class_ids: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return the plan as plain JSON values."""
        return {"goal": self.goal, "steps": [dataclasses.asdict(step) for step in self.steps],
                "rough_build": self.rough_build, "task_class_ids": list(self.task_class_ids)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Plan:
        """Rebuild a plan stored by ``to_json``."""
        return cls(goal=data.get("goal", ""), steps=tuple(PlanStep(**step) for step in data.get("steps", ())),
                   rough_build=data.get("rough_build", False), task_class_ids=tuple(data.get("task_class_ids", ())))


@dataclass(frozen=True)
class Action:
    """One change the turn made or tried (a write tool, the rough build), for the honest summary."""

    tool: str
    status: ActionStatus
    summary: str


# --- The open interaction -------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolCallRecord:
    """A tool call as the server stored it: on accept, exactly these validated arguments run."""

    call_id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ConfirmCard:
    """What a confirmation card shows (the confirm node builds it, the interrupt node sends it)."""

    title: str
    summary: str
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PlanQuestion:
    """The plan node asked the student something; the answer resumes planning."""

    subject: ClassVar[str] = "plan_question"


@dataclass(frozen=True)
class PlanConfirmation:
    """The student is asked to go ahead with ``plan``."""

    plan: Plan
    card: ConfirmCard | None = None
    subject: ClassVar[str] = "plan"


@dataclass(frozen=True)
class ToolQuestion:
    """The model asked the student a question (``ask_user``); the answer becomes that call's result."""

    call_id: str
    name: str


@dataclass(frozen=True)
class ToolConfirmation:
    """The student is asked to accept one write; it runs only if ``digest`` still matches ``call``."""

    call: ToolCallRecord
    digest: str
    card: ConfirmCard | None = None
    subject: ClassVar[str] = "tool"


PendingData = PlanQuestion | PlanConfirmation | ToolQuestion | ToolConfirmation


@dataclass(frozen=True)
class PendingInteraction:
    """A question or confirmation the turn waits on (opened by the plan and execute nodes).

    The next client frame must carry ``interaction_id``; ``resume_node`` is where the graph goes on.
    """

    interaction_id: str
    kind: Literal["ask_user", "confirm"]
    prompt: str
    resume_node: str
    data: PendingData

    def to_json(self) -> dict[str, Any]:
        """Return the interaction as plain JSON values."""
        return {"interaction_id": self.interaction_id, "kind": self.kind, "prompt": self.prompt,
                "resume_node": self.resume_node, "data": _pending_data_to_json(self.data)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PendingInteraction:
        """Rebuild an interaction stored by ``to_json``."""
        return cls(interaction_id=data["interaction_id"], kind=data["kind"], prompt=data["prompt"],
                   resume_node=data["resume_node"], data=_pending_data_from_json(data.get("data") or {}))


def _pending_data_to_json(data: PendingData) -> dict[str, Any]:
    if isinstance(data, ToolQuestion):
        return {"call_id": data.call_id, "name": data.name}  # no subject: data without one reads back as this
    if isinstance(data, PlanQuestion):
        return {"subject": data.subject}
    if isinstance(data, PlanConfirmation):
        # ``rough_build`` is the plan's own; it stays beside it because older code read it there.
        value: dict[str, Any] = {"subject": data.subject, "rough_build": data.plan.rough_build,
                                 "plan": data.plan.to_json()}
    else:
        value = {"subject": data.subject, "call_id": data.call.call_id, "name": data.call.name,
                 "arguments": dict(data.call.arguments), "digest": data.digest}
    if data.card is not None:
        value["card"] = dataclasses.asdict(data.card)
    return value


def _pending_data_from_json(data: Mapping[str, Any]) -> PendingData:
    subject = data.get("subject")
    card = ConfirmCard(**data["card"]) if data.get("card") else None
    if subject == PlanQuestion.subject:
        return PlanQuestion()
    if subject == PlanConfirmation.subject:
        return PlanConfirmation(plan=Plan.from_json(data["plan"]), card=card)
    if subject == ToolConfirmation.subject:
        return ToolConfirmation(call=ToolCallRecord(data["call_id"], data["name"], dict(data["arguments"])),
                                digest=data.get("digest", ""), card=card)
    return ToolQuestion(call_id=data["call_id"], name=data["name"])


# --- The page's choices, the student's answer, the ending -----------------------------------------


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

    # truncated: the answer was cut at the model's length limit (stored whole as far as it went).
    status: Literal["completed", "failed", "cancelled", "interrupted", "truncated"]
    code: str = ""
    message: str = ""


# --- The state ------------------------------------------------------------------------------------


class TurnChanges(TypedDict, total=False):
    """The fields ``TurnState.updated`` may change, so a type checker catches a misspelt one.

    It lists every field of ``TurnState`` (a test keeps the two in step).
    """

    conversation_id: int
    turn_id: str
    user_text: str
    history: tuple[HistoryMessage, ...]
    language: str
    route: Route
    packs: tuple[str, ...]
    options: TurnOptions
    resume: Resume | None
    plan: Plan | None
    plan_confirmed: bool
    scratch: tuple[ChatMessage, ...]
    rounds: int
    working: Working | None
    preview_id: int | None
    dropped: tuple[str, ...]
    actions: tuple[Action, ...]
    answer: str
    reasoning: str
    corrections: int
    usage: TurnUsage
    pending: PendingInteraction | None
    outcome: Outcome | None
    version: int


@dataclass(frozen=True)
class TurnState:
    """Everything a turn knows between nodes."""

    conversation_id: int
    turn_id: str
    user_text: str
    history: tuple[HistoryMessage, ...] = ()
    language: str = "zh-hans"
    route: Route = ""
    packs: tuple[str, ...] = ()  # the tool packs the execute stage is offered (route, plan, request_tools)
    options: TurnOptions = field(default_factory=TurnOptions)
    resume: Resume | None = None
    plan: Plan | None = None
    plan_confirmed: bool = False
    # The plan and execute nodes' transcript with the model since the message (the execute rounds).
    scratch: tuple[ChatMessage, ...] = ()
    rounds: int = 0
    # The conversation's working schedule, carried across turns.
    working: Working | None = None
    preview_id: int | None = None
    # The conversation's earlier edits this turn dropped because her board no longer takes them, one
    # sentence each: the model is told, and the answer says so.
    dropped: tuple[str, ...] = ()
    # What the turn did and did not do, for the honest summary.
    actions: tuple[Action, ...] = ()
    answer: str = ""
    reasoning: str = ""
    corrections: int = 0
    usage: TurnUsage = field(default_factory=TurnUsage)
    pending: PendingInteraction | None = None
    outcome: Outcome | None = None
    version: int = STATE_VERSION

    def updated(self, **changes: Unpack[TurnChanges]) -> TurnState:
        """Return the state with ``changes`` applied; raise TypeError for a field that does not exist."""
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """Return the state as plain JSON values."""
        return {
            "conversation_id": self.conversation_id, "turn_id": self.turn_id, "user_text": self.user_text,
            "history": [dataclasses.asdict(message) for message in self.history], "language": self.language,
            "route": self.route, "options": _options_to_json(self.options),
            "resume": _asdict_or_none(self.resume),
            "plan": self.plan.to_json() if self.plan is not None else None, "plan_confirmed": self.plan_confirmed,
            "scratch": [message.to_openai() for message in self.scratch], "rounds": self.rounds,
            "working": working_to_json(self.working) if self.working is not None else None,
            "preview_id": self.preview_id, "actions": [dataclasses.asdict(action) for action in self.actions],
            "answer": self.answer, "reasoning": self.reasoning, "corrections": self.corrections,
            "usage": dataclasses.asdict(self.usage),
            "pending": self.pending.to_json() if self.pending is not None else None,
            "outcome": _asdict_or_none(self.outcome), "version": self.version,
            # Written only when named, so a checkpoint without them keeps the version-2 shape.
            **({"packs": list(self.packs)} if self.packs else {}),
            **({"dropped": list(self.dropped)} if self.dropped else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, now: datetime) -> TurnState:
        """Rebuild a state stored by ``to_json``.

        ``now`` dates a working schedule stored in the format from before the board (it kept no
        clock). Unknown keys are ignored, so a checkpoint written by a later version still loads.
        """
        return cls(
            conversation_id=data["conversation_id"], turn_id=data["turn_id"], user_text=data["user_text"],
            history=tuple(HistoryMessage(**message) for message in data.get("history", ())),
            language=data.get("language", "zh-hans"), route=data.get("route", ""),
            packs=tuple(data.get("packs", ())),
            options=TurnOptions.from_json(data.get("options")),
            resume=Resume(**data["resume"]) if data.get("resume") else None,
            plan=Plan.from_json(data["plan"]) if data.get("plan") else None,
            plan_confirmed=data.get("plan_confirmed", False),
            scratch=tuple(_message_from_json(item) for item in data.get("scratch", ())),
            rounds=data.get("rounds", 0), working=working_from_json(data.get("working"), now=now),
            preview_id=data.get("preview_id"), dropped=tuple(data.get("dropped", ())),
            actions=tuple(Action(**action) for action in data.get("actions", ())),
            answer=data.get("answer", ""), reasoning=data.get("reasoning", ""),
            corrections=data.get("corrections", 0), usage=TurnUsage(**data.get("usage", {})),
            pending=PendingInteraction.from_json(data["pending"]) if data.get("pending") else None,
            outcome=Outcome(**data["outcome"]) if data.get("outcome") else None,
            version=data.get("version", STATE_VERSION),
        )


def _asdict_or_none(value: Resume | Outcome | None) -> dict[str, Any] | None:
    return dataclasses.asdict(value) if value is not None else None


def _options_to_json(options: TurnOptions) -> dict[str, Any]:
    return {**dataclasses.asdict(options), "task_class_ids": list(options.task_class_ids)}


def _message_from_json(item: Mapping[str, Any]) -> ChatMessage:
    """Rebuild a transcript message stored in the OpenAI shape (``ChatMessage.to_openai``)."""
    calls = tuple(ToolCall(id=call["id"], name=call["function"]["name"], arguments=call["function"]["arguments"])
                  for call in item.get("tool_calls", ()))
    return ChatMessage(role=item["role"], content=item.get("content"), tool_calls=calls,
                       tool_call_id=item.get("tool_call_id"), name=item.get("name"))
