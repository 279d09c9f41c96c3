"""The runtime over small graphs: checkpoints after each node, declared edges only, cancel at boundaries."""

from __future__ import annotations

import pytest

from agent.flow.contracts import StatusEvent, TurnDone
from agent.flow.deps import Deps
from agent.flow.graph import END, GRAPH, Graph, Step
from agent.flow.state import Outcome, TurnState
from agent.runtime import GraphError, run_turn
from smartmate.platform.exceptions import AppError


class FakeServices:
    def __init__(self, cancel_after: int | None = None) -> None:
        self.cancel_after = cancel_after
        self.checks = 0

    def cancel_requested(self) -> bool:
        self.checks += 1
        return self.cancel_after is not None and self.checks > self.cancel_after


def _deps(events: list, services=None) -> Deps:
    return Deps(llm=lambda: None,  # type: ignore[arg-type, return-value]  # these tests never reach the model
                emit=events.append, services=services or FakeServices())  # type: ignore[arg-type]  # a fake


def _state() -> TurnState:
    return TurnState(conversation_id=1, turn_id="t", user_text="你好")


def _finish(state: TurnState, deps: Deps) -> Step:
    deps.emit(TurnDone(outcome=(state.outcome or Outcome("completed")).status))
    return Step(END, state.updated(outcome=state.outcome or Outcome("completed")))


def _graph(first) -> Graph:
    return Graph(start="first", nodes={"first": first, "finish": _finish},
                 edges={"first": frozenset({"finish"}), "finish": frozenset({END})}, finish="finish")


def test_the_real_graph_declares_only_existing_nodes():
    assert GRAPH.start == "chat" and GRAPH.allows("chat", "deliver") and not GRAPH.allows("deliver", "chat")


def test_a_graph_with_an_edge_to_nowhere_is_refused():
    with pytest.raises(ValueError, match="first -> nowhere names no node"):
        Graph(start="first", nodes={"first": _finish}, edges={"first": frozenset({"nowhere"})}, finish="first")


def test_a_checkpoint_is_written_after_every_node_with_the_next_phase():
    saved = []
    events: list = []
    answering = _graph(lambda state, deps: Step("finish", state.updated(answer="好")))
    final = run_turn(answering, _state(), _deps(events),
                     checkpoint=lambda phase, state: saved.append((phase, state.answer)))
    assert saved == [("finish", "好"), ("completed", "好")]
    assert final.outcome == Outcome("completed") and events == [TurnDone(outcome="completed")]


def test_an_undeclared_edge_is_an_internal_error_that_still_finishes_the_turn():
    events: list = []
    run_turn(_graph(lambda state, deps: Step(END, state)), _state(), _deps(events), checkpoint=lambda *args: None)
    assert [event.type for event in events] == ["error", "turn.done"]
    assert events[0].code == "internal_error" and events[1].outcome == "failed"


def test_a_domain_error_becomes_an_error_event_with_its_code():
    def fail(state, deps):
        raise AppError("No tokens left.", code="quota_exceeded", detail={"limit": 1})

    events: list = []
    final = run_turn(_graph(fail), _state(), _deps(events), checkpoint=lambda *args: None)
    assert events[0].code == "quota_exceeded" and events[0].detail == {"limit": 1}
    assert final.outcome == Outcome("failed", "quota_exceeded", "No tokens left.")


def test_cancel_is_honoured_before_the_next_node_runs():
    ran = []
    events: list = []

    def first(state, deps):
        ran.append("first")
        return Step("finish", state)

    run_turn(_graph(first), _state(), _deps(events, FakeServices(cancel_after=0)), checkpoint=lambda *args: None)
    assert ran == [] and events == [StatusEvent(code="cancelled", message="Stopped at your request."),
                                    TurnDone(outcome="cancelled")]


def test_a_finishing_node_that_fails_still_closes_the_turn():
    def broken_finish(state, deps):
        raise RuntimeError("disk full")

    graph = Graph(start="first", nodes={"first": lambda s, d: Step("finish", s), "finish": broken_finish},
                  edges={"first": frozenset({"finish"}), "finish": frozenset({END})}, finish="finish")
    events: list = []
    run_turn(graph, _state(), _deps(events), checkpoint=lambda *args: None)
    assert [event.type for event in events] == ["error", "turn.done"]


def test_a_graph_that_never_ends_is_stopped():
    graph = Graph(start="a", nodes={"a": lambda s, d: Step("a", s)}, edges={"a": frozenset({"a"})}, finish="a",
                  max_steps=5)
    with pytest.raises(GraphError, match="did not finish within 5 steps"):
        run_turn(graph, _state(), _deps([]), checkpoint=lambda *args: None)
