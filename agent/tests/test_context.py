"""The prompt budget: recent history verbatim, older history as a digest, never over budget."""

from __future__ import annotations

from agent.flow.context import ANSWER_RESERVE, compact_history, estimate_tokens, history_budget
from agent.flow.state import HistoryMessage


def _history(count: int, length: int) -> tuple[HistoryMessage, ...]:
    return tuple(HistoryMessage(role="user" if index % 2 == 0 else "assistant", content=f"{index:03d}" + "字" * length)
                 for index in range(count))


def test_a_short_history_is_sent_whole():
    history = _history(4, 10)
    compact = compact_history(history, budget=1000)
    assert compact.recent == history and compact.digest == "" and compact.dropped == 0


def test_a_long_history_keeps_the_newest_messages_and_digests_the_older_ones():
    history = _history(40, 200)  # about 100 tokens each
    compact = compact_history(history, budget=1000)

    assert compact.recent == history[-7:]  # 3/4 of the budget for verbatim messages
    assert compact.tokens <= 1000
    digest_lines = compact.digest.splitlines()
    assert digest_lines and all(len(line) <= 63 for line in digest_lines)
    assert digest_lines[-1].startswith("学生：032") and compact.dropped == 33 - len(digest_lines)


def test_nothing_fits_in_a_zero_budget():
    compact = compact_history(_history(3, 10), budget=0)
    assert compact.recent == () and compact.digest == "" and compact.dropped == 3


def test_the_history_budget_leaves_room_for_the_answer():
    assert history_budget(24_000, fixed=1000) == 24_000 - 1000 - ANSWER_RESERVE
    assert history_budget(1000, fixed=5000) == 0
    assert estimate_tokens("abcd") == 2 and estimate_tokens("") == 0
