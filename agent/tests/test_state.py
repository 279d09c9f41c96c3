"""The turn state: typed parts, a JSON round trip, and checkpoints stored before the types still load."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime

import pytest

from agent.flow.state import (
    Action,
    ConfirmCard,
    HistoryMessage,
    Outcome,
    PendingInteraction,
    Plan,
    PlanConfirmation,
    PlanStep,
    Resume,
    ToolCallRecord,
    ToolConfirmation,
    TurnChanges,
    TurnOptions,
    TurnState,
    TurnUsage,
)
from smartmate.llm import ChatMessage, ToolCall

NOW = datetime(2026, 9, 14, 7, 0, tzinfo=UTC)

# Written by the state before its plan, transcript, actions and pending data had types (the same
# version 2): a plan confirmation the student has not answered yet.
STORED_PLAN_CARD = {
    "conversation_id": 3, "turn_id": "t-1", "user_text": "帮我安排复习", "history": [{"role": "user", "content": "早"}],
    "language": "zh-hans", "route": "plan",
    "options": {"task_class_ids": [5], "thinking": "auto", "always_execute": False}, "resume": None,
    "plan": {"goal": "复习概率论", "steps": [{"title": "排四次复习", "done_when": "四块都有位置"}], "rough_build": True,
             "task_class_ids": [5]},
    "plan_confirmed": False,
    "scratch": [{"role": "assistant", "content": '{"goal": "复习概率论"}'}], "rounds": 0, "working": None,
    "preview_id": None, "actions": [], "answer": "", "reasoning": "", "corrections": 0,
    "usage": {"prompt_tokens": 300, "completion_tokens": 20, "total_tokens": 320, "calls": 2, "estimated": False},
    "pending": {"interaction_id": "card-1", "kind": "confirm", "prompt": "复习概率论", "resume_node": "chat",
                "data": {"subject": "plan", "rough_build": True,
                         "plan": {"goal": "复习概率论", "steps": [{"title": "排四次复习", "done_when": "四块都有位置"}],
                                  "rough_build": True, "task_class_ids": [5]},
                         "card": {"title": "Go ahead with this plan?", "summary": "复习概率论",
                                  "details": {"steps": [{"title": "排四次复习", "done_when": "四块都有位置"}],
                                              "rough_build": True, "task_class_ids": [5],
                                              "task_classes": ["概率论复习"]}}}},
    "outcome": {"status": "interrupted", "code": "waiting_for_student", "message": ""}, "version": 2,
}

# The same, waiting on a write after one blocked write and a model correction.
STORED_TOOL_CARD = {
    **STORED_PLAN_CARD, "route": "execute", "plan": None, "rounds": 2, "corrections": 0,
    "scratch": [
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "move", "arguments": '{"task_id": 6}'}}]},
        {"role": "tool", "content": "错误：date is required。请改正后重试。", "tool_call_id": "c1", "name": "move"},
        {"role": "user", "content": "你上一条回复无法使用：bad JSON。请调用一个工具，或直接回答。"},
    ],
    "actions": [{"tool": "place", "status": "blocked", "summary": "Place “英语 #1”."}],
    "pending": {"interaction_id": "card-2", "kind": "confirm", "prompt": "Move “概率论复习 #2”.",
                "resume_node": "execute",
                "data": {"subject": "tool", "call_id": "c2", "name": "move",
                         "arguments": {"task_id": 6, "date": "2026-09-24", "start_section": 5}, "digest": "abc",
                         "card": {"title": "Make this change?", "summary": "Move “概率论复习 #2”.",
                                  "details": {"tool": "move", "arguments": {"task_id": 6, "date": "2026-09-24",
                                                                            "start_section": 5}}}}},
}

# A question the model asked through ask_user (stored without a subject).
STORED_QUESTION = {
    **STORED_TOOL_CARD,
    "pending": {"interaction_id": "q-1", "kind": "ask_user", "prompt": "周几有空？", "resume_node": "execute",
                "data": {"call_id": "c3", "name": "ask_user"}},
}


def _full_state() -> TurnState:
    plan = Plan(goal="复习概率论", steps=(PlanStep("排四次复习", "四块都有位置"),), rough_build=True, task_class_ids=(5,))
    call = ToolCallRecord(call_id="c2", name="move", arguments={"task_id": 6, "date": "2026-09-24", "start_section": 5})
    return TurnState(
        conversation_id=1, turn_id="t", user_text="你好", history=(HistoryMessage("user", "早"),), route="execute",
        options=TurnOptions(task_class_ids=(5,), thinking="on"), resume=Resume("card-1", "accept"), plan=plan,
        plan_confirmed=True, rounds=1, preview_id=9, answer="好", reasoning="想一想", corrections=1,
        scratch=(ChatMessage.assistant(None, (ToolCall("c2", "move", '{"task_id": 6}'),)),
                 ChatMessage.tool("c2", "done", name="move"), ChatMessage.user("再试一次")),
        actions=(Action("rough_build", "done", "Suggested 4 blocks."),), usage=TurnUsage(1, 2, 3, 1),
        pending=PendingInteraction("card-2", "confirm", "确认？", "execute",
                                   ToolConfirmation(call, "abc", ConfirmCard("Make this change?", "确认？"))),
        outcome=Outcome("failed", "x", "y"))


def test_a_state_with_every_part_round_trips_through_json():
    state = _full_state()
    assert TurnState.from_json(json.loads(json.dumps(state.to_json())), now=NOW) == state


@pytest.mark.parametrize("stored", [STORED_PLAN_CARD, STORED_TOOL_CARD, STORED_QUESTION],
                         ids=["plan card", "tool card", "question"])
def test_a_checkpoint_stored_before_the_types_loads_and_is_written_back_the_same(stored):
    assert TurnState.from_json(stored, now=NOW).to_json() == stored


def test_a_stored_plan_card_reads_as_a_typed_plan_confirmation():
    pending = TurnState.from_json(STORED_PLAN_CARD, now=NOW).pending
    assert isinstance(pending.data, PlanConfirmation) and pending.data.plan.rough_build
    assert pending.data.plan.steps == (PlanStep("排四次复习", "四块都有位置"),)
    assert pending.data.card.details["task_classes"] == ["概率论复习"]


def test_updates_name_the_fields_they_change():
    state = _full_state().updated(answer="", rounds=0)
    assert (state.answer, state.rounds, state.reasoning) == ("", 0, "想一想")


def test_a_misspelt_field_is_refused():
    with pytest.raises(TypeError, match="anwser"):
        _full_state().updated(anwser="")  # type: ignore[call-arg]


def test_the_changes_a_node_may_make_list_every_field_of_the_state():
    assert set(TurnChanges.__annotations__) == {field.name for field in dataclasses.fields(TurnState)}
