"""Run a turn through the graph: one node at a time, a checkpoint after each, cancel at any moment.

A cancel is noticed between nodes and during a model call, while it waits or streams
(``agent.flow.streaming.CancelWatch``): the turn then goes to the finish node with what was answered so far
and what its tools did (a node that runs a tool is checkpointed before the next model call).

``run_turn`` is synchronous and knows nothing of Django: the caller passes the graph, the state, the
dependencies (whose ``emit`` stores and sends events) and ``checkpoint(phase, state)``, which must
persist the state before the next node runs, so a crashed turn resumes where it stopped.

Failures: a domain error (``AppError``: model not configured, quota used up, the model failing)
becomes an ``error`` event with its code, and the turn goes to the graph's ``finish`` node, which
ends it honestly. Any other exception is our bug: it is logged and shown as ``internal_error``.
Either way a turn that started ends with ``turn.done``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from celery.exceptions import SoftTimeLimitExceeded
from django.utils.translation import gettext as _

from agent.flow.contracts import ErrorEvent, StatusEvent, TurnDone
from agent.flow.deps import Deps
from agent.flow.graph import END, Graph
from agent.flow.state import Outcome, TurnState
from agent.flow.streaming import TurnCancelled
from smartmate.llm.errors import LLMError
from smartmate.platform.exceptions import AppError

log = logging.getLogger("agent.runtime")

Checkpoint = Callable[[str, TurnState], None]


class GraphError(RuntimeError):
    """A node broke the graph's rules (an edge that is not declared, too many steps)."""


def phase_after(next_node: str, state: TurnState) -> str:
    """Return the checkpoint phase: the next node, or the outcome once the turn is over."""
    if next_node != END:
        return next_node
    return state.outcome.status if state.outcome else "completed"


def run_turn(graph: Graph, state: TurnState, deps: Deps, *, checkpoint: Checkpoint,
             start: str | None = None) -> TurnState:
    """Step ``graph`` from ``start`` (default: its start node) to END; return the final state."""
    node = start or graph.start
    for _step in range(graph.max_steps):
        if node == END:
            return state
        # The student's answer to a card is taken in before a stop: it needs no model call, and a change
        # she accepted is made and delivered (then the turn stops), never skipped after she was told it runs.
        if state.outcome is None and state.resume is None and deps.services.cancel_requested():
            state, node = _cancelled(graph, state, deps)
            checkpoint(node, state)
            continue
        state, node = _run_node(graph, node, state, deps)
        checkpoint(phase_after(node, state), state)
    raise GraphError(f"The turn did not finish within {graph.max_steps} steps.")


def _run_node(graph: Graph, node: str, state: TurnState, deps: Deps) -> tuple[TurnState, str]:
    try:
        step = graph.nodes[node](state, deps)
        if not graph.allows(node, step.next):
            raise GraphError(f"Node {node!r} may not go to {step.next!r}.")
        state, next_node = step.state, step.next
    except SoftTimeLimitExceeded:  # the whole turn is out of time: its process edge ends it (services.running)
        raise
    except TurnCancelled as stopped:  # mid-stream: keep what the student already saw
        state, next_node = _cancelled(graph, state, deps, answer=stopped.partial_text)
    except AppError as exc:  # the operator's words go to the log; the student reads student_message()
        log.log(logging.WARNING if isinstance(exc, LLMError) else logging.INFO,
                "Turn %s: node %s failed: %s (%s)", state.turn_id, node, exc.code, exc.message)
        state, next_node = _failed(graph, node, state, deps, ErrorEvent.from_error(exc), operator=str(exc.message))
    except Exception:
        log.exception("Turn %s: node %s crashed", state.turn_id, node)
        error = ErrorEvent(code="internal_error",
                           message=_("Something went wrong on our side. Please try again in a moment."))
        state, next_node = _failed(graph, node, state, deps, error)
    return state.updated(usage=deps.meter.total), next_node


def _cancelled(graph: Graph, state: TurnState, deps: Deps, *, answer: str = "") -> tuple[TurnState, str]:
    deps.emit(StatusEvent(code="cancelled", message=_("Stopped at your request.")))
    state = state.updated(outcome=Outcome("cancelled", "cancelled"))
    if answer:
        state = state.updated(answer=answer)
    return state, graph.finish


def _failed(graph: Graph, node: str, state: TurnState, deps: Deps, error: ErrorEvent, *,
            operator: str = "") -> tuple[TurnState, str]:
    """Tell the student (``error``) and keep the operator's words (the endpoint's own) on the outcome."""
    deps.emit(error)
    state = state.updated(outcome=Outcome("failed", error.code, operator or error.message))
    if node != graph.finish:
        return state, graph.finish
    # The finishing node itself failed: close the turn here so the client is never left waiting.
    deps.emit(TurnDone(outcome="failed"))
    return state, END
