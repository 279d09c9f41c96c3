"""The chat path to forgetting: "别再记着我在准备考研了" → a card naming the memories → on accept they are
gone from the rows, the vector store and the next prompt. The tool itself, and a whole turn."""

from __future__ import annotations

import pytest
from django.utils import timezone

from agent.tests.factories import last_of, make_conversation, reply, resume, route, run_turn, tool_call
from agent.tools.memory_forget import TOOL
from agent.tools.support.base import ToolContext
from bench.memory_eval.scripted_model import responder
from bench.memory_eval.traces import memory_traces
from memory.models import MemoryAudit, MemoryItem
from memory.services.items import NewMemory, memory_supersede
from memory.services.vectors import memory_vectors_sync
from memory.tests.factories import make_memory
from memory.vectorstore import get_vector_store

pytestmark = pytest.mark.django_db(transaction=True)

EN = "en"


def ctx(user, call_id: str = "call-1") -> ToolContext:
    return ToolContext(user_id=user.pk, conversation_id=0, call_id=call_id, now=timezone.now(), language=EN)


@pytest.fixture
def exam(user):
    """Two memories about the exam (one with an earlier version) and one about something else."""
    old = make_memory(user, "打算考研", "goal")
    current = memory_supersede(user=user, old=old, new=NewMemory("goal", "在准备考研"))
    target = make_memory(user, "考研目标浙大计算机", "goal")
    other = make_memory(user, "更喜欢早上学数学")
    memory_vectors_sync(ids=[current.pk, target.pk, other.pk])
    return current, target, other


def test_the_card_names_the_memories_that_will_be_forgotten(user, exam, settings):
    settings.LANGUAGE_CODE = EN

    text = TOOL.confirmation({"memories": ["考研"]}, ctx(user), None)

    assert text == "Forget for good, with earlier versions (cannot be undone): “在准备考研”、“考研目标浙大计算机”."


def test_accepting_forgets_them_with_their_versions_and_nothing_else(user, exam):
    current, target, other = exam

    result = TOOL.run({"memories": ["考研"]}, ctx(user), None)

    assert (result.status, result.data) == ("done", {"forgotten": 2, "versions": 3})
    assert "考研" not in result.content
    assert list(MemoryItem.objects.filter(user=user).values_list("pk", flat=True)) == [other.pk]
    assert memory_traces(user=user, words=["考研"], store=get_vector_store()) == []
    assert MemoryAudit.objects.filter(user=user, operation="forget", operator="user").count() == 2


def test_running_the_call_again_forgets_nothing_more(user, exam):
    TOOL.run({"memories": ["考研"]}, ctx(user), None)

    again = TOOL.run({"memories": ["考研"]}, ctx(user), None)

    assert again.status == "failed" and again.data == {"code": "memory_not_found"}
    assert MemoryItem.objects.filter(user=user).count() == 1


def test_another_students_memories_are_never_named_or_forgotten(user, other_user, exam):
    theirs = make_memory(other_user, "在准备考研", "goal")

    TOOL.run({"memories": ["在准备考研"]}, ctx(user), None)

    assert MemoryItem.objects.filter(pk=theirs.pk).exists()


def test_a_whole_turn_asks_first_then_forgets_and_the_next_prompt_has_no_trace(fake_llm, user, exam, memory_on):
    fake_llm.set_responder(responder)  # the memory jobs after each turn
    conversation = make_conversation(user)
    fake_llm.script(route("execute"), tool_call("forget_memories", {"memories": ["在准备考研", "考研目标浙大计算机"]}))

    card = last_of(run_turn(user, conversation, "别再记着我在准备考研了"), "confirm.request")
    assert card["details"]["tool"] == "forget_memories"
    assert "“在准备考研”" in card["summary"] and "“考研目标浙大计算机”" in card["summary"]
    assert MemoryItem.objects.filter(user=user, status="active", content__contains="考研").count() == 2

    fake_llm.script(reply("好的，已经忘掉了。"))
    done = resume(user, conversation, card["interaction_id"], "accept")
    fake_llm.script(route("reply"), reply("好的。"))
    run_turn(user, make_conversation(user), "帮我排一下明天")

    assert last_of(done, "tool.result")["status"] == "done"
    assert memory_traces(user=user, words=["考研"], store=get_vector_store()) == []
    answer = [request for request in fake_llm.requests if request.stream][-1]
    assert "考研" not in answer.messages[0]["content"]


def test_the_line_written_for_an_accepted_card_is_not_learned_from(user, memory_on):
    from uuid import uuid4

    from memory.services.jobs import memory_job_create_for_turn
    from memory.tests.factories import make_message

    message = make_message(user, "已同意：彻底忘掉（连同历史版本，不可恢复）：“在准备考研”。")

    job = memory_job_create_for_turn(event_uuid=uuid4(), payload={"user_id": user.pk, "user_message_id": message.pk})

    assert (job.status, job.result) == ("skipped", {"skipped": "a confirmation card's answer"})


def test_a_forget_request_in_a_turn_waiting_on_a_card_is_left_to_the_card(fake_llm, user, exam, memory_on):
    from memory.models import MemoryJob
    from memory.services.jobs import memory_job_run
    from memory.tests.factories import make_message

    fake_llm.set_responder(responder)
    question = make_message(user, "别再记着我在准备考研了")
    answer = question.conversation.messages.create(role="assistant", content="", outcome="interrupted")
    job = MemoryJob.objects.create(user=user, user_message=question, assistant_message=answer)

    memory_job_run(job_id=job.pk)

    assert MemoryItem.objects.filter(user=user, status="active", content__contains="考研").count() == 2
