""""Forget everything" said in conversation: recognised as such, proposed on the forget card in chat,
carried out by the memory job when no card asks; a topic ("everything about my job") is not everything."""

from __future__ import annotations

import pytest
from django.utils import timezone

from agent.tests.factories import last_of, make_conversation, resume, route, run_turn, tool_call
from agent.tools.memory_forget import TOOL
from agent.tools.support.base import ToolContext
from bench.memory_eval.scripted_model import responder
from bench.memory_eval.traces import memory_traces
from memory.core.forget_requests import asks_for_everything_about, is_forget_everything
from memory.models import MemoryItem, MemoryJob
from memory.services.items import NewMemory, memory_supersede
from memory.services.jobs import memory_job_run
from memory.services.vectors import memory_vectors_sync
from memory.tests.factories import make_memory, make_message
from memory.vectorstore import get_vector_store

EVERYTHING = ["forget everything", "Forget everything.", "please forget everything you know about me",
              "can you forget everything about me?", "wipe your memory", "delete all my memories",
              "把你记得的都忘掉", "把你记得的都忘掉吧", "忘掉所有记忆", "清空记忆", "把所有记忆都删掉",
              "关于我的一切都忘了吧", "你记住的东西全部删掉",
              # written down as students say it, before any evaluation run was looked at:
              "把你记得的关于我的东西都删了", "把我的记忆全部删除", "你把我说过的都忘了吧", "把之前跟你说的都忘了",
              "把我跟你说过的全部删掉", "重置记忆", "Forget everything I told you", "Forget everything I've said",
              "Forget everything I said so far", "Reset your memory"]
NOT_EVERYTHING = ["Forget everything about my tutoring job, please.", "don't forget everything I said",
                  "别忘了我周三有课", "把考研的事都忘掉", "forget the vocab thing", "忘掉考研",
                  "所有东西都忘了", "我把所有东西都忘了 考试好难", "I forgot everything in the exam", "忘了一切",
                  "reset everything", "把我说过的话忘了吧", "别忘了我说过的都要做", "I forgot everything I said"]


@pytest.mark.parametrize("text", EVERYTHING)
def test_a_request_to_forget_everything_is_recognised(text):
    assert is_forget_everything(text)


@pytest.mark.parametrize("text", NOT_EVERYTHING)
def test_a_topic_a_negation_or_a_complaint_is_not_forget_everything(text):
    assert not is_forget_everything(text)


@pytest.mark.parametrize(("text", "about"), [
    ("Forget everything about my tutoring job, please.", True), ("把家教的事都忘掉", True),
    ("关于家教的一切都忘掉吧", True), ("forget the vocab thing", False), ("别再记着我在准备考研了", False),
    ("don't forget everything about my exam", False),
])
def test_everything_about_a_topic_is_told_from_one_memory(text, about):
    assert asks_for_everything_about(text) is about


@pytest.mark.django_db(transaction=True)
def test_forgetting_everything_about_a_topic_takes_the_details_learned_with_it(fake_llm, user, memory_on):
    fake_llm.set_responder(responder)
    told = make_message(user, "I tutor a high school kid in maths every Sunday afternoon, 300 RMB per session")
    make_memory(user, "tutor a high school kid in maths every Sunday afternoon", "constraint", source=told)
    make_memory(user, "300 RMB per session", "fact", source=told)
    keep = make_memory(user, "prefers maths in the morning", "preference")
    memory_vectors_sync(ids=list(MemoryItem.objects.filter(user=user).values_list("pk", flat=True)))
    question = make_message(user, "Forget everything about my tutoring job, please.")
    answer = question.conversation.messages.create(role="assistant", content="OK.")
    job = MemoryJob.objects.create(user=user, user_message=question, assistant_message=answer)

    memory_job_run(job_id=job.pk)

    assert list(MemoryItem.objects.filter(user=user).values_list("pk", flat=True)) == [keep.pk]
    assert memory_traces(user=user, words=["tutor", "300"], store=get_vector_store()) == []


@pytest.fixture
def memories(user):
    old = make_memory(user, "打算考研", "goal")
    current = memory_supersede(user=user, old=old, new=NewMemory("goal", "在准备考研"))
    other = make_memory(user, "更喜欢早上学数学")
    memory_vectors_sync(ids=[current.pk, other.pk])
    return current, other


def ctx(user) -> ToolContext:
    return ToolContext(user_id=user.pk, conversation_id=0, call_id="call-1", now=timezone.now(), language="en")


@pytest.mark.django_db(transaction=True)
def test_the_forget_card_for_everything_counts_the_memories_and_accepting_removes_all(user, memories, settings):
    settings.LANGUAGE_CODE = "en"

    card = TOOL.confirmation({"memories": ["全部"]}, ctx(user), None)
    result = TOOL.run({"memories": ["全部"]}, ctx(user), None)

    assert card == ("Forget everything memory holds about you for good (2 memories, with their history; "
                    "cannot be undone).")
    assert (result.status, result.data) == ("done", {"forgotten": 2, "versions": 3})
    assert not MemoryItem.objects.filter(user=user).exists()
    assert memory_traces(user=user, words=["考研", "数学"], store=get_vector_store()) == []


@pytest.mark.django_db(transaction=True)
def test_forgetting_what_was_never_stored_says_so_and_removes_nothing(user, memories):
    card = TOOL.confirmation({"memories": ["手机号"]}, ctx(user), None)
    result = TOOL.run({"memories": ["手机号"]}, ctx(user), None)

    assert card == "No memory matches this; nothing will be forgotten."
    assert (result.status, result.data) == ("failed", {"code": "memory_not_found"})
    assert "从未记下" in result.content
    assert MemoryItem.objects.filter(user=user).count() == 3


@pytest.mark.django_db(transaction=True)
def test_forget_everything_in_chat_proposes_the_card_and_waits(fake_llm, user, memories, memory_on):
    fake_llm.set_responder(responder)  # the memory job after the turn
    conversation = make_conversation(user)
    fake_llm.script(route("execute"), tool_call("forget_memories", {"memories": ["全部"]}))

    card = last_of(run_turn(user, conversation, "把你记得的都忘掉"), "confirm.request")

    assert card["details"]["tool"] == "forget_memories"
    assert "2" in card["summary"]
    assert MemoryItem.objects.filter(user=user, status="active").count() == 2  # the student decides first
    fake_llm.script(route("reply"))
    resume(user, conversation, card["interaction_id"], "accept")
    assert not MemoryItem.objects.filter(user=user).exists()


@pytest.mark.django_db(transaction=True)
def test_the_memory_job_forgets_everything_when_no_card_asks(fake_llm, user, memories, memory_on):
    fake_llm.set_responder(responder)
    question = make_message(user, "forget everything you know about me")
    answer = question.conversation.messages.create(role="assistant", content="OK.")
    job = MemoryJob.objects.create(user=user, user_message=question, assistant_message=answer)

    memory_job_run(job_id=job.pk)

    assert not MemoryItem.objects.filter(user=user).exists()
    assert memory_traces(user=user, words=["考研", "数学"], store=get_vector_store()) == []
    assert not fake_llm.requests  # nothing to extract from it: no model call


@pytest.mark.django_db(transaction=True)
def test_the_memory_job_leaves_forget_everything_to_a_waiting_card(fake_llm, user, memories, memory_on):
    fake_llm.set_responder(responder)
    question = make_message(user, "把你记得的都忘掉")
    answer = question.conversation.messages.create(role="assistant", content="", outcome="interrupted")
    job = MemoryJob.objects.create(user=user, user_message=question, assistant_message=answer)

    memory_job_run(job_id=job.pk)

    assert MemoryItem.objects.filter(user=user).count() == 3
