"""Merging, ranking and capping memories for the prompt (memory.core.ranking)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory.core.ranking import (
    MemoryCandidate,
    RankingPolicy,
    Source,
    estimate_tokens,
    rank_memories,
)

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def memory(memory_id: int, memory_type: str = "fact", content: str | None = None, *, days_old: float = 0,
           importance: float = 0.5, cosine: float | None = None) -> MemoryCandidate:
    return MemoryCandidate(
        id=memory_id, memory_type=memory_type, content=content or f"memory {memory_id}",
        updated_at=NOW - timedelta(days=days_old), importance=importance, cosine=cosine,
    )


def test_the_score_mixes_similarity_importance_recency_and_type():
    ranking = rank_memories([], [memory(1, "preference", days_old=30, importance=0.8, cosine=0.9)], now=NOW)

    (item,) = ranking.items
    assert (item.similarity, item.recency) == (1.0, 0.5)
    assert item.score == pytest.approx(0.45 * 1.0 + 0.25 * 0.8 + 0.15 * 0.5 + 0.10)


def test_similarity_is_measured_between_the_floor_and_the_best_hit():
    ranking = rank_memories([], [memory(1, cosine=0.90), memory(2, cosine=0.86)], now=NOW)

    assert [(i.candidate.id, i.similarity) for i in ranking.items] == [(1, 1.0), (2, pytest.approx(0.6))]


def test_a_memory_found_both_ways_keeps_the_row_and_the_cosine():
    row = memory(1, "constraint", "不要在周日安排任务")
    hit = memory(1, "constraint", "stale text", cosine=0.88)

    (item,) = rank_memories([row], [hit], now=NOW).items

    assert (item.source, item.candidate.content, item.candidate.cosine) == (Source.BOTH, "不要在周日安排任务", 0.88)


def test_structured_memories_stay_without_any_similarity():
    ranking = rank_memories([memory(1, "constraint")], [], now=NOW)

    assert [(i.candidate.id, i.source, i.similarity) for i in ranking.items] == [(1, Source.STRUCTURED, 0.0)]


def test_recalled_memories_at_the_floor_or_far_below_the_best_hit_are_dropped():
    recalled = [memory(1, cosine=0.90), memory(2, cosine=0.86), memory(3, cosine=0.84), memory(4, cosine=0.80)]

    ranking = rank_memories([], recalled, now=NOW)

    assert ranking.ids == (1, 2)
    assert ranking.below_threshold == 2


def test_a_recall_entirely_below_the_floor_adds_nothing():
    ranking = rank_memories([memory(9, "constraint")], [memory(1, cosine=0.78)], now=NOW)

    assert ranking.ids == (9,)


def test_the_same_text_under_two_ids_is_kept_once_with_its_better_score():
    recalled = [memory(1, content="I like tea.", cosine=0.86), memory(2, content="i like TEA", cosine=0.90)]

    ranking = rank_memories([], recalled, now=NOW)

    assert (ranking.ids, ranking.duplicates) == ((2,), 1)


def test_a_recalled_id_listed_twice_keeps_its_best_cosine():
    ranking = rank_memories([], [memory(1, cosine=0.84), memory(1, cosine=0.90)], now=NOW)

    assert [(i.candidate.id, i.candidate.cosine) for i in ranking.items] == [(1, 0.90)]


def test_per_type_limits_and_the_total_count_cap_the_list():
    policy = RankingPolicy(max_items=3, per_type_limits=(("fact", 2),))
    structured = [memory(i, "fact", importance=1 - i / 10) for i in range(1, 5)] + [memory(9, "goal")]

    ranking = rank_memories(structured, [], now=NOW, policy=policy)

    assert ranking.ids == (1, 2, 9)
    assert ranking.over_budget == 2


def test_a_memory_too_long_for_the_budget_is_skipped_and_shorter_ones_still_fit():
    policy = RankingPolicy(max_chars=30)
    structured = [memory(1, content="a" * 20, importance=1.0), memory(2, content="b" * 20, importance=0.9),
                  memory(3, content="c" * 10, importance=0.1)]

    assert rank_memories(structured, [], now=NOW, policy=policy).ids == (1, 3)


def test_the_token_budget_counts_chinese_characters_as_tokens():
    policy = RankingPolicy(max_tokens=10)
    structured = [memory(1, content="不要在周日安排任务", importance=1.0), memory(2, content="周末去图书馆")]

    assert rank_memories(structured, [], now=NOW, policy=policy).ids == (1,)


def test_estimate_tokens_counts_a_cjk_character_as_one_and_four_other_characters_as_one():
    assert estimate_tokens("不要在周日安排任务") == 9
    assert estimate_tokens("I like tea") == 3
    assert estimate_tokens("") == 0


def test_newer_memories_outrank_older_equals_and_ties_go_to_the_lower_id():
    structured = [memory(3, days_old=60), memory(2, days_old=1), memory(1, days_old=60)]

    assert rank_memories(structured, [], now=NOW).ids == (2, 1, 3)


def test_a_memory_dated_in_the_future_counts_as_brand_new():
    (item,) = rank_memories([memory(1, days_old=-2)], [], now=NOW).items

    assert item.recency == 1.0


def test_importance_outside_0_to_1_is_clamped():
    high, low = rank_memories([memory(1, importance=7), memory(2, importance=-3)], [], now=NOW).items

    assert high.score == pytest.approx(0.25 + 0.15) and low.score == pytest.approx(0.15)


def test_nothing_in_gives_nothing_out():
    ranking = rank_memories([], [], now=NOW)

    assert (ranking.items, ranking.below_threshold, ranking.duplicates, ranking.over_budget) == ((), 0, 0, 0)


def test_a_naive_now_is_refused():
    with pytest.raises(ValueError, match="now must be timezone-aware"):
        rank_memories([], [], now=datetime(2026, 3, 2))
