"""The Django side of ``agent.flow.deps.Toolbox``: the tool registry bound to one student's turn.

The user id in every ``ToolContext`` comes from here (the turn's owner), never from the model's
arguments. Which tools a stage is offered is decided here too: the tool packs it asked for (or its
route's default packs: a quick note needs only the notes pack).
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from agent.flow.state import TurnOptions
from agent.flow.working import Working
from agent.models import Message
from agent.tools.support.base import ToolContext, ToolResult
from agent.tools.support.registry import DEFAULT_PACKS, arguments_check, pack_tools, tool_get, tool_label, tool_specs
from agent.tools.support.reorder_permission import reorder_allowed
from smartmate.llm import ToolSpec


class RegistryToolbox:
    """Tools for one turn of one student's conversation."""

    def __init__(self, *, user: User, conversation_id: int, language: str = "zh-hans",
                 turn_id: str | None = None, on_write: Callable[[], object] | None = None) -> None:
        self.user = user
        self.conversation_id = conversation_id
        self.language = language
        self.turn_id = turn_id  # the turn whose student message may allow reordering
        self._on_write = on_write  # told after a write tool ran (what the turn recalled may have changed)
        self._allow_reorder: bool | None = None

    def specs(self, route: str, packs: Sequence[str] = ()) -> list[ToolSpec]:
        """Return the tools of ``packs`` (none named: the route's default packs), and no others."""
        return [_spec(name) for name in pack_tools(packs or self.packs_default(route))]

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
        tool = tool_get(name)
        try:
            return tool.run(args, self._context(call_id, options, writes=tool.writes), working)
        finally:
            if tool.writes and self._on_write is not None:
                self._on_write()

    def _context(self, call_id: str, options: TurnOptions | None = None, *, writes: bool = False) -> ToolContext:
        options = options or TurnOptions()
        return ToolContext(user_id=self.user.pk, conversation_id=self.conversation_id, call_id=call_id,
                           now=timezone.now(), task_class_ids=tuple(options.task_class_ids),
                           allow_reorder=writes and self._reorder_allowed(), language=self.language,
                           turn_id=self.turn_id or "")

    def _reorder_allowed(self) -> bool:
        """Whether the student's own message of this turn allows reordering (never the model, never
        memory: ``agent.tools.support.reorder_permission``); read once per turn."""
        if self._allow_reorder is None:
            self._allow_reorder = self.turn_id is not None and reorder_allowed(self._students_request())
        return self._allow_reorder

    def _students_request(self) -> str:
        """The student's own words behind this turn: its message or, for a turn resumed by accepting or
        declining a card without a word (a text the server wrote from the card), the one before it."""
        try:
            turn = uuid.UUID(str(self.turn_id))
        except ValueError:
            return ""  # not a stored turn (a test's or a tool's own id): no message of the student's
        messages = Message.objects.filter(conversation_id=self.conversation_id, role=Message.Role.USER)
        mine = messages.filter(turn_id=turn).values_list("pk", flat=True).first()
        if mine is None:
            return ""
        answers = _card_answer_prefixes()
        for content in messages.filter(pk__lte=mine).order_by("-pk").values_list("content", flat=True)[:4]:
            if not content.startswith(answers):
                return content
        return ""


@functools.cache
def _card_answer_prefixes() -> tuple[str, ...]:
    """How the messages the server writes for an accepted or declined card begin, in every language
    (the catalogs are fixed for the process's life: worked out once)."""
    prefixes = []
    for language in {code for code, _name in settings.LANGUAGES}:
        with translation.override(language):
            prefixes += [_("Accepted: %(what)s") % {"what": ""}, _("Declined: %(what)s") % {"what": ""}]
    return tuple(prefixes)


# Each tool's spec, made once per process (keyed by the tool object, which a test may replace): every
# execute round offers the same specs, and the prompt estimate counts each spec once by identity
# (smartmate.llm.usage) instead of rendering ~11,000 characters of schemas on every call.
_SPECS: dict[str, tuple[object, ToolSpec]] = {}


def _spec(name: str) -> ToolSpec:
    tool = tool_get(name)
    cached = _SPECS.get(name)
    if cached is None or cached[0] is not tool:
        cached = _SPECS[name] = (tool, tool_specs([name])[0])
    return cached[1]
