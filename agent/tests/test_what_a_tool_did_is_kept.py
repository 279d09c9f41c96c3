"""What a tool did is kept: after any turn, every write the timeline calls done is on the board, in the
data, or in an open preview she can apply, announced in the turn that did it.

An explicit product: every route that writes (a move accepted on its card, a move run at once, a quick
note accepted, a plan accepted: rough build → optimise → execute) × every model call of it × every way
that call can end badly (Stop while the model is silent, Stop mid-text, the quota used up, a model
error, a timeout). Real services, database, tools and HTTP client; only the model is the scripted fake.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest

from accounts.models import User
from agent import embedded_turns
from agent.flow.state import TurnOptions
from agent.models import Message, TimelineEvent
from agent.services.turns import TurnStarted, turn_cancel, turn_resume, turn_start
from agent.tests.factories import last_of, make_conversation, plan, reply, route, timeline, tool_call
from agent.tests.legacy_working import legacy_scene
from agent.tools.support.working_schedule import working_load
from board.previews import preview_apply
from schedule.models import PlanPreview, ScheduleEvent
from smartmate.llm.provider import reset_llm_client
from taskclasses.models import Task, TaskClass

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("week_two")]

NOTE = "周五下午交概率论作业"
MOVE_TO = {"date": "2026-09-24", "start_section": 5}  # Thursday of week 3: free in the scene
SILENT = 10.0  # seconds a stalled model stays silent: far longer than any Stop may take


@dataclass(frozen=True)
class Scene:
    student: User
    review: TaskClass  # 概率论复习: block #4 on the board (Wed 7-8, week 3), #1-#3 waiting
    block: int  # the board id of block #4


@dataclass(frozen=True)
class Scenario:
    """A conversation that writes: its messages (None: accept the open card) and the model's answers."""

    name: str
    messages: tuple[str | None, ...]
    replies: Callable[[Scene], list[dict[str, Any]]]
    streamed: tuple[bool, ...]  # per model call: the route and plan stages are plain calls
    options: Callable[[Scene], TurnOptions] = lambda scene: TurnOptions()


SCENARIOS = (
    Scenario("move accepted on its card", ("把第四次复习挪到周四下午", None),
             lambda s: [route("execute"), tool_call("move", {"task_id": s.block, **MOVE_TO}), reply("挪好了。")],
             streamed=(False, True, True)),
    Scenario("move run at once", ("把第四次复习挪到周四下午",),
             lambda s: [route("execute"), tool_call("move", {"task_id": s.block, **MOVE_TO}), reply("挪好了。")],
             streamed=(False, True, True), options=lambda s: TurnOptions(always_execute=True)),
    Scenario("quick note accepted on its card", ("记一下周五下午交概率论作业", None),
             lambda s: [route("quick_note"), tool_call("quick_note_create", {"text": NOTE}), reply("记下了。")],
             streamed=(False, True, True)),
    Scenario("plan accepted: rough build, optimise, execute", ("帮我安排概率论复习", None),
             lambda s: [route("plan"), plan("安排概率论复习", ["粗排"], rough_build=True, task_class_ids=[s.review.pk]),
                        reply("粗排好了。")],
             streamed=(False, False, True), options=lambda s: TurnOptions(task_class_ids=(s.review.pk,))),
)


@dataclass(frozen=True)
class Failure:
    """How model call ``at`` (1-based, counted over the whole conversation) ends badly."""

    kind: str
    at: int

    @property
    def outcome(self) -> str:
        return "cancelled" if self.kind.startswith("stop") else "failed"

    def script(self, replies: list[dict[str, Any]], student: User) -> list[dict[str, Any]]:
        """The conversation's answers with this failure in place."""
        replies = list(replies)
        index = self.at - 1
        if self.kind == "quota":
            # The call before this one (or, for the first, calls made elsewhere) used the week's quota up.
            User.objects.filter(pk=student.pk).update(token_limit=100_000)
            if index:
                replies[index - 1] = {**replies[index - 1], "prompt_tokens": 200_000}
            else:
                User.objects.filter(pk=student.pk).update(token_usage=100_000)
            return replies
        replies[index] = {
            "stop_silent": {"text": "沉默之后才到的话", "delay": SILENT},
            "stop_streaming": {"text": "我来说说刚才做了什么，" * 4, "stall_after": 2, "delay": SILENT},
            "model_error": {"status": 500, "error_message": "upstream overloaded"},
            "timeout": {"text": "太晚了", "delay": 2.5},
        }[self.kind]
        return replies


KINDS = ("stop_silent", "stop_streaming", "quota", "model_error", "timeout")
CASES = [pytest.param(scenario, Failure(kind, at), id=f"{scenario.name}|call {at}|{kind}")
         for scenario in SCENARIOS for at, streamed in enumerate(scenario.streamed, start=1)
         for kind in KINDS if streamed or kind != "stop_streaming"]


@pytest.fixture
def scene(user, week_two) -> Scene:
    review = legacy_scene(user)
    item = review.items.get(order=4)
    board = working_load(user=user, now=week_two).board
    block = next(entry.id for entry in board.entries if entry.item_id == item.pk)
    return Scene(student=user, review=review, block=block)


@pytest.fixture
def failing_model(fake_llm, settings):
    """The fake, with no retries and a short timeout, so a failure is one call's."""
    settings.LLM_MAX_RETRIES, settings.LLM_TIMEOUT_SECONDS = 0, 1.0
    reset_llm_client()
    yield fake_llm
    reset_llm_client()


@pytest.mark.parametrize(("scenario", "failure"), CASES)
def test_what_the_timeline_calls_done_is_kept(failing_model, scene, scenario, failure):
    failing_model.script(*failure.script(scenario.replies(scene), scene.student))
    conversation = make_conversation(scene.student)

    turns = converse(scene, conversation, scenario, failure, failing_model)

    assert turns[-1][-1]["type"] == "turn.done" and turns[-1][-1]["outcome"] == failure.outcome
    for frames in turns:
        assert [frame["type"] for frame in frames].count("turn.done") == 1
        assert_announced(frames)
    assert_kept(scene, conversation, [frame for frames in turns for frame in frames])


def converse(scene: Scene, conversation, scenario: Scenario, failure: Failure, fake) -> list[list[dict]]:
    """Send the scenario's messages (accepting each card) until a turn ends other than on a card."""
    turns: list[list[dict]] = []
    for message in scenario.messages:
        if message is None:
            card = last_of(turns[-1], "confirm.request")
            started = turn_resume(user=scene.student, conversation_id=conversation.pk,
                                  interaction_id=card["interaction_id"], action="accept")
        else:
            started = turn_start(user=scene.student, conversation_id=conversation.pk, text=message,
                                 options=scenario.options(scene))
        if failure.kind.startswith("stop"):
            stop_when_due(scene, conversation, started, failure, fake)
        assert embedded_turns.join(timeout=30), "the turn did not finish"
        turns.append([frame for frame in timeline(conversation) if frame["turn_id"] == started.turn_id])
        if turns[-1][-1]["outcome"] != "interrupted":
            break
    return turns


def stop_when_due(scene: Scene, conversation, started: TurnStarted, failure: Failure, fake) -> None:
    """Press Stop once the failing call is under way (mid-text: once its first words are shown)."""
    def due() -> bool:
        if len(fake.requests) < failure.at:
            return False
        return failure.kind == "stop_silent" or TimelineEvent.objects.filter(
            turn_id=started.turn_id, type="assistant.delta").exists()

    deadline = time.monotonic() + 20
    while not due():
        if not embedded_turns.pending(started.turn_id):
            return  # the turn ended before the failing call (it waits on a card): the next turn has it
        assert time.monotonic() < deadline, "the failing call never came"
        time.sleep(0.02)
    turn_cancel(user=scene.student, conversation_id=conversation.pk)


def assert_announced(frames: list[dict]) -> None:
    """A turn whose tools changed the schedule ends with a preview; its answer names every change."""
    done = done_writes(frames)
    if any(frame["name"] != "quick_note_create" for frame in done):
        assert any(frame["type"] == "preview.ready" for frame in frames)
    if done:
        answer = Message.objects.get(turn_id=frames[0]["turn_id"], role="assistant").content
        assert all(frame["summary"] in answer for frame in done)


def assert_kept(scene: Scene, conversation, frames: list[dict]) -> None:
    """Everything called done is in the data, or lands on the board when she applies the open preview."""
    done = done_writes(frames)
    if any(frame["name"] != "quick_note_create" for frame in done):
        preview = PlanPreview.objects.get(conversation_id=conversation.pk, status=PlanPreview.Status.OPEN)
        preview_apply(user=scene.student, preview_id=preview.pk)
    names = [frame["name"] for frame in done]
    calls = {frame["call_id"]: frame["arguments"] for frame in frames if frame["type"] == "tool.call"}
    asked_move = {"task_id": scene.block, **MOVE_TO}
    item_four = ScheduleEvent.objects.get(user=scene.student, task_item__order=4, task_item__task_class=scene.review)
    moved = (item_four.week, item_four.day, item_four.start_section) == (3, 4, 5)
    assert moved == any(calls[frame["call_id"]] == asked_move for frame in done)
    on_board = ScheduleEvent.objects.filter(user=scene.student, task_item__task_class=scene.review).count()
    assert on_board == (4 if "rough_build" in names else 1)
    assert Task.objects.filter(user=scene.student, title__contains="概率论作业").count() == names.count(
        "quick_note_create")


def done_writes(frames: list[dict]) -> list[dict]:
    return [frame for frame in frames if frame["type"] == "tool.result" and frame["status"] == "done"
            and frame["name"] in ("move", "quick_note_create", "rough_build", "swap")]



def test_a_move_accepted_and_stopped_before_its_turn_starts_is_made_and_delivered(failing_model, scene, settings):
    # Her other conversation's turn holds her one thread, so Stop lands before the accept's first node.
    settings.AGENT_EMBEDDED_TURNS_PER_STUDENT = 1
    scenario = SCENARIOS[0]
    failing_model.script(*scenario.replies(scene)[:2], {**route("reply"), "delay": 0.6}, reply("好的"))
    conversation, other = make_conversation(scene.student), make_conversation(scene.student)
    card = last_of(converse(scene, conversation, replace(scenario, messages=scenario.messages[:1]),
                            Failure("model_error", 9), failing_model)[-1], "confirm.request")

    turn_start(user=scene.student, conversation_id=other.pk, text="你好")
    started = turn_resume(user=scene.student, conversation_id=conversation.pk,
                          interaction_id=card["interaction_id"], action="accept")
    turn_cancel(user=scene.student, conversation_id=conversation.pk)
    assert embedded_turns.join(timeout=30)

    frames = [frame for frame in timeline(conversation) if frame["turn_id"] == started.turn_id]
    assert frames[0]["code"] == "queued" and frames[-1]["outcome"] == "cancelled"
    assert [frame["status"] for frame in frames if frame["type"] == "tool.result"] == ["done"]
    assert len(failing_model.requests) == 4  # the accept ran its call and asked the model nothing more
    assert_announced(frames)
    assert_kept(scene, conversation, timeline(conversation))
