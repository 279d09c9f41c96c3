"""From a finished turn to memory changes: extract candidate facts, compare, decide, apply.

1. The memory-stage model reads the student's message (the answer only as context) and proposes
   a few facts about the student, each with a category; unconfident, malformed or oversized ones
   are dropped and the batch is de-duplicated (``memory.core.dedup``). Then the write gate
   (``memory.core.gate``) refuses what is never kept, whatever category the model gave; refusals
   are recorded without their text, in the job's transaction.
2. Each fact is compared with the student's similar active memories (vector recall, plus recent
   rows of its type the index does not cover yet). An exact duplicate is NONE at once; a fact with
   nothing related is ADD at once; the rest go to the model in one call. A near duplicate goes to
   the model too (it may be an update), but is never added beside its twin: ADD becomes NONE.
3. The model sees existing memories only as aliases (m1, m2 …) that the server maps back to ids,
   and answers ADD / UPDATE / INVALIDATE / FORGET / NONE per fact. An alias it invents is ignored
   (logged, counted): an UPDATE of an unknown memory becomes an ADD, an INVALIDATE of one does nothing.
   FORGET (the student wants a memory gone; INVALIDATE says it stopped being true) is carried out
   only for a fact the extraction marked as a forget request, and only on that student's memories
   (the aliases map to nothing else); a forget request itself is never stored.
4. All changes of the job are applied in one transaction under the student's memory lock, forgets
   first, so nothing else in the job builds on a memory that is about to go.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from django.db import transaction

from accounts.quota import ReservingClient
from memory import metrics
from memory.core.dedup import DedupPolicy, MemoryText, Verdict, check_duplicate, content_hash, dedupe_batch
from memory.core.forget_requests import asks_for_everything_about, is_forget_everything
from memory.core.gate import GateVerdict
from memory.embeddings import get_embedder
from memory.models import MemoryAudit, MemoryItem, MemoryJob, MemoryRefusal
from memory.prompts import render
from memory.services.gate import memory_gate, memory_refusal_record, safe_reason, sensitive_memory_allowed
from memory.services.items import (
    NewMemory,
    active_duplicate,
    changed_on_commit,
    clean_content,
    forget_versions,
    lock_user_memory,
    memory_add,
    memory_invalidate,
    memory_supersede,
)
from memory.vectorstore import get_vector_store
from smartmate.llm import ChatMessage, Usage, get_llm_client

log = logging.getLogger("memory.extraction")

TYPES = tuple(MemoryItem.Type.values)
ACTIONS = ("ADD", "UPDATE", "INVALIDATE", "FORGET", "NONE")
#: The category of a fact that is the student asking to forget something, not a fact to keep.
FORGET_REQUEST = "forget_request"
MAX_MESSAGE_CHARS = 1500
MAX_ANSWER_CHARS = 600
#: Candidates worth showing the model: a little looser than dedup's "related" (0.25 relative), so
#: an update that changes one word ("早上" → "晚上") is still compared, not added beside the old one.
DECISION_POLICY = DedupPolicy(related_at=0.15)


@dataclass(frozen=True)
class Fact:
    memory_type: str
    content: str
    importance: float
    confidence: float
    category: str = ""

    @property
    def is_forget_request(self) -> bool:
        return self.category == FORGET_REQUEST


@dataclass
class Outcome:
    """What a job did: counts per action, tokens spent, ids changed."""

    facts: int = 0
    actions: dict[str, int] = field(
        default_factory=lambda: {"add": 0, "update": 0, "invalidate": 0, "forget": 0, "none": 0})
    unknown_aliases: int = 0
    refused: int = 0
    llm_calls: int = 0
    tokens: int = 0
    changed: list[int] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"facts": self.facts, **self.actions, "refused": self.refused, "unknown_aliases": self.unknown_aliases,
                "llm_calls": self.llm_calls, "tokens": self.tokens}


@dataclass
class Pending:
    """One fact on its way to a decision, with the existing memories it resembles."""

    fact: Fact
    vector: np.ndarray
    candidates: list[MemoryItem] = field(default_factory=list)
    action: str | None = None
    target: MemoryItem | None = None
    reason: str = ""
    near_duplicate_of: MemoryItem | None = None
    forget_targets: list[MemoryItem] = field(default_factory=list)
    # For a forget request: candidate id -> the id of the candidate it was learned together with.
    learned_with: dict[int, int] = field(default_factory=dict)


def memory_extract_and_apply(*, job: MemoryJob, min_confidence: float, max_facts: int,
                             candidates_per_fact: int) -> Outcome:
    """Run extraction and decisions for one job's turn; raise LLM / store errors for a retry."""
    outcome = Outcome()
    message = job.user_message
    text = (message.content if message else "").strip()[:MAX_MESSAGE_CHARS]
    if not text:
        return outcome
    if is_forget_everything(text):
        # Nothing to extract, and similarity finds nothing to forget for "everything" (it names no topic).
        if not _waiting_for_a_card(job):  # else the student decides on the chat's forget card
            _forget_everything(job, outcome)
        return outcome
    answer = (job.assistant_message.content if job.assistant_message else "").strip()[:MAX_ANSWER_CHARS]
    # Each call reserves from the weekly quota first and is charged what it used (accounts.quota).
    client = ReservingClient(get_llm_client(), job.user)
    usage: list[Usage] = []
    try:
        facts = extract_facts(client, text, answer, record=usage.append, max_facts=max_facts,
                              min_confidence=min_confidence)
        outcome.facts = len(facts)
        if _waiting_for_a_card(job):
            # The turn ended on a confirmation card (the chat's forget card among them): the
            # student decides there, so a forget request is not carried out behind their back.
            facts = [fact for fact in facts if not fact.is_forget_request]
        facts, refusals = _gate(job, facts)
        outcome.refused = len(refusals)
        pending = _compare(job, facts, candidates_per_fact) if facts else []
        undecided = [p for p in pending if p.action is None]
        if undecided:
            decide(client, undecided, record=usage.append, outcome=outcome)
        if asks_for_everything_about(text):
            _forget_the_details_too(pending)
        if pending or refusals:
            _apply(job, pending, outcome, refusals)
    finally:
        outcome.llm_calls = len(usage)
        outcome.tokens = sum(u.total_tokens for u in usage)
    return outcome


# --- 1. Extraction -------------------------------------------------------------------------------

def extract_facts(client, text: str, answer: str, *, record, max_facts: int, min_confidence: float) -> list[Fact]:
    """Ask the model for facts about the student in ``text``; return the usable ones, batch-deduplicated."""
    user = f"## 学生的消息\n{text}"
    if answer:
        user += f"\n\n## 助手的回答（仅作上下文）\n{answer}"
    messages = [ChatMessage.system(render("extract", max_facts=max_facts)), ChatMessage.user(user)]
    data = client.complete("memory", messages, record_usage=record).json()
    facts = [fact for fact in (_fact(raw) for raw in _list(data, "facts")) if fact and fact.confidence >= min_confidence]
    facts = facts[:max_facts]
    keep = dedupe_batch([MemoryText(i, f.memory_type, f.content) for i, f in enumerate(facts)])
    return [facts[i] for i in keep]


def _list(data: dict, key: str) -> list:
    value = data.get(key)
    return value if isinstance(value, list) else []


def _fact(raw: Any) -> Fact | None:
    if not isinstance(raw, dict):
        return None
    memory_type = str(raw.get("type", "")).strip().lower()
    content = clean_content(raw.get("content", ""))
    if memory_type not in TYPES or not content:
        return None
    category = str(raw.get("category", "")).strip().lower()
    return Fact(memory_type, content, _unit(raw.get("importance"), 0.5), _unit(raw.get("confidence"), 0.0), category)


def _unit(value: Any, default: float) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    return min(1.0, max(0.0, number)) if np.isfinite(number) else default


def _waiting_for_a_card(job: MemoryJob) -> bool:
    answer = job.assistant_message
    return answer is not None and getattr(answer, "outcome", "") == "interrupted"


def _gate(job: MemoryJob, facts: list[Fact]) -> tuple[list[Fact], list[GateVerdict]]:
    """Split facts into those the gate lets through and the refusals (forget requests are not stored,
    so they pass: they only name memories to remove)."""
    sensitive = sensitive_memory_allowed(user=job.user)
    kept, refusals = [], []
    for fact in facts:
        if fact.is_forget_request:
            kept.append(fact)
            continue
        verdict = memory_gate(user=job.user, content=fact.content, category=fact.category,
                              source=MemoryRefusal.Source.EXTRACTION, sensitive=sensitive, record=False)
        if verdict.allowed:
            kept.append(fact)
        else:
            refusals.append(verdict)
    return kept, refusals


# --- 2. Comparison -------------------------------------------------------------------------------

def _compare(job: MemoryJob, facts: list[Fact], per_fact: int) -> list[Pending]:
    embedder = get_embedder()
    vectors = embedder.embed_passages([fact.content for fact in facts])
    pending = [Pending(fact, vector) for fact, vector in zip(facts, vectors)]
    for item in pending:
        existing = _similar_rows(job.user, item, per_fact)
        if item.fact.is_forget_request:
            _forget_candidates(job.user, item, existing, embedder)
            continue
        duplicate = active_duplicate(user=job.user, memory_type=item.fact.memory_type, content=item.fact.content)
        if duplicate is not None:
            item.action, item.target, item.reason = "NONE", duplicate, "exact duplicate"
            continue
        if not existing:
            item.action, item.reason = "ADD", "nothing similar"
            continue
        existing_vectors = embedder.embed_passages([row.content for row in existing])
        check = check_duplicate(
            MemoryText(0, item.fact.memory_type, item.fact.content, item.vector),
            [MemoryText(row.pk, row.memory_type, row.content, v) for row, v in zip(existing, existing_vectors)],
            DECISION_POLICY)
        by_id = {row.pk: row for row in existing}
        if check.verdict is Verdict.NEAR_DUPLICATE:
            assert check.match_id is not None  # a near duplicate names what it duplicates
            # Never added twice, but still shown to the model: e5 scores "在图书馆复习" / "在宿舍复习"
            # as near duplicates, and that is an update, not a repeat.
            item.near_duplicate_of = by_id[check.match_id]
            item.candidates = [item.near_duplicate_of, *(by_id[similar.id] for similar in check.related)]
        elif not check.related:
            item.action, item.reason = "ADD", "nothing related"
        else:
            item.candidates = [by_id[similar.id] for similar in check.related]
    return pending


def _forget_candidates(user, item: Pending, existing: list[MemoryItem], embedder) -> None:
    """What a forget request may name: the memories related to it (exact matches first); the model picks."""
    exact = list(MemoryItem.objects.filter(user=user, status=MemoryItem.Status.ACTIVE,
                                           content_hash=content_hash(item.fact.memory_type, item.fact.content)))
    others = [row for row in existing if row.pk not in {e.pk for e in exact}]
    related: list[MemoryItem] = []
    if others:
        vectors = embedder.embed_passages([row.content for row in others])
        check = check_duplicate(
            MemoryText(0, item.fact.memory_type, item.fact.content, item.vector),
            [MemoryText(row.pk, row.memory_type, row.content, v) for row, v in zip(others, vectors)],
            DECISION_POLICY)
        by_id = {row.pk: row for row in others}
        near = [check.match_id] if check.match_id is not None else []
        related = [by_id[i] for i in [*near, *(similar.id for similar in check.related)]]
    item.candidates = [*exact, *related]
    _add_learned_together(user, item)
    if not item.candidates:
        item.action, item.reason = "NONE", "nothing to forget"


def _add_learned_together(user, item: Pending) -> None:
    """Offer the details learned from the same message as a candidate ("在准备考研" and "目标浙大计算机"
    from one sentence) and say so: forgetting "the 考研 thing" usually means both, and similarity
    alone may miss or underrate them. The model still decides; the payload names each detail's
    anchor (the best-matching candidate from that message)."""
    anchors: dict[int, int] = {}  # message id -> the first (best-matching) candidate learned from it
    for row in item.candidates:
        if row.source_message_id is not None:
            anchors.setdefault(row.source_message_id, row.pk)
    if not anchors:
        return
    named = {row.pk for row in item.candidates}
    siblings = (MemoryItem.objects.filter(user=user, status=MemoryItem.Status.ACTIVE,
                                          source_message_id__in=list(anchors))
                .exclude(pk__in=list(named)).order_by("pk"))
    item.candidates.extend(siblings)
    for row in item.candidates:
        anchor = anchors.get(row.source_message_id) if row.source_message_id is not None else None
        if anchor is not None and anchor != row.pk:
            item.learned_with[row.pk] = anchor


def _similar_rows(user, item: Pending, per_fact: int) -> list[MemoryItem]:
    """The student's active memories nearest to the fact, plus the newest of its type that are not
    searchable (vector not synced yet, or the store is down), so an index lagging behind the rows
    never lets a duplicate or an update slip through as an ADD."""
    active = MemoryItem.objects.filter(user=user, status=MemoryItem.Status.ACTIVE)
    same_type = active.filter(memory_type=item.fact.memory_type).order_by("-updated_at", "-id")
    try:
        hits = get_vector_store().search(user.pk, item.vector, top_k=per_fact, statuses=["active"])
    except Exception as exc:  # noqa: BLE001 - degrade to rows; the decision still sees candidates
        log.warning("memory: candidate recall failed for user %s, using recent rows: %s", user.pk, exc)
        metrics.RECALL.labels("vector_error").inc()
        return list(same_type[:per_fact])
    rows = active.in_bulk([hit.id for hit in hits])
    found = [rows[hit.id] for hit in hits if hit.id in rows]
    unsearchable = same_type.exclude(vector_state=MemoryItem.VectorState.SYNCED).exclude(pk__in=list(rows))
    return found + list(unsearchable[:per_fact])


# --- 3. Decisions --------------------------------------------------------------------------------

def decide(client, pending: list[Pending], *, record, outcome: Outcome) -> None:
    """Ask the model for one decision per fact; map its aliases back to rows (unknown ones ignored)."""
    rows: dict[int, MemoryItem] = {}
    for item in pending:
        for row in item.candidates:
            rows.setdefault(row.pk, row)
    aliases = {f"m{n}": row for n, row in enumerate(sorted(rows.values(), key=lambda r: r.pk), start=1)}
    facts = {f"f{n}": item for n, item in enumerate(pending, start=1)}
    payload = {
        "existing": _existing_for_prompt(aliases, pending),
        "new": [_new_for_prompt(ref, item.fact) for ref, item in facts.items()],
    }
    messages = [ChatMessage.system(render("decide")), ChatMessage.user(json.dumps(payload, ensure_ascii=False))]
    data = client.complete("memory", messages, record_usage=record).json()
    for raw in _list(data, "decisions"):
        if not isinstance(raw, dict):
            continue
        named = facts.get(str(raw.get("new", "")).strip())
        action = str(raw.get("action", "")).strip().upper()
        if named is None or named.action is not None or action not in ACTIONS:
            continue
        item = named
        item.reason = str(raw.get("reason", ""))[:200]
        if action == "FORGET" or item.fact.is_forget_request:
            _take_forget(item, action, raw, aliases)
            continue
        if action in ("UPDATE", "INVALIDATE"):
            target = aliases.get(str(raw.get("target", "")).strip())
            if target is None:
                log.warning("memory: the model named unknown memory %r (%s); ignored", raw.get("target"), action)
                metrics.DECISIONS.labels("unknown_alias").inc()
                outcome.unknown_aliases += 1
                action = "ADD" if action == "UPDATE" else "NONE"
            item.target = target
        item.action = action
    for item in pending:
        if item.action is None:
            item.action, item.reason = ("NONE", "no decision given") if item.fact.is_forget_request else (
                "ADD", "no decision given")
        if item.action == "ADD" and item.near_duplicate_of is not None:
            item.action, item.target, item.reason = "NONE", item.near_duplicate_of, "near duplicate"


def _existing_for_prompt(aliases: dict[str, MemoryItem], pending: list[Pending]) -> list[dict[str, str]]:
    """The memories shown to the model, each detail naming the memory it was learned with."""
    alias_of = {row.pk: alias for alias, row in aliases.items()}
    partners = {pk: anchor for item in pending for pk, anchor in item.learned_with.items()}
    entries = []
    for alias, row in aliases.items():
        entry = {"ref": alias, "type": row.memory_type, "content": row.content}
        if partners.get(row.pk) in alias_of:
            entry["learned_with"] = alias_of[partners[row.pk]]
        entries.append(entry)
    return entries


def _new_for_prompt(ref: str, fact: Fact) -> dict[str, str]:
    new = {"ref": ref, "type": fact.memory_type, "content": fact.content}
    if fact.is_forget_request:
        new["request"] = FORGET_REQUEST
    return new


def _take_forget(item: Pending, action: str, raw: dict, aliases: dict[str, MemoryItem]) -> None:
    """FORGET only answers a forget request; a forget request is only ever FORGET or NONE."""
    listed = raw.get("targets")
    refs = listed if isinstance(listed, list) else [raw.get("target")]
    targets = [aliases[ref] for ref in (str(r).strip() for r in refs if r is not None) if ref in aliases]
    if not item.fact.is_forget_request:
        # The student did not ask to forget: the strongest thing this can mean is "no longer true".
        log.warning("memory: the model proposed FORGET for a fact that is no forget request; invalidating")
        metrics.DECISIONS.labels("forget_downgraded").inc()
        item.action, item.target = ("INVALIDATE", targets[0]) if targets else ("NONE", None)
        return
    if action != "FORGET" or not targets:
        item.action, item.reason = "NONE", "nothing to forget"
        return
    item.action, item.forget_targets = "FORGET", list({row.pk: row for row in targets}.values())


def _forget_the_details_too(pending: list[Pending]) -> None:
    """"Forget everything about my tutoring job": the details learned in the same message as a memory
    being forgotten ("300 RMB per session") go with it, whatever the model judged about them."""
    for item in pending:
        if item.action != "FORGET":
            continue
        chosen = {row.pk for row in item.forget_targets}
        item.forget_targets += [row for row in item.candidates
                                if item.learned_with.get(row.pk) in chosen and row.pk not in chosen]


# --- 4. Apply ------------------------------------------------------------------------------------

def _apply(job: MemoryJob, pending: list[Pending], outcome: Outcome, refusals: list[GateVerdict]) -> None:
    user = job.user
    source = job.user_message_id
    with transaction.atomic():
        lock_user_memory(user=user)
        for verdict in refusals:
            memory_refusal_record(user=user, verdict=verdict, source=MemoryRefusal.Source.EXTRACTION, job=job)
        forgotten = _apply_forgets(job, [item for item in pending if item.action == "FORGET"], outcome)
        for item in pending:
            if item.action == "FORGET" or item.fact.is_forget_request:
                if item.action != "FORGET":
                    outcome.actions["none"] += 1
                    metrics.DECISIONS.labels("none").inc()
                continue
            new = NewMemory(item.fact.memory_type, item.fact.content, item.fact.importance, item.fact.confidence,
                            source_message_id=source)
            target = _still_active(item.target)
            action = item.action
            assert action is not None  # every fact has a decision by now (_decide)
            if action == "UPDATE" and target is None:
                action = "ADD"
            if (action == "UPDATE" and target is not None
                    and target.content_hash == content_hash(new.memory_type, clean_content(new.content))):
                action = "NONE"
            changed = _apply_one(job, action, new, target, safe_reason(item.reason))
            key = action.lower() if changed or action == "NONE" else "none"  # an ADD that met a duplicate
            outcome.actions[key] += 1
            metrics.DECISIONS.labels(key).inc()
            outcome.changed.extend(changed)
        outcome.changed = [pk for pk in outcome.changed if pk not in forgotten]
        if outcome.changed:
            changed_on_commit(user_id=user.pk, ids=outcome.changed)


def _apply_forgets(job: MemoryJob, forgets: list[Pending], outcome: Outcome) -> set[int]:
    """Forget what the student asked to forget (their own memories only); return the ids removed."""
    forgotten: set[int] = set()
    for item in forgets:
        for target in item.forget_targets:
            row = MemoryItem.objects.filter(user=job.user, pk=target.pk).first()
            if row is None or row.pk in forgotten:
                continue
            forgotten |= set(forget_versions(user=job.user, item=row, operator=MemoryAudit.Operator.SYSTEM, job=job))
        outcome.actions["forget"] += 1
        metrics.DECISIONS.labels("forget").inc()
    return forgotten


def _forget_everything(job: MemoryJob, outcome: Outcome) -> None:
    """The student said "forget everything" and no card asks them: forget each of their memories, history
    included, with vectors, cached blocks and audit text (``memory_forget_all`` would also delete the
    jobs, this one among them, while it runs)."""
    with transaction.atomic():
        lock_user_memory(user=job.user)
        forgotten: set[int] = set()
        for row in list(MemoryItem.objects.filter(user=job.user).order_by("pk")):  # history too
            if row.pk not in forgotten:
                forgotten |= set(forget_versions(user=job.user, item=row, operator=MemoryAudit.Operator.SYSTEM,
                                                 job=job))
                outcome.actions["forget"] += 1
                metrics.DECISIONS.labels("forget").inc()


def _still_active(item: MemoryItem | None) -> MemoryItem | None:
    if item is None:
        return None
    return MemoryItem.objects.filter(pk=item.pk, status=MemoryItem.Status.ACTIVE).first()


def _apply_one(job: MemoryJob, action: str, new: NewMemory, target: MemoryItem | None, reason: str) -> list[int]:
    user = job.user
    if action == "ADD":
        added = memory_add(user=user, new=new, reason=reason, job=job)
        return [added.pk] if added else []
    if action == "UPDATE" and target is not None:
        if active_duplicate(user=user, memory_type=new.memory_type, content=new.content, exclude_id=target.pk):
            memory_invalidate(user=user, item=target, reason=reason, job=job)
            return [target.pk]
        successor = memory_supersede(user=user, old=target, new=new, reason=reason, job=job)
        return [target.pk, successor.pk]
    if action == "INVALIDATE" and target is not None:
        memory_invalidate(user=user, item=target, reason=reason, job=job)
        return [target.pk]
    return []
