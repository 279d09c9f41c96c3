"""Forgetting one memory for good, unlike invalidating it: the row and all its versions, their vectors,
cached blocks and audit text are gone; one audit entry says only that, when and by whom. From the
service, the page, the API and the decision stage; on both vector stores."""

from __future__ import annotations

import json

import pytest

from agent.tests.factories import make_conversation, reply, route, run_turn
from bench.memory_eval.scripted_model import responder
from bench.memory_eval.traces import memory_traces, vector_ids
from memory.cache import block_cache_generation, block_cache_get, block_cache_set
from memory.models import MemoryAudit, MemoryItem, MemoryJob, MemorySettings
from memory.recall import memory_recall
from memory.services.items import NewMemory, memory_edit, memory_forget, memory_invalidate, memory_supersede
from memory.services.jobs import memory_job_run
from memory.services.vectors import memory_vectors_resync, memory_vectors_sync
from memory.testing import MILVUS_BACKENDS
from memory.tests.factories import make_memory, make_message
from memory.vectorstore import InMemoryVectorStore, VectorStoreError, get_vector_store, set_vector_store_for_tests

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=["in_memory", *MILVUS_BACKENDS])
def store(request):
    if request.param in MILVUS_BACKENDS:
        return request.getfixturevalue(request.param)
    return get_vector_store()


def synced(user, content: str, memory_type: str = "preference") -> MemoryItem:
    item = make_memory(user, content, memory_type)
    memory_vectors_sync(ids=[item.pk])
    return item


def three_versions(user) -> MemoryItem:
    """"早上" → "下午" (edited) → "晚上" (learned): return the active, latest version."""
    first = synced(user, "更喜欢早上学数学")
    second = memory_edit(user=user, memory_id=first.pk, content="更喜欢下午学数学")
    return memory_supersede(user=user, old=second, new=NewMemory("preference", "更喜欢晚上学数学"))


def test_forget_removes_every_version_its_vectors_its_cached_blocks_and_its_audit_text(user, store, memory_on):
    latest = three_versions(user)
    memory_vectors_sync(ids=[latest.pk])
    kept = synced(user, "周三晚上要上实验课", "constraint")
    assert "学数学" in memory_recall(user=user, query="数学怎么安排").block  # cached now

    forgotten = memory_forget(user=user, memory_id=latest.pk)

    assert len(forgotten) == 3
    assert memory_traces(user=user, words=["学数学"], store=store) == []
    assert list(MemoryItem.objects.filter(user=user).values_list("pk", flat=True)) == [kept.pk]
    assert vector_ids(user=user, store=store) == [kept.pk]
    entry = MemoryAudit.objects.get(user=user, operation="forget")
    assert (entry.operator, entry.memory_id, entry.before, entry.after) == ("user", None, {}, {"versions": 3})
    assert "学数学" not in memory_recall(user=user, query="数学怎么安排").block


def test_forgetting_an_earlier_version_forgets_the_current_one_too(user):
    latest = three_versions(user)
    first = MemoryItem.objects.get(user=user, content="更喜欢早上学数学")

    memory_forget(user=user, memory_id=first.pk)

    assert not MemoryItem.objects.filter(pk=latest.pk).exists()


def test_an_invalidated_memory_keeps_its_history_but_a_forgotten_one_does_not(user):
    lab = make_memory(user, "周三晚上要上实验课", "constraint")
    exam = make_memory(user, "在准备考研", "goal")

    memory_invalidate(user=user, item=lab)
    memory_forget(user=user, memory_id=exam.pk)

    assert MemoryItem.objects.get(pk=lab.pk).status == "archived"
    assert not MemoryItem.objects.filter(pk=exam.pk).exists()
    assert list(MemoryAudit.objects.filter(user=user).order_by("id").values_list("operation", flat=True)) == [
        "invalidate", "forget"]


def test_a_vector_the_store_would_not_delete_is_owed_and_deleted_by_maintenance(user):
    healthy = get_vector_store()
    item = synced(user, "在准备考研", "goal")
    set_vector_store_for_tests(RefusingStore(healthy))

    memory_forget(user=user, memory_id=item.pk)

    assert MemorySettings.objects.get(user=user).vector_forget_pending == [item.pk]
    set_vector_store_for_tests(healthy)
    assert memory_vectors_resync()["forgotten"] == 1
    assert healthy.count(user.pk) == 0 and MemorySettings.objects.get(user=user).vector_forget_pending == []


def test_a_block_built_before_a_forget_is_not_cached_after_it(user, settings):
    settings.MEMORY_BLOCK_CACHE_SECONDS = 60
    generation = block_cache_generation(user.pk)
    item = make_memory(user, "在准备考研", "goal")

    memory_forget(user=user, memory_id=item.pk)  # commits and clears while a recall is still building
    block_cache_set(user.pk, "考研", "- 在准备考研", generation=generation)

    assert block_cache_get(user.pk, "考研") is None


def test_the_api_forgets_for_good_and_replays_a_retry_with_the_same_key(auth_client, user):
    item = make_memory(user, "在准备考研", "goal")
    headers = {"HTTP_X_IDEMPOTENCY_KEY": "forget-1"}

    first = auth_client.post(f"/api/v1/memories/{item.pk}/forget/", **headers)
    second = auth_client.post(f"/api/v1/memories/{item.pk}/forget/", **headers)

    assert (first.status_code, first.json()) == (200, {"forgotten": [item.pk]})
    assert second.json() == first.json() and second["Idempotent-Replayed"] == "true"
    assert auth_client.post(f"/api/v1/memories/{item.pk}/forget/").status_code == 404


def test_another_students_memory_cannot_be_forgotten(auth_client, other_user):
    item = make_memory(other_user, "在准备考研", "goal")

    response = auth_client.post(f"/api/v1/memories/{item.pk}/forget/")

    assert response.status_code == 404 and response.json()["code"] == "memory_not_found"
    assert MemoryItem.objects.filter(pk=item.pk).exists()


def test_the_page_forgets_for_good_beside_delete(client, user):
    client.force_login(user)
    item = make_memory(user, "在准备考研", "goal")
    assert "memory-forget-one" in client.get("/memory/").content.decode()

    response = client.post(f"/memory/{item.pk}/forget/", follow=True, HTTP_ACCEPT_LANGUAGE="en")

    assert "Memory forgotten for good" in response.content.decode()
    assert not MemoryItem.objects.filter(user=user).exists()


# --- The decision stage ----------------------------------------------------------------------------

def turn(fake_llm, user, text: str) -> None:
    fake_llm.script(route("reply"), reply("好的。"))
    run_turn(user, make_conversation(user), text)


def run_job(user, text: str) -> None:
    """Run one extraction job (on-commit work runs at once: the test is transactional)."""
    job = MemoryJob.objects.create(user=user, user_message=make_message(user, text))
    memory_job_run(job_id=job.pk)


def test_asking_in_a_conversation_forgets_the_memory_everywhere(fake_llm, user, store, memory_on):
    fake_llm.set_responder(responder)
    turn(fake_llm, user, "我在准备考研，而且我更喜欢早上学数学")
    assert MemoryItem.objects.filter(user=user, content__contains="考研").exists()

    turn(fake_llm, user, "别再记着我在准备考研了")

    assert memory_traces(user=user, words=["考研"], store=store) == []
    assert list(MemoryItem.objects.filter(user=user).values_list("content", flat=True)) == ["更喜欢早上学数学"]
    assert MemoryAudit.objects.filter(user=user, operation="forget", operator="system").count() == 1


def test_a_forget_request_offers_the_details_learned_in_the_same_sentence(fake_llm, user, memory_on):
    """"在准备考研 目标浙大计算机" became two memories; asking to forget 考研 shows the model both, the
    target school marked as learned with it (similarity alone would not find it), and the model's
    choice to forget both is carried out."""
    said = make_message(user, "我在准备考研 目标浙大计算机")
    exam = make_memory(user, "在准备考研", "goal", source=said)
    school = make_memory(user, "目标浙大计算机", "goal", source=said)
    other = make_memory(user, "更喜欢早上学数学", "preference", source=make_message(user, "我更喜欢早上学数学"))
    fake_llm.script(
        {"text": json.dumps({"facts": [{"type": "goal", "content": "在准备考研", "confidence": 0.9,
                                        "category": "forget_request"}]})},
        {"text": json.dumps({"decisions": [{"new": "f1", "action": "FORGET", "targets": ["m1", "m2"]}]})})

    run_job(user, "别再记着我在准备考研了")

    offered = json.loads(fake_llm.requests[-1].messages[-1]["content"])["existing"]
    assert {"ref": "m2", "type": "goal", "content": "目标浙大计算机", "learned_with": "m1"} in offered
    assert offered[0] == {"ref": "m1", "type": "goal", "content": "在准备考研"}
    assert not MemoryItem.objects.filter(pk__in=[exam.pk, school.pk]).exists()
    assert MemoryItem.objects.filter(pk=other.pk).exists()


def test_a_forget_request_with_nothing_to_forget_stores_nothing(fake_llm, user, memory_on):
    fake_llm.set_responder(responder)

    turn(fake_llm, user, "别再记着我在准备考研了")

    assert not MemoryItem.objects.filter(user=user).exists()


def test_forget_proposed_for_a_fact_that_is_no_forget_request_only_invalidates(fake_llm, user, memory_on):
    old = make_memory(user, "周三晚上要上实验课", "constraint")
    fake_llm.script(
        {"text": json.dumps({"facts": [{"type": "constraint", "content": "不再上实验课", "confidence": 0.9,
                                        "category": "ordinary"}]})},
        {"text": json.dumps({"decisions": [{"new": "f1", "action": "FORGET", "targets": ["m1"]}]})})

    run_job(user, "我不上实验课了")

    assert MemoryItem.objects.get(pk=old.pk).status == "archived"


def test_a_forget_request_never_reaches_another_students_memory(fake_llm, user, other_user, memory_on):
    mine = make_memory(user, "在准备考研", "goal")
    theirs = make_memory(other_user, "在准备考研", "goal")
    fake_llm.script(
        {"text": json.dumps({"facts": [{"type": "goal", "content": "在准备考研", "confidence": 0.9,
                                        "category": "forget_request"}]})},
        {"text": json.dumps({"decisions": [{"new": "f1", "action": "FORGET",
                                            "targets": ["m1", str(theirs.pk), "m9"]}]})})

    run_job(user, "别再记着我在准备考研了")

    assert not MemoryItem.objects.filter(pk=mine.pk).exists() and MemoryItem.objects.filter(pk=theirs.pk).exists()


class RefusingStore(InMemoryVectorStore):
    def __init__(self, inner):
        super().__init__(dimensions=inner.dimensions)

    def delete(self, ids):
        raise VectorStoreError("Milvus is down")

