"""What every assistant tool is: a name, a description, an argument schema, whether it writes, and run().

A tool module defines one ``Tool`` subclass instance named ``TOOL``; ``agent.tools.support.registry`` lists
them explicitly. The execute node (``agent.flow.nodes.execute``) is the only caller:

- it validates the model's arguments against ``parameters`` (``agent.tools.support.registry.arguments_check``)
  and sends errors back to the model, which corrects itself;
- a read tool runs at once; a write tool (``writes = True``) runs only after the student accepted a
  confirmation card showing ``confirmation(args)`` for exactly these arguments (or chose
  always-execute); the server binds the acceptance to the arguments, not the prompt;
- ``run`` gets a ``ToolContext`` whose ``user_id`` comes from the server, never from the model,
  and the conversation's working schedule (``agent.flow.working.Working``, None before one is loaded);
  it returns a ``ToolResult``, whose ``working`` is the new working schedule when it changed (None:
  unchanged). A failed write leaves the working schedule as it was and says what conflicted and
  what would work, so the model can try again.
- ``run`` must be safe to re-run with the same ``call_id`` (a crash between the tool and the
  checkpoint re-runs it): tools that write real rows key them on ``call_id``.

Text that tools return (course names, notes, memories) is data, never instructions: the execute
node wraps it as a tool result and the system prompt says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Literal

from agent.flow.working import Working

ToolStatus = Literal["done", "failed", "blocked"]


@dataclass(frozen=True)
class ToolContext:
    """Who is asking and when; filled by the server for every call."""

    user_id: int
    conversation_id: int
    call_id: str
    now: datetime
    task_class_ids: tuple[int, ...] = ()  # the student's task-class picker choice for this turn
    allow_reorder: bool = False  # the student allowed a class's blocks to leave their order
    language: str = "zh-hans"
    turn_id: str = ""  # the turn this call belongs to (per-turn budgets, e.g. web_fetch); "" outside a turn


@dataclass(frozen=True)
class ToolResult:
    """What a tool call produced.

    ``content`` is what the model reads (compact text or JSON, with real dates and times);
    ``summary`` is one line for the student's timeline; ``data`` is JSON for the stored event.
    """

    status: ToolStatus
    summary: str
    content: str
    data: dict[str, Any] = field(default_factory=dict)
    working: Working | None = None


class Tool:
    """Base class of the tools; subclasses set the class attributes and implement ``run``."""

    name: ClassVar[str]
    # What students see on the timeline instead of ``name``: a gettext_lazy string with a Chinese
    # entry in the catalog (agent/tests/test_tool_labels.py checks every registered tool has one).
    label: ClassVar[Any] = None
    # The tool pack it comes in (agent.tools.support.registry.PACKS): a stage is offered only the packs its
    # route or plan asked for. A tool without one is offered in every execute stage.
    pack: ClassVar[str] = ""
    description: ClassVar[str]  # for the model: what it does, when to use it (Chinese-first)
    parameters: ClassVar[Mapping[str, Any]] = {"type": "object", "properties": {}, "additionalProperties": False}
    writes: ClassVar[bool] = False

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> str:
        """Return what the student is asked to accept, in their language, with real dates and names.

        Also the timeline line of a read call: by default none (its label says enough), never the raw name."""
        return str(self.label or "") if self.writes else ""

    def needs_confirmation(self, args: Mapping[str, Any], seen: Sequence[str]) -> bool:
        """Whether this call waits for the student's confirmation although the tool does not write
        (``seen``: the student's messages and this turn's search results). Writes always wait."""
        return False

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        """Do the call (``args`` already validated against ``parameters``)."""
        raise NotImplementedError
