"""A rough token estimate, used only when an endpoint reports no usage.

Real usage always comes from the API (``stream_options.include_usage`` when streaming). Some
OpenAI-compatible servers still send none; then the quota would silently stop counting, so we
estimate and mark the figure ``estimated``. The rule: each CJK character is one token, other
text is one token per 4 characters (rounded up), plus 4 tokens of framing per message. With
common BPE tokenizers this lands within about a third of the truth for Chinese and English prose,
which is good enough for a weekly quota and clearly labelled as a guess.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from typing import Protocol

from smartmate.llm.contracts import ChatMessage, Completion, StageConfig, ToolSpec, Usage

_MESSAGE_OVERHEAD = 4
# CJK ideographs and punctuation, kana, Hangul, compatibility ideographs, full-width forms.
_CJK_RANGES = ((0x3000, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF),
               (0xF900, 0xFAFF), (0xFF00, 0xFFEF))


# One character class for the ranges: counting in C, not a generator per character (a profile of
# direct-reply turns found the per-character loop taking a fifth of the turn's CPU).
_CJK = re.compile("[" + "".join(f"{chr(low)}-{chr(high)}" for low, high in _CJK_RANGES) + "]")


def estimate_tokens(text: str) -> int:
    """Return a rough token count for ``text`` (see the module docstring for the rule)."""
    cjk = len(_CJK.findall(text))
    return cjk + math.ceil((len(text) - cjk) / 4)


def estimate_usage(messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] | None,
                   completion: Completion) -> Usage:
    """Return an estimated Usage for one call whose endpoint reported none."""
    prompt = sum(_MESSAGE_OVERHEAD + estimate_tokens(_message_text(message)) for message in messages)
    if tools:
        prompt += _tools_tokens(tools)
    produced = completion.text + completion.reasoning + "".join(
        call.name + call.arguments for call in completion.tool_calls)
    answer = estimate_tokens(produced)
    return Usage(prompt_tokens=prompt, completion_tokens=answer, total_tokens=prompt + answer, estimated=True)


def _tools_tokens(tools: Sequence[ToolSpec]) -> int:
    """``estimate_tokens`` of the tools' JSON list, from each tool's counted characters.

    Every model call of a turn estimates its prompt (the quota reservation) with the same tool specs;
    rendering and scanning their JSON (about 11,000 characters for all tools) each time was a
    noticeable part of an execute round. The list's JSON is its items joined by ", " inside "[]", so
    the counts add up to exactly what scanning the whole list gives.
    """
    cjk = other = 0
    for tool in tools:
        counted = _tool_chars(tool)
        cjk, other = cjk + counted[0], other + counted[1]
    other += 2 + 2 * (len(tools) - 1)  # "[", "]" and the ", " between items
    return cjk + math.ceil(other / 4)


# A tool spec's (CJK, other) character counts, by identity: specs are built once per process
# (agent.tools.support.registry) and reused. The spec is kept in the value, so its id cannot be reused.
_TOOL_CHARS: dict[int, tuple[ToolSpec, int, int]] = {}
_TOOL_CHARS_MAX = 1024


def _tool_chars(tool: ToolSpec) -> tuple[int, int]:
    cached = _TOOL_CHARS.get(id(tool))
    if cached is not None and cached[0] is tool:
        return cached[1], cached[2]
    text = json.dumps(tool.to_openai(), ensure_ascii=False)
    cjk = len(_CJK.findall(text))
    if len(_TOOL_CHARS) >= _TOOL_CHARS_MAX:  # specs made afresh for every call: do not grow without end
        _TOOL_CHARS.clear()
    _TOOL_CHARS[id(tool)] = (tool, cjk, len(text) - cjk)
    return cjk, len(text) - cjk


def _message_text(message: ChatMessage) -> str:
    calls = "".join(call.name + call.arguments for call in message.tool_calls)
    return (message.content or "") + calls


# What a call of a stage without max_tokens is assumed to produce at most.
DEFAULT_COMPLETION_RESERVE = 1024


class StageConfigs(Protocol):
    def stage_config(self, stage: str) -> StageConfig: ...


def call_reservation(client: StageConfigs, stage: str, messages: Sequence[ChatMessage],
                     tools: Sequence[ToolSpec] | None = None, config: StageConfig | None = None) -> int:
    """What one call may cost: its estimated prompt plus the most the stage lets the model write."""
    prompt = estimate_usage(messages, tools, Completion(text="")).prompt_tokens
    max_tokens = (config or client.stage_config(stage)).max_tokens
    return prompt + (max_tokens or DEFAULT_COMPLETION_RESERVE)
