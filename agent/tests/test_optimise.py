"""The optimise phase after a rough build: analysis, then move or swap, until nothing helps."""

from __future__ import annotations

from agent.flow.contracts import ToolCallEvent, ToolResultEvent
from agent.flow.deps import Deps
from agent.flow.nodes import Step, optimise
from agent.flow.state import TurnState
from agent.flow.working import Working
from agent.tests.factories import make_conversation
from agent.tests.tools.conftest import ctx, frozen_now, plan, timetable  # noqa: F401 - fixtures, found by name
from agent.tests.tools.test_analyze_health import alternating_thursday
from agent.turn_services import DjangoTurnServices
from schedule.core.analysis import analyze
from smartmate.llm import LLMNotConfigured


def _no_model():
    raise LLMNotConfigured("the optimise phase never calls the model")


def _run(user, working: Working) -> tuple[Step, list]:
    events: list = []
    conversation = make_conversation(user)
    services = DjangoTurnServices(user=user, conversation_id=conversation.pk, turn_id="turn-1")
    deps = Deps(llm=_no_model, emit=events.append, services=services)
    state = TurnState(conversation_id=conversation.pk, turn_id="turn-1", user_text="安排复习", working=working)
    return optimise.run(state, deps), events


def test_a_choppy_rough_build_is_regrouped_with_analysis_and_swap_then_stops(ctx, plan):  # noqa: F811 - the fixtures imported above
    working = alternating_thursday(ctx, plan)
    step, events = _run(plan.user, working)
    calls = [(e.name, e.label) for e in events if isinstance(e, ToolCallEvent)]
    assert calls[:2] == [("analyze_health", "Check how full the schedule is"), ("swap", "Swap two items")]
    assert all(e.status == "done" for e in events if isinstance(e, ToolResultEvent))
    assert step.next == "execute" and step.state.rounds == len(calls) // 2
    assert analyze(step.state.working.board).rhythm.total_switches < analyze(working.board).rhythm.total_switches
    assert [a.tool for a in step.state.actions] == ["swap"] * step.state.rounds
    assert "粗排后已自动优化" in step.state.scratch[-1].content


def test_a_schedule_with_nothing_to_improve_passes_through_untouched(ctx, plan):  # noqa: F811 - the fixtures imported above
    from agent.tests.tools.conftest import load_working

    working = load_working(plan.user, [plan.pk])
    step, events = _run(plan.user, working)
    assert events == [] and step.next == "execute" and step.state.working == working
    assert step.state.rounds == 0 and step.state.scratch == ()


def test_the_phase_uses_only_registered_analysis_and_edit_tools():
    from agent.tools.support.registry import TOOLS

    assert [TOOLS[name].writes for name in optimise.OPTIMISE_TOOLS] == [False, True, True]
