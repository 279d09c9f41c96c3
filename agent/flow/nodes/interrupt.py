"""Interrupt node: show the open question or confirmation and end the turn until the student answers.

The pending interaction stays in the checkpoint; the student's ``chat.resume`` with its
``interaction_id`` starts a turn that resumes at ``chat``. Re-running this node after a crash sends
the same card with the same id again, which is harmless.
"""

from __future__ import annotations

from agent.flow.contracts import AskUser, ConfirmRequest
from agent.flow.deps import Deps
from agent.flow.nodes import Step
from agent.flow.state import ConfirmCard, Outcome, PendingInteraction, PlanConfirmation, ToolConfirmation, TurnState


def run(state: TurnState, deps: Deps) -> Step:
    """Emit the card and finish the turn as interrupted."""
    pending = state.pending
    assert pending is not None, "the graph comes here with a card open"
    if pending.kind == "ask_user":
        deps.emit(AskUser(interaction_id=pending.interaction_id, question=pending.prompt))
    else:
        card = _card_of(pending)
        deps.emit(ConfirmRequest(interaction_id=pending.interaction_id, title=card.title, summary=card.summary,
                                 details=card.details))
    return Step("deliver", state.updated(outcome=Outcome("interrupted", "waiting_for_student")))


def _card_of(pending: PendingInteraction) -> ConfirmCard:
    """The card the confirm node built (a bare one quoting the prompt should it be missing)."""
    card = pending.data.card if isinstance(pending.data, (PlanConfirmation, ToolConfirmation)) else None
    return card if card is not None else ConfirmCard(title="", summary=pending.prompt)
