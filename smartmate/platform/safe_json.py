"""JSON from strangers, parsed with a bound on nesting.

Python's decoder recurses once per nested array or object: a 2 KB body of ``[[[[…]]]]`` raises
``RecursionError`` deep inside the parser (a 500 and a logged traceback), and a document a few
hundred levels deep parses fine but can exhaust the stack of whatever walks it next (serialisers,
the ORM's JSON fields, templates). Every entry point that parses a client's JSON goes through
``json_loads_bounded``, which refuses both with one error before any other work is done.

Pure standard library, so the pure cores may use it too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

# No legitimate document of ours nests deeper than a dozen levels; 64 leaves plenty of room.
MAX_JSON_DEPTH = 64


class JSONTooDeep(ValueError):
    """The document nests arrays and objects deeper than allowed."""

    def __init__(self, max_depth: int) -> None:
        super().__init__(f"JSON nested deeper than {max_depth} levels")
        self.max_depth = max_depth


def json_loads_bounded(text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH, **options: Any) -> Any:
    """``json.loads`` that raises JSONTooDeep (a ValueError) for nesting past ``max_depth``.

    Other malformed input raises json.JSONDecodeError as usual.
    """
    try:
        value = json.loads(text, **options)
    except RecursionError:
        raise JSONTooDeep(max_depth) from None
    if json_depth_exceeds(value, max_depth):
        raise JSONTooDeep(max_depth)
    return value


def json_depth_exceeds(value: Any, max_depth: int) -> bool:
    """Whether parsed JSON nests containers deeper than ``max_depth`` (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(node, dict):
            children = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > max_depth:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False
