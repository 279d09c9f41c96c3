"""The extraction job: skipped without a model or with memory off, retried with backoff, dead at the
limit, reclaimed when stuck; the model's aliases are mapped back and invented ones ignored."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from bench.memory_eval.scripted_model import responder
from memory.models import MemoryAudit, MemoryItem, MemoryJob
from memory.services.jobs import memory_job_run, memory_jobs_reclaim, memory_maintain
from memory.services.vectors import memory_vectors_resync
from memory.tests.factories import make_memory, make_message
from memory.vectorstore import InMemoryVectorStore, VectorStoreError, get_vector_store, set_vector_store_for_tests

pytestmark = pytest.mark.django_db


def make_job(user, text: str, **fields) -> MemoryJob:
    return MemoryJob.objects.create(user=user, user_message=make_message(user, text), **fields)


def run(job: MemoryJob, capture) -> MemoryJob:
    with capture(execute=True):
        memory_job_run(job_id=job.pk)
    job.refresh_from_db()
    return job


def test_without_a_language_model_the_job_is_skipped_not_failed(user, memory_on, django_capture_on_commit_callbacks):
    job = run(make_job(user, "我更喜欢早上学数学"), django_capture_on_commit_callbacks)

    assert (job.status, job.result) == ("skipped", {"skipped": "no language model is configured"})
    assert not MemoryItem.objects.exists()


def test_with_memory_switched_off_the_job_is_skipped(user, memory_on, fake_llm, django_capture_on_commit_callbacks):
    from memory.services.items import memory_settings_update

    memory_settings_update(user=user, enabled=False)
    job = run(make_job(user, "我更喜欢早上学数学"), django_capture_on_commit_callbacks)

    assert job.status == "skipped" and fake_llm.requests == []


def test_a_failing_model_makes_the_job_retry_later_with_the_error_kept(user, memory_on, fake_llm,
                                                                       django_capture_on_commit_callbacks):
    fake_llm.script({"status": 400, "error_message": "bad request"})
    before = timezone.now()

    job = run(make_job(user, "我更喜欢早上学数学"), django_capture_on_commit_callbacks)

    assert (job.status, job.attempts) == ("failed", 1)
    assert "bad request" in job.last_error and job.next_attempt_at > before


def test_maintenance_runs_a_due_failed_job_again_and_it_succeeds(user, memory_on, fake_llm,
                                                                 django_capture_on_commit_callbacks):
    job = make_job(user, "我更喜欢早上学数学", status="failed", attempts=1, next_attempt_at=timezone.now())
    fake_llm.set_responder(responder)

    with django_capture_on_commit_callbacks(execute=True):
        summary = memory_maintain()

    job.refresh_from_db()
    assert summary["resent"] == 1 and (job.status, job.attempts) == ("succeeded", 2)
    assert MemoryItem.objects.get(user=user).content == "更喜欢早上学数学"


def test_a_job_that_keeps_failing_is_dead_at_the_attempt_limit(user, memory_on, fake_llm, settings,
                                                              django_capture_on_commit_callbacks):
    settings.MEMORY_JOB_MAX_ATTEMPTS = 2
    fake_llm.set_fallback({"text": "这不是 JSON"})
    job = make_job(user, "我更喜欢早上学数学", status="failed", attempts=1, next_attempt_at=timezone.now())

    job = run(job, django_capture_on_commit_callbacks)

    assert (job.status, job.attempts) == ("dead", 2) and "MalformedOutput" in job.last_error


def test_a_job_stuck_running_past_its_lease_is_reclaimed(user, settings):
    stale = timezone.now() - timedelta(seconds=settings.MEMORY_JOB_LEASE_SECONDS + 5)
    job = make_job(user, "我更喜欢早上学数学", status="running", attempts=1, locked_at=stale, locked_by="lost")

    assert memory_jobs_reclaim() == 1

    job.refresh_from_db()
    assert (job.status, job.locked_by) == ("failed", "") and "lease expired" in job.last_error


def test_a_running_job_is_not_claimed_twice(user, memory_on, fake_llm):
    job = make_job(user, "我更喜欢早上学数学", status="running", attempts=1, locked_at=timezone.now(), locked_by="x")

    assert memory_job_run(job_id=job.pk) == "not_claimed"
    assert fake_llm.requests == []


def test_an_update_closes_the_old_memory_and_keeps_it_as_history(user, memory_on, fake_llm,
                                                               django_capture_on_commit_callbacks):
    old = make_memory(user, "更喜欢早上学数学")
    fake_llm.set_responder(responder)

    job = run(make_job(user, "我现在改成晚上学数学了"), django_capture_on_commit_callbacks)

    old.refresh_from_db()
    assert job.result["update"] == 1 and old.status == "archived"
    assert old.superseded_by.content == "晚上学数学" and old.superseded_by.source_message_id == job.user_message_id
    entry = MemoryAudit.objects.get(operation="update")
    assert (entry.before["content"], entry.after["content"], entry.job_id) == ("更喜欢早上学数学", "晚上学数学", job.pk)


def test_an_exact_duplicate_is_not_added_twice_and_costs_no_decision_call(user, memory_on, fake_llm,
                                                                         django_capture_on_commit_callbacks):
    make_memory(user, "更喜欢早上学数学")
    fake_llm.set_responder(responder)

    job = run(make_job(user, "我更喜欢早上学数学！"), django_capture_on_commit_callbacks)

    assert (job.result["none"], job.result["llm_calls"]) == (1, 1)
    assert MemoryItem.objects.filter(user=user).count() == 1


def test_the_model_sees_aliases_and_an_invented_one_is_ignored(user, memory_on, fake_llm,
                                                              django_capture_on_commit_callbacks):
    old = make_memory(user, "更喜欢早上学数学")
    fake_llm.script(
        {"text": json.dumps({"facts": [{"type": "preference", "content": "晚上学数学", "confidence": 0.9,
                                        "category": "ordinary"}]})},
        {"text": json.dumps({"decisions": [{"new": "f1", "action": "UPDATE", "target": str(old.pk)}]})})

    job = run(make_job(user, "我现在改成晚上学数学了"), django_capture_on_commit_callbacks)

    decision_prompt = json.loads(fake_llm.requests[1].messages[-1]["content"])
    assert decision_prompt["existing"] == [{"ref": "m1", "type": "preference", "content": "更喜欢早上学数学"}]
    assert (job.result["unknown_aliases"], job.result["add"]) == (1, 1)
    old.refresh_from_db()
    assert old.status == "active"


def test_memory_llm_tokens_are_charged_to_the_student(user, memory_on, fake_llm, django_capture_on_commit_callbacks):
    fake_llm.set_responder(responder)

    job = run(make_job(user, "我更喜欢早上学数学"), django_capture_on_commit_callbacks)

    user.refresh_from_db()
    assert job.result["tokens"] > 0 and user.token_usage == job.result["tokens"]


class BrokenStore(InMemoryVectorStore):
    def upsert(self, records):
        raise VectorStoreError("Milvus is down")


def test_a_failed_vector_sync_is_marked_and_retried_by_maintenance(user, memory_on, fake_llm,
                                                                  django_capture_on_commit_callbacks):
    fake_llm.set_responder(responder)
    healthy = get_vector_store()
    set_vector_store_for_tests(BrokenStore(dimensions=384))
    run(make_job(user, "我更喜欢早上学数学"), django_capture_on_commit_callbacks)
    item = MemoryItem.objects.get(user=user)
    assert (item.vector_state, item.vector_attempts, item.vector_error) == ("failed", 1, "Milvus is down")

    set_vector_store_for_tests(healthy)
    assert memory_vectors_resync()["synced"] == 1

    item.refresh_from_db()
    assert item.vector_state == "synced" and healthy.count(user.pk) == 1


def test_the_consumer_makes_one_job_per_event_even_if_delivered_twice(user, memory_on, django_capture_on_commit_callbacks):
    from uuid import uuid4

    from memory.services.jobs import memory_job_create_for_turn

    message = make_message(user, "我更喜欢早上学数学")
    payload = {"user_id": user.pk, "conversation_id": message.conversation_id, "user_message_id": message.pk,
               "assistant_message_id": 999_999}
    event = uuid4()

    first = memory_job_create_for_turn(event_uuid=event, payload=payload)
    second = memory_job_create_for_turn(event_uuid=event, payload=payload)

    assert first.pk == second.pk and MemoryJob.objects.count() == 1
    assert (first.user_message_id, first.assistant_message_id, first.status) == (message.pk, None, "pending")
