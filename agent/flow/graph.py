"""The assistant's graph: which nodes exist and which node may follow which. The only file that wires nodes.

The flow::

    chat ─┬─ reply (streamed) ─────────────────────────────────────────► deliver ─► END
          ├─ execute / quick note ─► execute ⟲ ─────────────────────────► deliver ─► END
          └─ plan ─► confirm ─► interrupt ─► deliver ─► END   (the student accepts or rejects)
    chat (resume: plan accepted) ─► [rough_build ─► optimise] ─► execute ⟲ ─► deliver ─► END
    chat (resume: plan rejected) ─► plan ─► …                      (replan with the reason)
    plan / execute ─► interrupt (ask_user) ─► deliver ─► END; the answer resumes at chat ─► plan / execute
    execute (write) ─► confirm ─► interrupt ─► deliver ─► END; accept / reject resumes at chat ─► execute

    any node fails or the student cancels ─► deliver (ends the turn honestly) ─► END

A node is ``(state, deps) -> Step``: the next state and the name of the next node. The
runtime refuses a next node that ``EDGES`` does not allow. The checkpoint's ``phase`` is the node
a turn will run next (where a crashed turn resumes), or, once the turn is over, its outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from agent.flow.deps import Deps
from agent.flow.nodes import END, Step, chat, confirm, deliver, execute, interrupt, optimise, plan, rough_build
from agent.flow.state import TurnState

__all__ = ["END", "GRAPH", "Graph", "Node", "Step", "TERMINAL_PHASES"]
# Phases of a finished turn (the outcome's status); the others are node names.
TERMINAL_PHASES: tuple[str, ...] = ("completed", "failed", "cancelled", "interrupted", "truncated")


Node = Callable[[TurnState, Deps], Step]


@dataclass(frozen=True)
class Graph:
    """Nodes, allowed transitions, and where failed or cancelled turns go to finish."""

    start: str
    nodes: Mapping[str, Node]
    edges: Mapping[str, frozenset[str]]
    finish: str
    max_steps: int = 64

    def __post_init__(self) -> None:
        known = set(self.nodes) | {END}
        problems = [f"{name} has no edges" for name in self.nodes if name not in self.edges]
        problems += [f"{name} -> {target} names no node" for name, targets in self.edges.items()
                     for target in targets if target not in known]
        if self.start not in self.nodes or self.finish not in self.nodes:
            problems.append("start and finish must be nodes")
        if problems:
            raise ValueError("Invalid graph: " + "; ".join(problems) + ".")

    def allows(self, node: str, next_node: str) -> bool:
        """Tell whether ``next_node`` may follow ``node``."""
        return next_node in self.edges.get(node, frozenset())


NODES: Mapping[str, Node] = {
    "chat": chat.run,
    "plan": plan.run,
    "confirm": confirm.run,
    "rough_build": rough_build.run,
    "optimise": optimise.run,
    "execute": execute.run,
    "interrupt": interrupt.run,
    "deliver": deliver.run,
}

EDGES: Mapping[str, frozenset[str]] = {
    "chat": frozenset({"deliver", "plan", "execute", "rough_build"}),
    "plan": frozenset({"confirm", "interrupt", "deliver"}),
    "confirm": frozenset({"interrupt"}),
    "rough_build": frozenset({"optimise", "execute"}),
    "optimise": frozenset({"execute"}),
    "execute": frozenset({"execute", "confirm", "interrupt", "deliver"}),
    "interrupt": frozenset({"deliver"}),
    "deliver": frozenset({END}),
}

GRAPH = Graph(start="chat", nodes=NODES, edges=EDGES, finish="deliver")
