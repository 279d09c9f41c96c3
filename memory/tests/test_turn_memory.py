"""Done-when: memories learned in one conversation reach the next one's prompt, updates keep history,
and "forget everything" leaves nothing. Whole turns with the scripted model; both vector stores."""

from __future__ import annotations

import pickle

import pytest
from django.core.cache import cache

from agent.tests.factories import make_conversation, reply, route, run_turn
from bench.memory_eval.scripted_model import responder
from memory.models import MemoryAudit, MemoryItem, MemoryJob
from memory.testing import MILVUS_BACKENDS
from memory.vectorstore import get_vector_store

pytestmark = pytest.mark.django_db(transaction=True)

FIRST = "我周三晚上要上实验课，而且我更喜欢早上学数学"


@pytest.fixture(params=["in_memory", *MILVUS_BACKENDS])
def store(request):
    if request.param in MILVUS_BACKENDS:
        return request.getfixturevalue(request.param)
    return get_vector_store()


@pytest.fixture
def scripted(fake_llm, memory_on):
    """The assistant's calls come from the script; memory-stage calls from the rule-based model."""
    fake_llm.set_responder(responder)
    return fake_llm


def turn(fake_llm, user, conversation, text: str, answer: str = "好的。") -> None:
    fake_llm.script(route("reply"), reply(answer))
    run_turn(user, conversation, text)


def answer_prompt(fake_llm) -> str:
    """The system prompt of the last streamed answer (the assistant's reply to the student)."""
    return [request for request in fake_llm.requests if request.stream][-1].messages[0]["content"]


def active(user) -> set[tuple[str, str]]:
    return set(MemoryItem.objects.filter(user=user, status="active").values_list("memory_type", "content"))


def test_a_finished_turn_is_extracted_into_memories(scripted, user, store):
    turn(scripted, user, make_conversation(user), FIRST)

    assert active(user) == {("constraint", "周三晚上要上实验课"), ("preference", "更喜欢早上学数学")}
    job = MemoryJob.objects.get(user=user)
    assert (job.status, job.attempts, job.result["add"]) == ("succeeded", 1, 2)
    assert store.count(user.pk) == 2
    assert set(MemoryItem.objects.values_list("vector_state", flat=True)) == {"synced"}


def test_the_next_conversation_prompt_contains_the_remembered_facts(scripted, user, store):
    turn(scripted, user, make_conversation(user), FIRST)

    turn(scripted, user, make_conversation(user), "帮我安排这周的数学复习")

    prompt = answer_prompt(scripted)
    assert "【必守约束】\n- 周三晚上要上实验课" in prompt
    assert "【学习偏好】\n- 更喜欢早上学数学" in prompt


def test_a_changed_habit_updates_the_preference_and_keeps_the_old_one_as_history(scripted, user, store):
    turn(scripted, user, make_conversation(user), FIRST)
    conversation = make_conversation(user)

    turn(scripted, user, conversation, "我现在改成晚上学数学了")

    old = MemoryItem.objects.get(user=user, content="更喜欢早上学数学")
    new = MemoryItem.objects.get(user=user, content="晚上学数学")
    assert (old.status, old.superseded_by_id, new.status) == ("archived", new.pk, "active")
    assert old.valid_to is not None and new.valid_from >= old.valid_from
    assert active(user) == {("constraint", "周三晚上要上实验课"), ("preference", "晚上学数学")}
    turn(scripted, user, conversation, "明天怎么安排？")
    prompt = answer_prompt(scripted)
    assert "晚上学数学" in prompt and "早上学数学" not in prompt


def test_forget_everything_leaves_nothing_about_the_student_in_any_store(scripted, user, store, auth_client):
    turn(scripted, user, make_conversation(user), FIRST)
    turn(scripted, user, make_conversation(user), "我现在改成晚上学数学了")
    turn(scripted, user, make_conversation(user), "明天怎么安排？")
    assert store.count(user.pk) == 2 and cache.get(f"memory:block-keys:{user.pk}")

    response = auth_client.post("/api/v1/memories/forget/", {"confirm": True}, format="json")

    assert response.status_code == 200 and response.json()["memories"] == 3
    assert not MemoryItem.objects.filter(user=user).exists()
    assert not MemoryJob.objects.filter(user=user).exists()
    assert list(MemoryAudit.objects.filter(user=user).values_list("operation", "before", "after")) == [
        ("forget_all", {}, {})]
    assert store.count(user.pk) == 0
    assert not any(word in text for text in _cached_texts() for word in ("实验课", "数学"))


def _cached_texts() -> list[str]:
    """Every value in the cache, as text: the local-memory dict, or every key of the Redis cache."""
    backend = cache._cache  # type: ignore[attr-defined]
    if isinstance(backend, dict):
        return [repr(pickle.loads(value)) for value in backend.values()]
    client = backend.get_client()
    return [repr(backend._serializer.loads(client.get(key))) for key in client.scan_iter("*")]
