"""The extraction job's lifecycle: created by the outbox consumer, run by a Celery task, retried
with backoff, reclaimed when a worker dies, given up on after ``MEMORY_JOB_MAX_ATTEMPTS``.

The job row, not Celery, owns the retry state (as the outbox does): every transition is a
conditional UPDATE, so duplicate or redelivered messages cannot run a job twice at once, and the
maintenance task finds whatever a lost message or a dead worker left behind, so no job stays stuck.
"""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.exceptions import TokenQuotaExceededError
from accounts.models import User
from memory import metrics
from memory.conversations import messages_get
from memory.models import MemoryJob
from memory.services.extraction import memory_extract_and_apply
from memory.services.items import memory_enabled
from memory.services.vectors import memory_vectors_resync
from smartmate.llm import LLMNotConfigured
from smartmate.platform.outbox.backoff import retry_delay
from smartmate.platform.task_queue import task_send

log = logging.getLogger("memory.jobs")

RUN_JOB_TASK = "memory.run_job"  # registered by memory.tasks, which imports this module

Status = MemoryJob.Status
EARLY_TOLERANCE = timedelta(milliseconds=500)
#: A pending job whose message may still be queued is left alone this long before maintenance resends it.
RESEND_AFTER = timedelta(seconds=60)


def memory_job_create_for_turn(*, event_uuid: uuid.UUID | str, payload: dict) -> MemoryJob | None:
    """Record the extraction job of a finished turn (once per event) and queue it after commit.

    Called by the outbox consumer inside its transaction. Memory switched off makes a skipped job.
    """
    user_id = payload.get("user_id")
    user = User.objects.filter(pk=user_id).first() if user_id is not None else None
    if user is None:
        return None
    enabled = memory_enabled(user=user)
    # Messages may be gone by now (conversation deleted): keep only ids that still exist.
    wanted = [payload.get("user_message_id"), payload.get("assistant_message_id")]
    existing = messages_get(user=user, message_ids=wanted)
    question, answer = (i if i in existing else None for i in wanted)
    if question is not None and _is_card_answer(existing[question].content):
        enabled, skipped = False, {"skipped": "a confirmation card's answer"}
    else:
        skipped = {"skipped": "memory is off"}
    job, created = MemoryJob.objects.get_or_create(event_uuid=event_uuid, defaults={
        "user": user, "conversation_id": payload.get("conversation_id"),
        "user_message_id": question, "assistant_message_id": answer,
        "status": Status.PENDING if enabled else Status.SKIPPED,
        "result": {} if enabled else skipped})
    if created and enabled:
        transaction.on_commit(partial(_send, job.pk), robust=True)
    return job


def _is_card_answer(text: str) -> bool:
    """True for the line the server writes when a card is accepted or declined without words.

    It quotes the card ("Accepted: Forget for good “在准备考研”…"): learning from it would store
    what the student just asked to forget, or a tool's arguments, as facts about them.
    """
    for language in ("zh-hans", "en"):
        with translation.override(language):
            prefixes = [gettext(line).split("%(what)s")[0] for line in ("Accepted: %(what)s", "Declined: %(what)s")]
        if any(prefix and text.startswith(prefix) for prefix in prefixes):
            return True
    return False


def _send(job_id: int) -> None:
    try:
        task_send(RUN_JOB_TASK, args=[job_id], queue="memory")
    except Exception:  # a broker outage must not fail the turn; maintenance resends
        log.exception("memory: could not queue job %s; maintenance will resend it", job_id)


def memory_job_run(*, job_id: int) -> str:
    """Claim a due job and run it; return succeeded, skipped, retry, dead or not_claimed."""
    now = timezone.now()
    token = uuid.uuid4().hex
    claimed = MemoryJob.objects.filter(
        pk=job_id, status__in=[Status.PENDING, Status.FAILED], next_attempt_at__lte=now + EARLY_TOLERANCE,
    ).update(status=Status.RUNNING, locked_at=now, locked_by=token, attempts=F("attempts") + 1, updated_at=now)
    if not claimed:
        return "not_claimed"
    job = MemoryJob.objects.select_related("user", "user_message", "assistant_message").get(pk=job_id)
    if not memory_enabled(user=job.user):
        return _finish(job, token, Status.SKIPPED, {"skipped": "memory is off"})
    try:
        outcome = memory_extract_and_apply(
            job=job, min_confidence=settings.MEMORY_MIN_CONFIDENCE, max_facts=settings.MEMORY_MAX_FACTS_PER_TURN,
            candidates_per_fact=settings.MEMORY_DECISION_CANDIDATES)
    except LLMNotConfigured:
        return _finish(job, token, Status.SKIPPED, {"skipped": "no language model is configured"})
    except TokenQuotaExceededError:  # retrying cannot help before the window resets
        return _finish(job, token, Status.SKIPPED, {"skipped": "the weekly assistant quota is used up"})
    except Exception as exc:  # noqa: BLE001 - process edge: recorded on the job, retried with backoff
        return _fail(job, token, exc)
    return _finish(job, token, Status.SUCCEEDED, outcome.as_dict())


def _finish(job: MemoryJob, token: str, status: str, result: dict) -> str:
    now = timezone.now()
    MemoryJob.objects.filter(pk=job.pk, status=Status.RUNNING, locked_by=token).update(
        status=status, result=result, last_error="", locked_at=None, locked_by="", finished_at=now, updated_at=now)
    metrics.JOBS.labels(status).inc()
    return str(status)


def _fail(job: MemoryJob, token: str, exc: Exception) -> str:
    error = f"{type(exc).__name__}: {exc}"[:2000]
    now = timezone.now()
    claim = MemoryJob.objects.filter(pk=job.pk, status=Status.RUNNING, locked_by=token)
    if job.attempts >= settings.MEMORY_JOB_MAX_ATTEMPTS:
        claim.update(status=Status.DEAD, last_error=error, locked_at=None, locked_by="", finished_at=now, updated_at=now)
        metrics.JOBS.labels("dead").inc()
        log.error("memory: job %s is dead after %s attempts: %s", job.pk, job.attempts, error)
        return "dead"
    delay = retry_delay(job.attempts, base=settings.MEMORY_JOB_RETRY_BASE_DELAY,
                        cap=settings.MEMORY_JOB_RETRY_MAX_DELAY)
    claim.update(status=Status.FAILED, last_error=error, next_attempt_at=now + timedelta(seconds=delay),
                 locked_at=None, locked_by="", updated_at=now)
    metrics.JOBS.labels("failed").inc()
    log.warning("memory: job %s failed attempt %s, retrying in %.1f s: %s", job.pk, job.attempts, delay, error)
    return "retry"  # maintenance (beat, every 30 s) sends it again once due; no countdown message waits in a worker


def memory_jobs_rerun(*, job_ids: list[int]) -> int:
    """Run dead jobs again from attempt zero (an operator fixed the cause); return how many were queued."""
    now = timezone.now()
    ids = list(MemoryJob.objects.filter(pk__in=job_ids, status=Status.DEAD).values_list("pk", flat=True))
    MemoryJob.objects.filter(pk__in=ids).update(status=Status.PENDING, attempts=0, next_attempt_at=now,
                                                last_error="", finished_at=None, updated_at=now)
    for job_id in ids:
        transaction.on_commit(partial(_send, job_id))
    return len(ids)


def memory_jobs_resend_waiting() -> int:
    """Send every job still waiting for a worker again (a worker reconnected: Redis may have lost them)."""
    ids = list(MemoryJob.objects.filter(status=Status.PENDING).order_by("pk").values_list("pk", flat=True)[:500])
    for job_id in ids:
        _send(job_id)
    return len(ids)


def memory_jobs_resend_on_connect(**_signal) -> dict[str, int]:
    """Receiver of smartmate.platform.broker.broker_connected."""
    return {"memory_jobs": memory_jobs_resend_waiting()}


def memory_jobs_reclaim(*, now=None) -> int:
    """Free jobs whose worker took them and never finished (killed, lost, hung); return how many."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.MEMORY_JOB_LEASE_SECONDS)
    stuck = MemoryJob.objects.filter(status=Status.RUNNING, locked_at__lt=cutoff)
    reclaimed = 0
    for job in stuck.order_by("locked_at")[:500]:
        claim = MemoryJob.objects.filter(pk=job.pk, status=Status.RUNNING, locked_by=job.locked_by)
        error = f"The lease expired after {settings.MEMORY_JOB_LEASE_SECONDS} s (attempt {job.attempts}): worker lost?"
        if job.attempts >= settings.MEMORY_JOB_MAX_ATTEMPTS:
            claim.update(status=Status.DEAD, last_error=error, locked_at=None, locked_by="", finished_at=now,
                         updated_at=now)
            metrics.JOBS.labels("dead").inc()
        elif claim.update(status=Status.FAILED, last_error=error, next_attempt_at=now, locked_at=None,
                          locked_by="", updated_at=now):
            metrics.JOBS.labels("reclaimed").inc()
            reclaimed += 1
    return reclaimed


def memory_maintain(*, now=None) -> dict[str, int]:
    """Reclaim stuck jobs, run due ones again, re-sync failed vectors; return counts (beat, every 30 s)."""
    now = now or timezone.now()
    summary = {"reclaimed": memory_jobs_reclaim(now=now)}
    due = MemoryJob.objects.filter(
        Q(status=Status.FAILED, next_attempt_at__lte=now) | Q(status=Status.PENDING, created_at__lt=now - RESEND_AFTER)
    ).order_by("next_attempt_at").values_list("pk", flat=True)[:500]
    summary["resent"] = 0
    for job_id in due:
        _send(job_id)
        summary["resent"] += 1
    summary.update(memory_vectors_resync(now=now))
    if any(summary.values()):
        log.info("memory: maintenance %s", summary)
    return summary
