"""Plans: the card, accept / reject / replan, questions, stale answers, malformed plans — whole turns
driven by the scripted model, asserting the events and the checkpoint afterwards."""

from __future__ import annotations

import pytest

from agent import embedded_turns
from agent.exceptions import StaleInteraction
from agent.models import Checkpoint, Message
from agent.services.turns import turn_regenerate, turn_resume
from agent.tests.factories import last_of, make_conversation, plan, reply, resume, route, run_turn, types
from smartmate.platform.exceptions import NotFoundError

pytestmark = pytest.mark.django_db(transaction=True)

PLAN_CARD = ["status", "context", "status", "confirm.request", "usage", "turn.done"]


def test_a_plan_request_ends_with_a_confirmation_card_and_waits(fake_llm, user):
    fake_llm.script(route("plan"), plan("下周复习概率论", ["查看下周空闲时间", "安排 4 次复习"]))
    conversation = make_conversation(user)

    frames = run_turn(user, conversation, "帮我安排下周的复习计划")

    assert types(frames) == PLAN_CARD
    card = last_of(frames, "confirm.request")
    assert card["title"] == "Go ahead with this plan?" and card["summary"] == "下周复习概率论"
    assert [step["title"] for step in card["details"]["steps"]] == ["查看下周空闲时间", "安排 4 次复习"]
    assert frames[-1]["outcome"] == "interrupted"
    checkpoint = Checkpoint.objects.get(conversation=conversation)
    assert checkpoint.phase == "interrupted"
    assert checkpoint.state["pending"]["interaction_id"] == card["interaction_id"]
    plan_request = fake_llm.requests[1]
    assert plan_request.body["response_format"] == {"type": "json_object"}
    assert "制定计划" in plan_request.messages[0]["content"]


def test_accepting_the_plan_runs_it_and_the_answer_says_what_happened(fake_llm, user):
    fake_llm.script(route("plan"), plan(), reply("下周你有 6 段空闲时间。"))
    conversation = make_conversation(user)
    card = last_of(run_turn(user, conversation, "帮我看看下周怎么复习"), "confirm.request")

    frames = resume(user, conversation, card["interaction_id"], "accept")

    assert types(frames) == ["status", "assistant.delta*", "usage", "turn.done"]
    assert frames[0]["code"] == "executing" and frames[-1]["outcome"] == "completed"
    execute_request = fake_llm.requests[-1]
    assert "学生已确认的计划" in execute_request.messages[0]["content"]
    assert {tool["function"]["name"] for tool in execute_request.body["tools"]} >= {"ask_user", "get_overview"}
    shown = list(conversation.messages.values_list("role", "content"))
    assert shown[-2:] == [("user", "Accepted: 安排复习"), ("assistant", "下周你有 6 段空闲时间。")]


def test_rejecting_the_plan_sends_the_reason_back_and_a_new_plan_is_offered(fake_llm, user):
    fake_llm.script(route("plan"), plan("每天晚上复习"), plan("每天早上复习"))
    conversation = make_conversation(user)
    first = last_of(run_turn(user, conversation, "安排复习"), "confirm.request")

    frames = resume(user, conversation, first["interaction_id"], "reject", "我晚上要上实验课")

    assert types(frames) == ["status", "confirm.request", "usage", "turn.done"]
    second = last_of(frames, "confirm.request")
    assert second["summary"] == "每天早上复习" and second["interaction_id"] != first["interaction_id"]
    replan = fake_llm.requests[-1].messages
    assert replan[-1]["content"].startswith("学生拒绝了这个计划，理由：我晚上要上实验课")
    assert replan[-2]["role"] == "assistant" and "每天晚上复习" in replan[-2]["content"]


def test_a_plan_that_needs_more_information_asks_and_goes_on_with_the_answer(fake_llm, user):
    fake_llm.script(route("plan"), plan(question="你想复习哪门课？"), plan("复习线性代数"))
    conversation = make_conversation(user)
    asked = run_turn(user, conversation, "帮我做个复习计划")

    assert types(asked) == ["status", "context", "status", "ask.user", "usage", "turn.done"]
    question = last_of(asked, "ask.user")
    assert question["question"] == "你想复习哪门课？"

    frames = resume(user, conversation, question["interaction_id"], "answer", "线性代数")

    assert last_of(frames, "confirm.request")["summary"] == "复习线性代数"
    assert fake_llm.requests[-1].messages[-1]["content"] == "学生的回答：线性代数"
    assert conversation.messages.filter(role="user").last().content == "线性代数"


def test_a_stale_or_mismatched_answer_is_refused_and_nothing_runs(fake_llm, user):
    fake_llm.script(route("plan"), plan())
    conversation = make_conversation(user)
    card = last_of(run_turn(user, conversation, "安排复习"), "confirm.request")

    with pytest.raises(StaleInteraction):
        turn_resume(user=user, conversation_id=conversation.pk, interaction_id="not-the-card",
                    action="accept")
    with pytest.raises(StaleInteraction):  # a confirmation is accepted or rejected, not answered
        turn_resume(user=user, conversation_id=conversation.pk, interaction_id=card["interaction_id"],
                    action="answer", text="好")
    fake_llm.script(reply("好的。"))
    resume(user, conversation, card["interaction_id"], "accept")
    with pytest.raises(StaleInteraction):  # already answered
        turn_resume(user=user, conversation_id=conversation.pk, interaction_id=card["interaction_id"],
                    action="accept")
    assert conversation.messages.filter(role="user").count() == 2


def test_another_students_card_cannot_be_answered(fake_llm, user, other_user):
    fake_llm.script(route("plan"), plan())
    conversation = make_conversation(user)
    card = last_of(run_turn(user, conversation, "安排复习"), "confirm.request")

    with pytest.raises(NotFoundError):
        turn_resume(user=other_user, conversation_id=conversation.pk, interaction_id=card["interaction_id"],
                    action="accept")
    assert Checkpoint.objects.get(conversation=conversation).phase == "interrupted"


def test_a_new_message_instead_of_an_answer_drops_the_open_card(fake_llm, user):
    fake_llm.script(route("plan"), plan(), route("reply"), reply("你好！"))
    conversation = make_conversation(user)
    card = last_of(run_turn(user, conversation, "安排复习"), "confirm.request")

    run_turn(user, conversation, "算了，先聊聊")

    with pytest.raises(StaleInteraction):
        turn_resume(user=user, conversation_id=conversation.pk, interaction_id=card["interaction_id"],
                    action="accept")


def test_three_malformed_plans_end_with_a_visible_error(fake_llm, user):
    fake_llm.script(route("plan"), {"text": "好的，我来安排"}, {"text": '{"steps": []}'},
                    {"text": '{"steps": [{"title": ""}]}'})
    conversation = make_conversation(user)

    frames = run_turn(user, conversation, "安排复习")

    assert types(frames) == ["status", "context", "status", "error", "usage", "turn.done"]
    assert last_of(frames, "error")["code"] == "llm_malformed_output"
    assert frames[-1]["outcome"] == "failed" and frames[-2]["calls"] == 4
    assert "steps" in fake_llm.requests[3].messages[-1]["content"]


def test_regenerate_replaces_the_last_answer(fake_llm, user):
    fake_llm.script(route("reply"), reply("第一个回答"), route("reply"), reply("第二个回答"))
    conversation = make_conversation(user)
    run_turn(user, conversation, "讲个笑话")

    turn_regenerate(user=user, conversation_id=conversation.pk)
    assert embedded_turns.join(timeout=20)

    assert list(conversation.messages.values_list("role", "content")) == [("user", "讲个笑话"),
                                                                            ("assistant", "第二个回答")]
    assert [message["content"] for message in fake_llm.requests[-1].messages[1:]] == ["讲个笑话"]


def test_the_first_answer_names_the_conversation(fake_llm, user, auto_titles):
    fake_llm.script(route("reply"), reply("概率论的期望是……"), reply("期望的含义"))
    conversation = make_conversation(user)

    run_turn(user, conversation, "请解释一下概率论里的期望是什么意思，最好举个例子")

    conversation.refresh_from_db()
    assert conversation.title == "期望的含义"
    assert fake_llm.requests[-1].messages[0]["content"].startswith("给下面这段对话起一个简短的标题")


def test_a_renamed_conversation_keeps_its_name(fake_llm, user, auto_titles):
    fake_llm.script(route("reply"), reply("你好！"))
    conversation = make_conversation(user, title="我的复习")

    run_turn(user, conversation, "你好")

    conversation.refresh_from_db()
    assert conversation.title == "我的复习" and len(fake_llm.requests) == 2
    assert Message.objects.filter(conversation=conversation).count() == 2


def test_a_plan_card_names_only_the_students_own_task_classes(fake_llm, user, other_user):
    from taskclasses.tests.factories import make_task_class

    mine, theirs = make_task_class(user, name="概率论复习"), make_task_class(other_user, name="别人的计划")
    fake_llm.script(route("plan"), plan("安排复习", task_class_ids=[theirs.pk, mine.pk]))
    frames = run_turn(user, make_conversation(user), "安排复习")
    card = next(frame for frame in frames if frame["type"] == "confirm.request")
    assert card["details"]["task_classes"] == ["概率论复习"]
