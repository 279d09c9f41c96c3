"""Celery tasks of the assistant (queue ``agent``, by the ``agent.*`` route in settings)."""

from __future__ import annotations

from celery import shared_task

from agent.services.running import turn_run


@shared_task(name="agent.run_turn", acks_late=True)
def run_turn(conversation_id: int, turn_id: str, language: str) -> None:
    """Run one turn; a redelivered task resumes it from its last checkpoint (or skips a finished one)."""
    turn_run(conversation_id=conversation_id, turn_id=turn_id, language=language)
