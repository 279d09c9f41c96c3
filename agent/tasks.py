"""Celery tasks of the assistant (queue ``agent``, by the ``agent.*`` route in settings)."""

from __future__ import annotations

from celery import shared_task

from agent.services.dispatch import RUN_TURN_TASK
from agent.services.recovery import turns_sweep
from agent.services.running import turn_run
from smartmate.platform.channel_send import sends_flush


# Acknowledged as it starts (settings: CELERY_TASK_ACKS_LATE). A worker that dies mid-turn leaves a lease
# that runs out; the sweeper hands the turn out again, and the turn row decides what that delivery does
# (agent.services.leases): resume the turn, or skip it if it is over or held by a live attempt.
@shared_task(name=RUN_TURN_TASK, acks_late=False, ignore_result=True)
def run_turn(conversation_id: int, turn_id: str, language: str) -> None:
    """Run one turn; a redelivered task resumes it from its last checkpoint (or skips a finished one)."""
    try:
        turn_run(conversation_id=conversation_id, turn_id=turn_id, language=language)
    finally:
        # The turn's live frames are sent in the background (smartmate.platform.channel_send); its
        # turn.done must be on its way before this process takes the next turn or shuts down.
        sends_flush()


@shared_task(name="agent.sweep_turns", ignore_result=True)
def sweep_turns() -> dict[str, int]:
    """Resume or end turns whose worker died, and re-send turns whose message was lost (run by beat)."""
    return turns_sweep()
