"""The graph's nodes, one per module. Each exposes ``run(state, deps) -> Step``; ``agent.flow.graph`` wires them."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from agent.flow.state import Outcome, TurnState

END = "end"


def cut_off() -> Outcome:
    """The outcome of an answer the model cut at its length limit (stored as cut; the page offers to go on)."""
    return Outcome("truncated", "length_limit", _("The answer was cut off at the length limit."))


@dataclass(frozen=True)
class Step:
    """What a node returns: the next state (``state.updated(...)``) and the node to run next (or END)."""

    next: str
    state: TurnState
