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


def _found(words: list[Any], target: str) -> bool:
    return any(normalized(word) in target for word in words)
