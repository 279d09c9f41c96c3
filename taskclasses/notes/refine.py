"""Quick add's model path: an uncertain line is also read by the language model, within 2 s, on the chat quota.

The page shows the rules' answer at once (``quick_note_parse``) and then asks for this refinement when
the parse has doubts. The model's answer is checked strictly (core/quick_add/refinement.py); whatever
goes wrong - no quota left, a slow or failing model, an answer outside the contract - the rules' answer
stands and the outcome says why. Without a model configured the outcome says so (``no_model``).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from accounts.exceptions import TokenQuotaExceededError
from accounts.models import User
from accounts.quota import reserved_complete
from smartmate.llm import (
    ChatMessage,
    LLMClient,
    LLMError,
    LLMNotConfigured,
    LLMTimeout,
    MalformedOutput,
    extract_json_object,
    get_llm_client,
)
from taskclasses.notes.core.quick_add import QuickNoteParse
from taskclasses.notes.core.quick_add.refinement import (
    INSTRUCTIONS,
    RefinementRejected,
    refinement_apply,
    refinement_read,
    refinement_request,
)
from taskclasses.notes.services import quick_note_parse

log = logging.getLogger(__name__)

STAGE = "quick_add"
COMPARED_FIELDS = ("title", "quadrant", "deadline", "readings")


class _BudgetSpent(Exception):  # raised from the client's poll once the budget is spent
    pass


@dataclass(frozen=True)
class RefineOutcome:
    """The parse to show, whether the model changed it, and why not when it did not."""

    parse: QuickNoteParse  # the refined parse, or the rules' own
    rules: QuickNoteParse
    outcome: str  # refined | unchanged | sure | no_model | quota_exceeded | timeout | model_failed | malformed
    changed: tuple[str, ...] = field(default=())
    elapsed_ms: int = 0


def quick_note_refine(*, user: User, text: str, now: datetime | None = None,
                      budget: float | None = None) -> RefineOutcome:
    """Read a quick note with the rules, then let the model refine it if the rules had doubts; writes nothing.

    The model gets ``budget`` seconds (``settings.QUICK_ADD_REFINE_SECONDS`` by default); past it the rules'
    parse comes back as ``timeout``.

    Without a model set up the rules' parse comes back as it is (``no_model``), nothing charged.
    """
    started = time.monotonic()
    now = timezone.localtime(now or timezone.now(), user.zone)
    rules = quick_note_parse(user=user, text=text, now=now)
    try:
        client = get_llm_client()
    except LLMNotConfigured:
        return RefineOutcome(parse=rules, rules=rules, outcome="no_model")
    if not rules.doubts:
        return RefineOutcome(parse=rules, rules=rules, outcome="sure")
    # The budget is the model's: the client is built once per process (importing openai takes a second).
    budget = settings.QUICK_ADD_REFINE_SECONDS if budget is None else budget
    outcome, refined = _ask_model(client, user, rules, now, deadline=time.monotonic() + budget)
    changed = tuple(name for name in COMPARED_FIELDS if getattr(refined, name) != getattr(rules, name))
    if outcome == "refined" and not changed:
        outcome = "unchanged"
    return RefineOutcome(parse=refined, rules=rules, outcome=outcome, changed=changed,
                         elapsed_ms=round((time.monotonic() - started) * 1000))


def _ask_model(client: LLMClient, user: User, rules: QuickNoteParse, now: datetime, *,
               deadline: float) -> tuple[str, QuickNoteParse]:
    """One reserved call; (outcome, parse), the rules' parse on every failure."""
    def poll() -> None:
        if time.monotonic() > deadline:
            raise _BudgetSpent()

    messages = [ChatMessage.system(INSTRUCTIONS), ChatMessage.user(refinement_request(rules, now=now))]
    try:
        completion = reserved_complete(client, user, STAGE, messages, poll=poll)
        refinement = refinement_read(extract_json_object(completion.text or ""), parsed=rules, now=now)
    except TokenQuotaExceededError:
        return "quota_exceeded", rules
    except (_BudgetSpent, LLMTimeout):
        return "timeout", rules
    except (MalformedOutput, RefinementRejected) as error:
        log.info("Quick add ignored a model answer for user %s: %s", user.pk, error)
        return "malformed", rules
    except LLMError as error:
        log.warning("Quick add's model call failed for user %s: %s", user.pk, error.code)
        return "model_failed", rules
    return "refined", refinement_apply(rules, refinement, now=now)
