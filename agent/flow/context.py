"""The prompt's token budget: what each part costs and how old history is compacted to fit.

Token counts are estimates (about two characters a token for mixed Chinese and English, the same
rule the client uses when an endpoint reports no usage); they decide what fits, while the bill
uses the real figures from the API. Pure: no Django, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from agent.flow.state import HistoryMessage

# Older messages are kept as one line each, cut to this many characters, in the digest.
DIGEST_LINE_CHARS = 60
# What the answer itself needs: never give the prompt the whole window.
ANSWER_RESERVE = 2000


def estimate_tokens(text: str | None) -> int:
    """Return the estimated tokens of ``text``."""
    return math.ceil(len(text or "") / 2)


@dataclass(frozen=True)
class CompactHistory:
    """The history as sent: recent messages verbatim, older ones as a short digest (or nothing)."""

    recent: tuple[HistoryMessage, ...]
    digest: str
    dropped: int

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.digest) + sum(estimate_tokens(message.content) for message in self.recent)


def compact_history(history: Sequence[HistoryMessage], budget: int) -> CompactHistory:
    """Keep the newest messages that fit ``budget``; fold older ones into a digest within a quarter of it.

    Why a digest and not a summary call: compaction runs on every turn and must cost no model call;
    one line per older message keeps names, dates and decisions findable.
    """
    recent: list[HistoryMessage] = []
    used = 0
    for message in reversed(history):
        cost = estimate_tokens(message.content)
        if used + cost > budget * 3 // 4:
            break
        recent.append(message)
        used += cost
    recent.reverse()
    older = list(history[:len(history) - len(recent)])
    lines, digest_used = [], 0
    for message in reversed(older):
        line = f"{'学生' if message.role == 'user' else '助手'}：{_first_line(message.content)}"
        if digest_used + estimate_tokens(line) > max(0, budget - used):
            break
        lines.append(line)
        digest_used += estimate_tokens(line)
    lines.reverse()
    return CompactHistory(recent=tuple(recent), digest="\n".join(lines), dropped=len(older) - len(lines))


def _first_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= DIGEST_LINE_CHARS else line[:DIGEST_LINE_CHARS - 1] + "…"


def history_budget(budget: int, *, fixed: int) -> int:
    """Return the tokens left for history once the fixed parts and the answer's reserve are paid."""
    return max(0, budget - ANSWER_RESERVE - fixed)
