"""The delta batcher: first piece at once, then coalesced by size or time, kinds never mixed."""

from __future__ import annotations

from agent.flow.contracts import AssistantDelta, ReasoningDelta
from agent.flow.streaming import MAX_CHARS, MAX_WAIT, DeltaBatcher
from smartmate.llm import ReasoningDelta as ModelReasoning
from smartmate.llm import TextDelta


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_first_piece_goes_out_at_once_then_pieces_gather_until_flushed():
    sent, clock = [], Clock()
    batch = DeltaBatcher(sent.append, clock=clock)
    for piece in ("你好", "，我", "是时伴"):
        batch(TextDelta(piece))
    assert sent == [AssistantDelta("你好")]
    batch.flush()
    assert sent == [AssistantDelta("你好"), AssistantDelta("，我是时伴")]


def test_a_long_run_or_a_pause_sends_what_gathered():
    sent, clock = [], Clock()
    batch = DeltaBatcher(sent.append, clock=clock)
    batch(TextDelta("a"))
    for _ in range(MAX_CHARS):
        batch(TextDelta("b"))
    assert sent[1] == AssistantDelta("b" * MAX_CHARS)
    batch(TextDelta("c"))
    clock.now += MAX_WAIT
    batch(TextDelta("d"))
    assert sent[2] == AssistantDelta("cd")


def test_reasoning_and_answer_are_never_mixed_and_order_is_kept():
    sent, clock = [], Clock()
    batch = DeltaBatcher(sent.append, clock=clock)
    for chunk in (ModelReasoning("想"), ModelReasoning("一想"), TextDelta("答"), TextDelta("案"), TextDelta("")):
        batch(chunk)
    batch.flush()
    assert sent == [ReasoningDelta("想"), ReasoningDelta("一想"), AssistantDelta("答"), AssistantDelta("案")]
