"""The graph's nodes, one per module. Each exposes ``run(state, deps) -> Step``; ``agent.graph`` wires them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

END = "end"


@dataclass(frozen=True)
class Step:
    """What a node returns: the state fields it changes and the node to run next (or END)."""

    next: str
    update: Mapping[str, Any] = field(default_factory=dict)
