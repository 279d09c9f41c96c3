"""The v2 evaluation's matchers (see README.md): which memory texts express an expected fact.

A matcher is a string (contained), a list of strings (all contained) or an object with ``all_of``
(each element a string or a list of alternatives), ``any_of``, ``none_of`` and ``max``. Texts are
compared after NFKC, case folding and removing all whitespace, so "6222 0202 …" and "62220202…"
are the same.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

Matcher = str | list | dict


def normalized(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", str(text)).casefold())


def matches(matcher: Matcher, text: str) -> bool:
    """True when ``text`` expresses the matcher's fact."""
    target = normalized(text)
    if isinstance(matcher, str):
        return normalized(matcher) in target
    if isinstance(matcher, list):
        return all(normalized(word) in target for word in matcher)
    for element in matcher.get("all_of", []):
        if not _found(element if isinstance(element, list) else [element], target):
            return False
    any_of = matcher.get("any_of")
    if any_of and not _found(any_of, target):
        return False
    return not _found(matcher.get("none_of", []), target)


def matching(matcher: Matcher, texts: Iterable[str]) -> list[str]:
    return [text for text in texts if matches(matcher, text)]


def limit(matcher: Matcher) -> int | None:
    """The ``max`` of an object matcher (None when it has none)."""
    return matcher.get("max") if isinstance(matcher, dict) else None


def label(matcher: Matcher) -> str:
    """A short human description of a matcher, for problem lines."""
    if isinstance(matcher, dict):
        return str(matcher.get("fact") or matcher.get("all_of") or matcher.get("any_of"))
    return str(matcher)


def restates(first: str, second: str, *, overlap: float = 0.5) -> bool:
    """True when two memories that match one expected fact say the same thing, not just share a word.

    Matchers are loose on purpose (a key word or two, several phrasings), so two different facts
    can match one: "这学期周一到周四全是早八" and "上完早八我只想回去补觉" both contain 早八. They
    restate each other when they are in different languages (the matcher already tied them to one
    fact; wording cannot be compared across languages), or when most of the shorter one's words
    (Latin words and Chinese character pairs) are in the longer one: rewording and typos keep most.
    """
    a, b = _tokens(first), _tokens(second)
    if not a or not b:
        return False
    if _has_cjk(first) != _has_cjk(second):
        return True
    return len(a & b) / min(len(a), len(b)) >= overlap


_STOP = frozenset("a an the to in on at of for with my me i im am is are be do does it that this and or "
                  "but so very really just than then".split())


def _tokens(text: str) -> set[str]:
    clean = unicodedata.normalize("NFKC", str(text)).casefold()  # spaces kept: they separate the words
    words = {_stem(word) for word in re.findall(r"[a-z0-9]+", clean) if word not in _STOP}
    chinese = "".join(re.findall(r"[\u4e00-\u9fff]", clean))
    return words | {chinese[i:i + 2] for i in range(len(chinese) - 1)}


def _stem(word: str) -> str:
    """Crude: "mornings" and "morning" → "morn", "maths" → "math", "studying" → "study"."""
    if word.endswith("s") and not word.endswith("ss") and len(word) > 4:
        word = word[:-1]
    if word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    return word


def _has_cjk(text: str) -> bool:
    return bool(re.search(r"[\u4e00-\u9fff]", text))


def _found(words: list[Any], target: str) -> bool:
    return any(normalized(word) in target for word in words)
