"""The graph's nodes, one per module. Each exposes ``run(state, deps) -> Step``; ``agent.graph`` wires them."""

from __future__ import annotations

from dataclasses import dataclass

from agent.state import TurnState

END = "end"


@dataclass(frozen=True)
class Step:
    """What a node returns: the next state (``state.updated(...)``) and the node to run next (or END)."""

    next: str
    state: TurnState
