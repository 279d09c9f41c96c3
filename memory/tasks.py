"""Memory's Celery tasks (queue ``memory``): thin wrappers around ``memory.services.jobs``."""

from __future__ import annotations

from celery import shared_task

from memory.services import jobs


@shared_task(name=jobs.RUN_JOB_TASK, acks_late=False, ignore_result=True)  # its lease row redoes it
def memory_job_run(job_id: int) -> str:
    """Run one extraction job. Retries are driven by the job row (see services.jobs), not Celery."""
    return jobs.memory_job_run(job_id=job_id)


@shared_task(name="memory.maintenance", ignore_result=True)
def memory_maintenance() -> dict:
    """Reclaim stuck jobs, resend due ones, re-sync failed vectors and owed purges (run by beat)."""
    return jobs.memory_maintain()
