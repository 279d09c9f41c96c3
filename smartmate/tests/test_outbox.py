"""The outbox: publish with the business change, dispatch on commit, consume once, retry, sweep, re-drive."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from smartmate.platform.models import ConsumerReceipt, IdempotencyRecord, OutboxEvent, OutboxProbe
from smartmate.platform.outbox import registry
from smartmate.platform.outbox.backoff import retry_delay
from smartmate.platform.outbox.probe import TOPIC
from smartmate.platform.outbox.services import (
    outbox_dispatch,
    outbox_event_consume,
    outbox_event_redrive,
    outbox_publish,
    outbox_sweep,
)

Status = OutboxEvent.Status


def publish(seq: int = 0, aggregate: str = "probe:1", **payload) -> OutboxEvent:
    with transaction.atomic():
        return outbox_publish(topic=TOPIC, aggregate=aggregate, payload={"seq": seq, **payload})


def consume(event: OutboxEvent) -> str:
    return outbox_event_consume(event_uuid=str(event.uuid))


def make_due(event: OutboxEvent) -> None:
    OutboxEvent.objects.filter(pk=event.pk).update(next_attempt_at=timezone.now())


@pytest.fixture
def sent(monkeypatch) -> list[dict]:
    """Record Celery hand-offs instead of running them."""
    from smartmate.platform.outbox.tasks import outbox_consume

    calls: list[dict] = []
    monkeypatch.setattr(outbox_consume, "apply_async", lambda args, **options: calls.append({"args": args, **options}))
    return calls


# --- Publish and dispatch ------------------------------------------------------------------------

def test_a_committed_event_is_consumed_once_after_commit(db, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        event = publish(seq=7)
    event.refresh_from_db()
    assert (event.status, event.attempts) == (Status.CONSUMED, 1)
    assert list(OutboxProbe.objects.values_list("event_uuid", "seq")) == [(event.uuid, 7)]
    assert ConsumerReceipt.objects.filter(consumer="probe.record", event_uuid=event.uuid).count() == 1


def test_nothing_is_dispatched_before_the_business_transaction_commits(db, sent):
    publish()
    assert sent == []
    assert OutboxEvent.objects.get().status == Status.PENDING


def test_a_rolled_back_business_transaction_dispatches_nothing(transactional_db, sent):
    with pytest.raises(RuntimeError, match="business rule broken"):
        with transaction.atomic():
            outbox_publish(topic=TOPIC, aggregate="probe:1", payload={"seq": 1})
            raise RuntimeError("business rule broken")
    assert sent == []
    assert not OutboxEvent.objects.exists()


def test_publishing_outside_a_transaction_is_refused(transactional_db):
    with pytest.raises(RuntimeError, match="must be called inside the caller's transaction.atomic()"):
        outbox_publish(topic=TOPIC, aggregate="probe:1", payload={})


def test_publishing_to_an_unknown_topic_is_refused(db):
    with pytest.raises(ValueError, match="Unknown outbox topic 'no.such.topic'"):
        with transaction.atomic():
            outbox_publish(topic="no.such.topic", aggregate="x:1", payload={})


def test_dispatch_sends_the_event_to_its_topics_queue(db, sent):
    with registry.topics_overridden():
        registry.topic_register("test.memory", queue="memory")
        registry.consumes("test.memory", name="test.noop")(lambda event: None)
        with transaction.atomic():
            event = outbox_publish(topic="test.memory", aggregate="user:1", payload={})
        assert outbox_dispatch(event_ids=[event.pk]) == 1
    assert sent == [{"args": [str(event.uuid)], "queue": "memory"}]
    assert OutboxEvent.objects.get().status == Status.DISPATCHED


# --- Consume once --------------------------------------------------------------------------------

def test_a_redelivered_event_has_no_second_effect(db):
    event = publish()
    consume(event)
    # The worker died after the consumer committed but before the event was marked consumed.
    OutboxEvent.objects.filter(pk=event.pk).update(status=Status.DISPATCHED)
    assert consume(event) == "consumed"
    assert OutboxProbe.objects.count() == 1


def test_a_duplicate_message_for_a_consumed_event_is_skipped(db):
    event = publish()
    consume(event)
    assert consume(event) == "skipped"
    assert OutboxEvent.objects.get().attempts == 1


def test_an_event_claimed_by_another_worker_is_skipped(db):
    event = publish()
    OutboxEvent.objects.filter(pk=event.pk).update(status=Status.PROCESSING, locked_at=timezone.now())
    assert consume(event) == "skipped"
    assert not OutboxProbe.objects.exists()


def test_each_consumer_of_a_topic_applies_an_event_once_even_when_another_fails(db):
    calls: list[str] = []
    with registry.topics_overridden():
        registry.topic_register("test.pair")
        registry.consumes("test.pair", name="test.first")(lambda event: calls.append("first"))

        @registry.consumes("test.pair", name="test.second")
        def second(event: OutboxEvent) -> None:
            calls.append("second")
            if calls.count("second") == 1:
                raise ConnectionError("search index down")

        with transaction.atomic():
            event = outbox_publish(topic="test.pair", aggregate="user:1", payload={})
        assert consume(event) == "retry"
        make_due(event)
        assert consume(event) == "consumed"
    assert calls == ["first", "second", "second"]


# --- Retry, backoff, dead letters ----------------------------------------------------------------

def test_retry_delays_double_with_jitter_and_stop_at_the_cap():
    import random

    rng = random.Random(4)
    delays = [retry_delay(attempt, base=2, cap=60, rng=rng) for attempt in range(1, 9)]
    ceilings = [2, 4, 8, 16, 32, 60, 60, 60]
    assert all(ceiling / 2 <= delay <= ceiling for delay, ceiling in zip(delays, ceilings))
    assert len({round(delay, 6) for delay in delays[5:]}) == 3  # jittered even at the cap


def test_a_failing_consumer_is_retried_after_a_backoff(db):
    event = publish(fail="transient")
    before = timezone.now()
    assert consume(event) == "retry"
    event.refresh_from_db()
    assert (event.status, event.attempts) == (Status.PENDING, 1)
    assert event.last_error == "RuntimeError: the probe was asked to fail this time"
    assert before + timedelta(seconds=1) <= event.next_attempt_at <= timezone.now() + timedelta(seconds=2)


def test_an_early_duplicate_does_not_cut_the_backoff_short(db):
    event = publish(fail="transient")
    consume(event)
    assert consume(event) == "early"
    assert OutboxEvent.objects.get().attempts == 1


def test_an_event_is_dead_after_the_last_attempt(db, settings):
    settings.OUTBOX_MAX_ATTEMPTS = 3
    event = publish(fail="transient")
    outcomes = []
    for _ in range(3):
        outcomes.append(consume(event))
        make_due(event)
    event.refresh_from_db()
    assert outcomes == ["retry", "retry", "dead"]
    assert (event.status, event.attempts) == (Status.DEAD, 3)


def test_a_permanent_error_is_dead_at_once(db):
    event = publish(fail="permanent")
    assert consume(event) == "dead"
    event.refresh_from_db()
    assert (event.status, event.last_error) == (Status.DEAD, "PermanentError: the probe was asked to fail for good")


def test_an_event_whose_topic_lost_its_consumer_is_dead(db):
    event = OutboxEvent.objects.create(topic="retired.topic", aggregate="x:1", next_attempt_at=timezone.now())
    assert consume(event) == "dead"
    assert OutboxEvent.objects.get().last_error == "No consumer is registered for this topic."


def test_redrive_runs_a_dead_event_again_from_attempt_zero(db, django_capture_on_commit_callbacks):
    event = publish(fail="permanent")
    consume(event)
    OutboxEvent.objects.filter(pk=event.pk).update(payload={"seq": 3})  # the cause was fixed
    with django_capture_on_commit_callbacks(execute=True):
        assert outbox_event_redrive(event_ids=[event.pk]) == 1
    event.refresh_from_db()
    assert (event.status, event.attempts) == (Status.CONSUMED, 1)
    assert OutboxProbe.objects.get().seq == 3


def test_redrive_leaves_events_that_are_not_dead_alone(db):
    event = publish()
    consume(event)
    assert outbox_event_redrive(event_ids=[event.pk]) == 0
    assert OutboxEvent.objects.get().status == Status.CONSUMED


# --- Sweeper: reclaim, re-dispatch, clean up -----------------------------------------------------

def test_the_sweeper_reclaims_an_event_whose_worker_died_mid_claim(db, settings):
    event = publish()
    long_ago = timezone.now() - timedelta(seconds=settings.OUTBOX_CLAIM_TIMEOUT + 1)
    OutboxEvent.objects.filter(pk=event.pk).update(status=Status.PROCESSING, locked_at=long_ago, locked_by="w1",
                                                   attempts=1)
    summary = outbox_sweep()
    event.refresh_from_db()
    assert (summary["reclaimed"], summary["dispatched"]) == (1, 1)
    assert (event.status, event.attempts) == (Status.CONSUMED, 2)


def test_the_sweeper_leaves_a_fresh_claim_alone(db):
    event = publish()
    OutboxEvent.objects.filter(pk=event.pk).update(status=Status.PROCESSING, locked_at=timezone.now(), attempts=1)
    assert outbox_sweep()["reclaimed"] == 0
    assert OutboxEvent.objects.get().status == Status.PROCESSING


def test_the_sweeper_dead_letters_an_expired_claim_on_the_last_attempt(db, settings):
    settings.OUTBOX_MAX_ATTEMPTS = 2
    event = publish()
    long_ago = timezone.now() - timedelta(seconds=settings.OUTBOX_CLAIM_TIMEOUT + 1)
    OutboxEvent.objects.filter(pk=event.pk).update(status=Status.PROCESSING, locked_at=long_ago, attempts=2)
    assert outbox_sweep()["dead"] == 1
    event.refresh_from_db()
    assert event.status == Status.DEAD
    assert event.last_error.startswith("The claim expired after 420 s (attempt 2)")


def test_the_sweeper_hands_over_an_event_left_pending_by_a_crash_after_commit(db):
    publish()  # its on-commit hand-off never ran
    assert outbox_sweep()["dispatched"] == 1
    assert OutboxEvent.objects.get().status == Status.CONSUMED


def test_the_sweeper_redispatches_an_event_whose_message_was_lost(db, settings, sent):
    event = publish()
    long_ago = timezone.now() - timedelta(seconds=settings.OUTBOX_DISPATCH_TIMEOUT + 1)
    OutboxEvent.objects.filter(pk=event.pk).update(status=Status.DISPATCHED, next_attempt_at=long_ago)
    summary = outbox_sweep()
    assert (summary["redispatched"], summary["dispatched"]) == (1, 1)
    assert sent[0]["args"] == [str(event.uuid)]


def test_the_sweeper_leaves_a_recently_dispatched_event_alone(db, sent):
    event = publish()
    OutboxEvent.objects.filter(pk=event.pk).update(status=Status.DISPATCHED)
    assert outbox_sweep()["redispatched"] == 0
    assert sent == []


def test_the_sweeper_deletes_expired_idempotency_records_and_old_consumed_events(db, user, settings):
    old = timezone.now() - timedelta(days=settings.OUTBOX_RETENTION_DAYS, seconds=1)
    event = publish()
    consume(event)
    OutboxEvent.objects.filter(pk=event.pk).update(consumed_at=old)
    ConsumerReceipt.objects.update(created_at=old)
    IdempotencyRecord.objects.create(user=user, key="k", fingerprint="f", method="POST", path="/",
                                     locked_at=old, expires_at=timezone.now() - timedelta(seconds=1))
    summary = outbox_sweep()
    assert (summary["events_deleted"], summary["receipts_deleted"], summary["idempotency_deleted"]) == (1, 1, 1)


# --- Per-aggregate order -------------------------------------------------------------------------

def test_a_later_event_of_an_aggregate_waits_for_the_earlier_one(db):
    first, second = publish(seq=1), publish(seq=2)
    assert consume(second) == "waiting"
    second.refresh_from_db()
    assert (second.status, second.attempts) == (Status.PENDING, 0)
    assert consume(first) == "consumed"  # and hands off to the parked second event
    assert list(OutboxProbe.objects.order_by("pk").values_list("seq", flat=True)) == [1, 2]
    assert OutboxEvent.objects.get(pk=second.pk).status == Status.CONSUMED


def test_events_of_other_aggregates_are_not_held_back(db):
    publish(seq=1, aggregate="probe:1")
    other = publish(seq=2, aggregate="probe:2")
    assert consume(other) == "consumed"


def test_a_dead_event_hands_off_to_its_successor(db):
    first = publish(seq=1, fail="permanent")
    second = publish(seq=2)
    assert consume(first) == "dead"
    assert OutboxEvent.objects.get(pk=second.pk).status == Status.CONSUMED


def test_a_failing_event_holds_its_successor_until_it_succeeds(db):
    first, second = publish(seq=1, fail="transient"), publish(seq=2)
    consume(first)
    assert consume(second) == "waiting"
    OutboxEvent.objects.filter(pk=first.pk).update(payload={"seq": 1}, next_attempt_at=timezone.now())
    consume(first)
    assert list(OutboxProbe.objects.order_by("pk").values_list("seq", flat=True)) == [1, 2]


# --- Operations: metrics, admin, beat, routing ---------------------------------------------------

def test_metrics_show_events_by_status_and_outbox_counters(client, db):
    consume(publish(seq=1, aggregate="probe:1"))
    consume(publish(fail="permanent", aggregate="probe:2"))
    publish(aggregate="probe:3")
    text = client.get("/metrics").content.decode()
    for line in ['smartmate_outbox_events{status="consumed"} 1.0', 'smartmate_outbox_events{status="dead"} 1.0',
                 'smartmate_outbox_events{status="pending"} 1.0', 'smartmate_outbox_events{status="processing"} 0.0',
                 'smartmate_outbox_consumed_total{topic="outbox.probe"}',
                 'smartmate_outbox_dead_total{topic="outbox.probe"}',
                 "smartmate_outbox_oldest_unfinished_age_seconds"]:
        assert line in text


def test_an_operator_redrives_dead_events_from_the_admin(client, db, django_capture_on_commit_callbacks):
    from accounts.models import User

    client.force_login(User.objects.create_superuser("ops", "ops@example.edu", "ops-password-123"))
    event = publish(fail="permanent")
    consume(event)
    OutboxEvent.objects.filter(pk=event.pk).update(payload={"seq": 1})
    assert client.get("/admin/smartmate/outboxevent/?status__exact=dead").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/admin/smartmate/outboxevent/", {"action": "redrive", "_selected_action": [event.pk]},
                               HTTP_ACCEPT_LANGUAGE="en", follow=True)
    assert "Re-drove 1 dead event." in response.content.decode()
    assert OutboxEvent.objects.get().status == Status.CONSUMED


def test_beat_installs_the_outbox_sweep_from_settings(transactional_db):
    from django_celery_beat.models import PeriodicTask
    from django_celery_beat.schedulers import DatabaseScheduler

    from smartmate.celery import app

    DatabaseScheduler(app=app)  # what `celery beat` does at start; it writes the schedule from settings
    task = PeriodicTask.objects.get(name="outbox-sweep")
    assert (task.task, task.interval.every, task.interval.period) == ("smartmate.outbox_sweep", 10, "seconds")


@pytest.mark.parametrize(("task", "queue"), [("agent.run_turn", "agent"), ("memory.extract", "memory"),
                                              ("smartmate.outbox_sweep", "default"), ("taskclasses.x", "default")])
def test_tasks_are_routed_to_queues_by_name(task, queue):
    from smartmate.celery import app

    assert app.amqp.router.route({}, task)["queue"].name == queue


def test_metrics_add_up_worker_counters_with_a_shared_multiprocess_folder(tmp_path):
    import os
    import subprocess
    import sys

    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "smartmate.settings",
           "SMARTMATE_VAR_DIR": str(tmp_path / "var")}
    setup = "import django; django.setup(); from smartmate.platform import metrics; "

    def run(code: str) -> str:
        return subprocess.run([sys.executable, "-c", setup + code], env=env, capture_output=True, text=True,
                              timeout=60, check=True).stdout

    run("metrics.OUTBOX_CONSUMED.labels('outbox.probe').inc(3)")  # a worker process
    text = run("metrics.OUTBOX_CONSUMED.labels('outbox.probe').inc(2); "  # the web process
               "print(metrics.render_metrics()[0].decode())")
    assert 'smartmate_outbox_consumed_total{topic="outbox.probe"} 5.0' in text


@pytest.mark.parametrize("path", ["/admin/smartmate/outboxevent/", "/admin/smartmate/consumerreceipt/",
                                  "/admin/smartmate/idempotencyrecord/"])
def test_the_outbox_admin_pages_load(admin_client, path):
    assert admin_client.get(path).status_code == 200


def test_start_refuses_a_retry_delay_above_the_visibility_timeout():
    import os
    import subprocess
    import sys

    env = {**{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"}},
           "OUTBOX_RETRY_MAX_DELAY": "9000", "CELERY_VISIBILITY_TIMEOUT": "7200"}
    result = subprocess.run([sys.executable, "manage.py", "check"], env=env, capture_output=True, text=True,
                            timeout=60, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert result.returncode != 0
    assert "OUTBOX_RETRY_MAX_DELAY and OUTBOX_ORDER_RECHECK must stay below CELERY_VISIBILITY_TIMEOUT." in result.stderr
