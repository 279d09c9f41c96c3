"""The Django side of ``agent.deps.Toolbox``: the tool registry bound to one student's turn.

The user id in every ``ToolContext`` comes from here (the turn's owner), never from the model's
arguments. Which tools a stage is offered is decided here too: the tool packs it asked for (or its
route's default packs: a quick note needs only the notes pack).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import timezone

from accounts.models import User
from agent.state import TurnOptions
from agent.tools.base import ToolContext, ToolResult
from agent.tools.registry import DEFAULT_PACKS, arguments_check, pack_tools, tool_get, tool_label, tool_specs
from agent.working import Working
from smartmate.llm import ToolSpec


class RegistryToolbox:
    """Tools for one turn of one student's conversation."""

    def __init__(self, *, user: User, conversation_id: int, language: str = "zh-hans") -> None:
        self.user = user
        self.conversation_id = conversation_id
        self.language = language

    def specs(self, route: str, packs: Sequence[str] = ()) -> list[ToolSpec]:
        """Return the tools of ``packs`` (none named: the route's default packs), and no others."""
        return tool_specs(pack_tools(packs or self.packs_default(route)))

    def packs_default(self, route: str) -> tuple[str, ...]:
        """The packs a route gets when neither the route stage nor a plan named any."""
        return DEFAULT_PACKS.get(route, DEFAULT_PACKS["execute"])

    def check(self, name: str, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Validate the model's arguments against the tool's schema."""
        return arguments_check(tool_get(name), raw)

    def writes(self, name: str) -> bool:
        """Tell whether the tool changes anything."""
        return tool_get(name).writes

    def needs_confirmation(self, name: str, args: Mapping[str, Any], seen: Sequence[str]) -> bool:
        """Whether this call waits for the student: every write, and a read whose tool says so."""
        tool = tool_get(name)
        return tool.writes or tool.needs_confirmation(args, seen)

    def label(self, name: str) -> str:
        """Return the tool's translated label for the student's timeline."""
        return tool_label(name)

    def confirmation(self, name: str, args: Mapping[str, Any], working: Working | None) -> str:
        """Return the text of the confirmation card (or the timeline line) for this call."""
        return tool_get(name).confirmation(args, self._context(""), working)

    def run(self, name: str, args: Mapping[str, Any], *, call_id: str, working: Working | None,
            options: TurnOptions) -> ToolResult:
        """Run the tool as the turn's student."""
        return tool_get(name).run(args, self._context(call_id, options), working)

    def _context(self, call_id: str, options: TurnOptions | None = None) -> ToolContext:
        options = options or TurnOptions()
        return ToolContext(user_id=self.user.pk, conversation_id=self.conversation_id, call_id=call_id,
                           now=timezone.now(), task_class_ids=tuple(options.task_class_ids),
                           language=self.language)
