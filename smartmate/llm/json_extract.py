"""Pull one JSON object out of what a model wrote, forgiving the usual slips.

Models wrap JSON in ```json fences, put a sentence before or after it, leave trailing commas,
write Python-style single quotes or True/False/None, put raw newlines inside strings, type the JSON
syntax with full-width punctuation (``｛“tool”：“x”，｝``, Chinese input methods) or encode the
object twice (a JSON string holding the object's text). The extractor tries, in order: the whole
text, each fenced block, then each balanced ``{...}`` in the text (string-aware, so braces inside
strings do not count); every candidate is parsed as is and then once more after a string-aware
repair, and a string that itself holds an object is read once more. The first candidate that
parses to an object wins, so none of these costs the model a correction call. Anything else raises
``MalformedOutput`` with a ``feedback`` line for the model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from smartmate.llm.errors import MalformedOutput

_FENCE = re.compile(r"```[ \t]*(?:json|JSON|json5)?[ \t]*\r?\n?(.*?)```", re.DOTALL)
_BARE_WORDS = {"True": "true", "False": "false", "None": "null"}
# Full-width forms Chinese input methods type in place of JSON syntax (read as such outside strings).
_FULL_WIDTH = {"｛": "{", "｝": "}", "［": "[", "］": "]", "：": ":", "，": ","}
_CURLY_QUOTES = {"“": "”", "”": "”"}


def extract_json_object(text: str) -> dict[str, Any]:
    """Return the first JSON object in ``text``; raise MalformedOutput when there is none."""
    stripped = (text or "").strip()
    if not stripped:
        raise MalformedOutput("the reply was empty", raw=text or "")
    whole, whole_error = _parse(stripped)
    if isinstance(whole, dict):
        return whole
    if isinstance(whole, str) and isinstance(inner := _parse(whole.strip())[0], dict):
        return inner  # double-encoded: the object's JSON text sent as a JSON string
    if whole_error is None:
        # Valid JSON of the wrong kind: digging an object out of a list would guess at intent.
        raise MalformedOutput(f"expected a JSON object, got {_json_kind(whole)}", raw=stripped)
    last_error = "no JSON object was found"
    for candidate in _candidates(stripped):
        value, error = _parse(candidate)
        if isinstance(value, dict):
            return value
        last_error = error or f"expected a JSON object, got {_json_kind(value)}"
    if "{" in stripped and not any(True for _ in _balanced_objects(stripped)):
        last_error = "the JSON object is incomplete (unbalanced braces); it may have been cut off"
    raise MalformedOutput(last_error, raw=stripped)


def _json_kind(value: Any) -> str:
    kinds = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else kinds.get(type(value), type(value).__name__)


def _candidates(text: str) -> Iterator[str]:
    for match in _FENCE.finditer(text):
        yield match.group(1).strip()
    yield from _balanced_objects(text)


def _parse(candidate: str) -> tuple[Any, str | None]:
    try:
        # strict=False: models put raw newlines and tabs inside strings.
        return json.loads(candidate, strict=False), None
    except json.JSONDecodeError:
        pass
    try:
        return json.loads(_repair(candidate), strict=False), None
    except json.JSONDecodeError as exc:
        error = f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    if '\\"' in candidate and '"' not in candidate.replace('\\"', ""):
        # Escaped once too often: {\"date\": \"2026-12-02\"} (the inside of a double-encoded string).
        return _parse(candidate.replace('\\"', '"'))
    return None, error


def _balanced_objects(text: str) -> Iterator[str]:
    """Yield every top-level ``{...}`` span whose braces balance, skipping braces inside strings."""
    start = text.find("{")
    while start != -1:
        end = _matching_brace(text, start)
        if end is None:
            return  # unbalanced from here on: later "{" sit inside this unfinished object
        yield text[start:end + 1]
        start = text.find("{", end + 1)


def _matching_brace(text: str, start: int) -> int | None:
    depth = 0
    quote: str | None = None
    escaped = False
    for index in range(start, len(text)):
        char = text[index]
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index
    return None


def _repair(candidate: str) -> str:
    """Rewrite single-quoted and curly-quoted strings, full-width punctuation, trailing commas and
    Python literals, outside JSON strings only."""
    out: list[str] = []
    index, length = 0, len(candidate)
    while index < length:
        char = _FULL_WIDTH.get(candidate[index], candidate[index])
        if char in _CURLY_QUOTES:
            end = candidate.find(_CURLY_QUOTES[char], index + 1)
            end = length if end == -1 else end
            out.append(json.dumps(candidate[index + 1:end], ensure_ascii=False))
            index = end + 1
        elif char == '"':
            end = _string_end(candidate, index, '"')
            out.append(candidate[index:end])
            index = end
        elif char == "'":
            end = _string_end(candidate, index, "'")
            out.append(_requote(candidate[index + 1:end - 1]))
            index = end
        elif char == ",":
            following = candidate[index + 1:].lstrip()
            if not following.startswith(("}", "]", "｝", "］")):
                out.append(char)
            index += 1
        elif char.isalpha():
            end = index
            while end < length and (candidate[end].isalnum() or candidate[end] == "_"):
                end += 1
            word = candidate[index:end]
            out.append(_BARE_WORDS.get(word, word))
            index = end
        else:
            out.append(char)
            index += 1
    return "".join(out)


def _string_end(text: str, start: int, quote: str) -> int:
    """Return the index just past the string opened at ``start`` (or the end of the text)."""
    index = start + 1
    while index < len(text):
        if text[index] == "\\":
            index += 2
            continue
        if text[index] == quote:
            return index + 1
        index += 1
    return len(text)


def _requote(body: str) -> str:
    # \' has no meaning in JSON; a bare " must be escaped once the string is double-quoted.
    body = body.replace("\\'", "'")
    body = re.sub(r'(?<!\\)"', r'\\"', body)
    return f'"{body}"'
