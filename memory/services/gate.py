"""The write gate on the Django side: the student's setting, refusal records and the error a student sees.

The rules live in ``memory.core.gate`` (pure). Here a verdict is taken for a student and, when it
is a refusal, counted (metric) and recorded as a ``MemoryRefusal`` row without the text.

``settings.MEMORY_GATE_ENABLED = False`` switches the gate off; only ``python -m bench.memory_eval
--no-gate`` does that, to measure what the gate changes. It is not an environment setting.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.models import User
from memory import metrics
from memory.core.gate import Category, GateVerdict, gate_check
from memory.exceptions import MemoryRefused
from memory.models import MemoryJob, MemoryRefusal, MemorySettings

Source = MemoryRefusal.Source


def gate_enabled() -> bool:
    return bool(getattr(settings, "MEMORY_GATE_ENABLED", True))


def sensitive_memory_allowed(*, user: User) -> bool:
    """Tell whether the student switched on remembering sensitive facts about themselves."""
    return bool(MemorySettings.objects.filter(user=user).values_list("sensitive_memory_enabled", flat=True).first())


def memory_gate(*, user: User, content: str, category: str | None, source: str, job: MemoryJob | None = None,
                sensitive: bool | None = None, record: bool = True) -> GateVerdict:
    """Check one memory write; a refusal is counted and recorded (without the text) unless ``record``
    is off (the caller records it later, in its own transaction)."""
    if not gate_enabled():
        return GateVerdict(True, category or Category.ORDINARY.value)
    if sensitive is None:
        sensitive = sensitive_memory_allowed(user=user)
    verdict = gate_check(content, category=category, sensitive_allowed=sensitive)
    if not verdict.allowed and record:
        memory_refusal_record(user=user, verdict=verdict, source=source, job=job)
    return verdict


def safe_reason(reason: str) -> str:
    """A model's reason for an audit entry, or "" when it quotes what the gate keeps out."""
    if not gate_enabled() or not reason:
        return reason
    return reason if gate_check(reason, category=None, sensitive_allowed=True).allowed else ""


def memory_refusal_record(*, user: User, verdict: GateVerdict, source: str, job: MemoryJob | None = None) -> None:
    """Count a refusal and keep who, which rule, what kind and when: never what was refused."""
    MemoryRefusal.objects.create(user=user, category=verdict.category, rule=verdict.rule, source=source, job=job)
    metrics.REFUSALS.labels(verdict.rule, verdict.category, source).inc()


def memory_gate_or_refuse(*, user: User, content: str, source: str) -> None:
    """Gate a student's own writing (add, edit); raise ``MemoryRefused`` saying why in their terms."""
    verdict = memory_gate(user=user, content=content, category=None, source=source)
    if not verdict.allowed:
        raise MemoryRefused(refusal_message(verdict), detail={"rule": verdict.rule, "category": verdict.category})


def refusal_message(verdict: GateVerdict) -> str:
    """What the student is told about a refusal (the kind of thing, never the text)."""
    if verdict.category == Category.SENSITIVE_SELF:
        return _("This looks like sensitive information about you (health, beliefs and the like). Switch on "
                 "“Remember sensitive information” on this page to keep it.")
    if verdict.category == Category.INSTRUCTION:
        return _("Memory keeps facts about you, not instructions to the assistant: what it may do comes from "
                 "your settings and your messages.")
    if verdict.category == Category.THIRD_PARTY:
        return _("Memory does not keep sensitive information about other people.")
    return _("Memory does not keep passwords, ID, passport or bank-card numbers, phone numbers, e-mail or home "
             "addresses.")
