"""The Django side of ``agent.deps.Toolbox``: the tool registry bound to one student's turn.

The user id in every ``ToolContext`` comes from here (the turn's owner), never from the model's
arguments. Which tools a route offers is decided here too: a quick note needs only the task tools.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import timezone

from accounts.models import User
from agent.state import TurnOptions
from agent.tools.base import ToolContext, ToolResult
from agent.tools.registry import arguments_check, tool_get, tool_specs
from agent.working import Working
from smartmate.llm import ToolSpec

QUICK_NOTE_TOOLS = ("quick_note_create", "query_tasks")


class RegistryToolbox:
    """Tools for one turn of one student's conversation."""

    def __init__(self, *, user: User, conversation_id: int, language: str = "zh-hans") -> None:
        self.user = user
        self.conversation_id = conversation_id
        self.language = language

    def specs(self, route: str) -> list[ToolSpec]:
        """Return the tools the model is offered for ``route``."""
        return tool_specs(QUICK_NOTE_TOOLS if route == "quick_note" else None)

    def check(self, name: str, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Validate the model's arguments against the tool's schema."""
        return arguments_check(tool_get(name), raw)

    def writes(self, name: str) -> bool:
        """Tell whether the tool changes anything."""
        return tool_get(name).writes

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
