"""Outbox consumers of memory: a finished turn becomes an extraction job.

The consumer runs inside the outbox's transaction with its receipt, so it only writes the job row
(exactly once per event); the LLM work runs in the Celery task queued after that commits.
"""

from __future__ import annotations

from memory.services.jobs import memory_job_create_for_turn
from smartmate.platform.models import OutboxEvent
from smartmate.platform.outbox.registry import consumes
from smartmate.platform.outbox.topics import TURN_FINISHED


@consumes(TURN_FINISHED, name="memory.extract")
def extract(event: OutboxEvent) -> None:
    """Create the turn's extraction job (a skipped one when memory is off)."""
    memory_job_create_for_turn(event_uuid=event.uuid, payload=event.payload)
